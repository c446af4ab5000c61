package litellm

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// A LiteLLM record is walked once in place: the fields litellmRecord
// holds are read from the bytes (repeated values interned, counts from one
// arena) as encoding/json decodes them into it: keys match as it matches
// fields (escapes decoded, the exact name first, else case-insensitively),
// a repeated key's last value wins (null leaves a string or an object as it
// was, and clears a pointer), nested objects met twice are merged, and a
// number may be written as a string where a json.Number is read. A record
// encoding/json would refuse (bad syntax, a value of the wrong type) is
// rejected in its words (litellmRefuse). Profiling had shown the time in
// encoding/json's reflection, a map of additional headers and a string per
// field.

// litellmFields are the record keys read, by index.
var litellmFields = []string{"id", "request_id", "litellm_call_id", "trace_id", "call_type", "stream", "status",
	"startTime", "endTime", "completionStartTime", "model", "model_group", "api_base", "custom_llm_provider",
	"prompt_tokens", "completion_tokens", "response_cost", "cache_hit", "metadata", "hidden_params", "error_information"}

// litellmHeader is one of hidden_params.additional_headers.
type litellmHeader struct {
	key   []byte
	value json.RawMessage
}

// litellmReader reads litellm lines in place; its scratch is reused.
type litellmReader struct {
	rec     litellmRecord
	headers []litellmHeader
	stack   []byte
	intern  decode.InternTable
	arena   decode.ValueArena
	maps    decode.AttrMaps
	build   litellmBuild // the event being built, reused record to record
}

// read fills f.rec and f.headers from line, one object and white space,
// and reports false when encoding/json would refuse it.
func (f *litellmReader) read(line []byte) bool {
	end := f.readAt(line, 0)
	return end >= 0 && jsonwalk.SkipWS(line, end) == len(line)
}

// readAt fills f.rec and f.headers from the object at b[i] (after white
// space) and returns the index just past it, or -1 when the record needs
// the general route.
func (f *litellmReader) readAt(b []byte, i int) int {
	f.rec, f.headers = litellmRecord{}, f.headers[:0]
	return jsonwalk.WalkObject(b, i, func(key []byte, j int) int {
		k, ok := litellmKey(key)
		if !ok {
			k, ok = jsonwalk.FieldIndex(key, litellmFields)
		}
		switch {
		case !ok:
			return -1
		case k < 0:
			return f.skip(b, j)
		}
		return f.field(b, k, j)
	})
}

// skip returns the index past the JSON value at b[j], or -1 for one that
// is not JSON (or nests deeper than encoding/json allows).
func (f *litellmReader) skip(b []byte, j int) int {
	end, st, grown := jsonwalk.ValueEnd(b, j, f.stack)
	f.stack = grown[:0]
	return jsonwalk.EndIf(st == jsonwalk.OK, end)
}

// field reads the value at line[j] of field k.
func (f *litellmReader) field(line []byte, k, j int) int {
	r := &f.rec
	switch k {
	case 0, 1, 2, 3:
		return f.str(line, j, []*string{&r.ID, &r.RequestID, &r.CallID, &r.TraceID}[k], false)
	case 4:
		return f.str(line, j, &r.CallType, true)
	case 6:
		return f.str(line, j, &r.Status, true)
	case 10, 11, 12, 13:
		return f.str(line, j, []*string{&r.Model, &r.ModelGroup, &r.APIBase, &r.Provider}[k-10], true)
	case 5, 17:
		return f.boolean(line, j, []**bool{&r.Stream, &r.CacheHit}[(k-5)/12])
	case 7, 8, 9:
		end := f.skip(line, j)
		if end >= 0 {
			*[]*json.RawMessage{&r.StartTime, &r.EndTime, &r.CompletionStartTime}[k-7] = line[j:end]
		}
		return end
	case 14, 15:
		return f.count(line, j, []**int64{&r.PromptTokens, &r.CompletionTokens}[k-14])
	case 16:
		return f.number(line, j)
	case 18:
		return f.metadata(line, j)
	case 19:
		return f.hidden(line, j)
	}
	return f.errorInfo(line, j)
}

// str reads a string field (null leaves it as it was).
func (f *litellmReader) str(line []byte, j int, dst *string, intern bool) int {
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	s, end, ok := jsonwalk.Text(line, j)
	if !ok {
		return -1
	}
	if intern {
		*dst = f.intern.Get(s)
	} else {
		*dst = string(s)
	}
	return end
}

// boolean reads a *bool field.
func (f *litellmReader) boolean(line []byte, j int, dst **bool) int {
	switch line[j] {
	case 'n':
		*dst = nil
		return jsonwalk.WalkLiteral(line, j, "null")
	case 't':
		*dst = f.arena.Bool(true)
		return jsonwalk.WalkLiteral(line, j, "true")
	}
	*dst = f.arena.Bool(false)
	return jsonwalk.WalkLiteral(line, j, "false")
}

// count reads a *int64 field.
func (f *litellmReader) count(line []byte, j int, dst **int64) int {
	if line[j] == 'n' {
		*dst = nil
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	v, end, ok := jsonwalk.StrictInt(line, j)
	if !ok || end < len(line) && (line[end] == '.' || line[end] == 'e' || line[end] == 'E') {
		return -1
	}
	*dst = f.arena.Int64(v)
	return end
}

// number reads response_cost, a json.Number: a number, or a string
// holding exactly one (null leaves it as it was).
func (f *litellmReader) number(line []byte, j int) int {
	switch line[j] {
	case 'n':
		return jsonwalk.WalkLiteral(line, j, "null")
	case '"':
		s, end, ok := jsonwalk.Text(line, j)
		if !ok || !jsonwalk.IsNumber(s) {
			return -1
		}
		f.rec.ResponseCost = json.Number(f.intern.Get(s))
		return end
	}
	if c := line[j]; c != '-' && (c < '0' || c > '9') {
		return -1
	}
	end, st := jsonwalk.NumberEnd(line, j)
	if st != jsonwalk.OK {
		return -1
	}
	f.rec.ResponseCost = json.Number(f.intern.Get(line[j:end]))
	return end
}

// object walks the object at line[j] into a struct with member, which
// reads the value of field names[k]; null leaves the struct as it was.
func (f *litellmReader) object(line []byte, j int, names []string, member func(k, j int) int) int {
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	return jsonwalk.WalkObject(line, j, func(key []byte, j int) int {
		k, ok := jsonwalk.FieldIndex(key, names)
		switch {
		case !ok:
			return -1
		case k < 0:
			return f.skip(line, j)
		}
		return member(k, j)
	})
}

func (f *litellmReader) metadata(line []byte, j int) int {
	m := &f.rec.Metadata
	return f.object(line, j, []string{"user_api_key_request_route", "status"}, func(k, j int) int {
		return f.str(line, j, []*string{&m.Route, &m.Status}[k], true)
	})
}

func (f *litellmReader) errorInfo(line []byte, j int) int {
	e := &f.rec.ErrorInformation
	return f.object(line, j, []string{"error_code", "error_class"}, func(k, j int) int {
		if k == 1 {
			return f.str(line, j, &e.Class, true)
		}
		end := f.skip(line, j)
		if end >= 0 {
			e.Code = line[j:end]
		}
		return end
	})
}

// hidden reads hidden_params.additional_headers into f.headers, as
// encoding/json fills a map[string]json.RawMessage: keys decoded, a
// repeated key's last value wins, a second object adds to the first and
// null clears it.
func (f *litellmReader) hidden(line []byte, j int) int {
	return f.object(line, j, []string{"additional_headers"}, func(_, j int) int {
		if line[j] == 'n' {
			f.headers = f.headers[:0]
			return jsonwalk.WalkLiteral(line, j, "null")
		}
		return jsonwalk.WalkObject(line, j, func(key []byte, j int) int {
			end := f.skip(line, j)
			text, ok := jsonwalk.KeyText(key)
			if end >= 0 && ok {
				f.header(text, line[j:end])
			}
			return jsonwalk.EndIf(ok, end)
		})
	})
}

// header sets the additional header key to value.
func (f *litellmReader) header(key []byte, value json.RawMessage) {
	for i := range f.headers {
		if bytes.Equal(f.headers[i].key, key) {
			f.headers[i].value = value
			return
		}
	}
	f.headers = append(f.headers, litellmHeader{key, value})
}

// headerIDs appends the x-request-id headers' values as ids does.
func (f *litellmReader) headerIDs(ev *schema.Event) {
	slices.SortFunc(f.headers, func(a, b litellmHeader) int { return bytes.Compare(a.key, b.key) })
	for _, h := range f.headers {
		if !litellmRequestIDKey(h.key) {
			continue
		}
		if s := decode.JSONString(h.value); s != "" {
			ev.OtherIDs = append(ev.OtherIDs, s)
		}
	}
}

// litellmRequestIDKey is strings.HasSuffix(strings.ToLower(k), "x-request-id").
func litellmRequestIDKey(k []byte) bool {
	for _, c := range k {
		if c >= utf8.RuneSelf {
			return strings.HasSuffix(strings.ToLower(string(k)), "x-request-id")
		}
	}
	const suffix = "x-request-id"
	return len(k) >= len(suffix) && bytes.EqualFold(k[len(k)-len(suffix):], []byte(suffix))
}

// decode reads one line whose first byte is '{' and reports false, having
// reported nothing, when encoding/json would refuse it: decode.JSONRecords
// then reads it as the start of a record over several lines, or gives it
// to record.
func (f *litellmReader) decode(in *decode.Input, loc *time.Location, line int64, t []byte, sink decode.Sink) bool {
	if !f.read(t) {
		return false
	}
	f.emit(in, loc, decode.At(line), t, sink)
	return true
}

// record reports one record (raw, any JSON text, starting at at),
// rejecting one that encoding/json would refuse in its words, where it
// refuses it.
func (f *litellmReader) record(in *decode.Input, loc *time.Location, sink decode.Sink, at decode.Pos, raw []byte) {
	if i := jsonwalk.SkipWS(raw, 0); i+4 <= len(raw) && string(raw[i:i+4]) == "null" && jsonwalk.SkipWS(raw, i+4) == len(raw) {
		f.rec, f.headers = litellmRecord{}, f.headers[:0] // null leaves litellmRecord empty
	} else if !f.read(raw) {
		err := litellmRefuse(raw)
		sink.Reject(decode.JSONErrorAt(at.Line, at.Col, raw, err), "invalid json", decode.TruncateDetail(err.Error()))
		return
	}
	f.emit(in, loc, at, raw, sink)
}

// litellmRefuse returns encoding/json's error for a record read refused:
// a syntax error, or the first value of the wrong type for litellmRecord.
func litellmRefuse(raw []byte) error {
	var r litellmRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return err
	}
	return errors.New("unreadable record") // not reached: read takes what encoding/json takes
}

// emit reports the record read into f.rec, whose bytes are raw, starting
// at at.
func (f *litellmReader) emit(in *decode.Input, loc *time.Location, at decode.Pos, raw []byte, sink decode.Sink) {
	line := at.Line
	f.build.ev, f.build.attrs = schema.Event{}, f.build.attrs[:0]
	if reason, detail := f.rec.event(loc, &f.build); reason != "" {
		sink.Reject(at, reason, decode.TruncateDetail(detail)) // the record's '{'
		return
	}
	ev := &f.build.ev
	f.headerIDs(ev)
	ev.Format, ev.Source, ev.Host, ev.Clock = "litellm", schema.SourceProxy, in.Host, schema.ClockWall
	ev.InputFile, ev.InputLine = in.Name, line
	sink.Event(line, raw, ev)
}
