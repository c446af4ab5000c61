package litellm

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the litellm decoder. Profiling showed the time in
// encoding/json unmarshalling every payload into litellmRecord (reflection,
// a map of additional headers, a string per field). Here a line is walked
// once in place: the fields litellmRecord holds are read from the bytes
// (repeated values interned, counts from one arena) into a litellmRecord
// whose event is built by the same code as the general route's. Whatever it
// does not reproduce exactly (case-folded or escaped keys, duplicate keys,
// values of another type, undecodable escapes) goes to the general route,
// so events, rejects and reasons are the same either way;
// TestLiteLLMFastMatchesGeneral and FuzzLiteLLMFast check it.

// litellmFields are the record keys the fast path reads, by index.
var litellmFields = []string{"id", "request_id", "litellm_call_id", "trace_id", "call_type", "stream", "status",
	"startTime", "endTime", "completionStartTime", "model", "model_group", "api_base", "custom_llm_provider",
	"prompt_tokens", "completion_tokens", "response_cost", "cache_hit", "metadata", "hidden_params", "error_information"}

// litellmHeader is one of hidden_params.additional_headers.
type litellmHeader struct {
	key   []byte
	value json.RawMessage
}

// litellmFast reads litellm lines in place; its scratch is reused.
type litellmFast struct {
	rec     litellmRecord
	headers []litellmHeader
	stack   []byte
	fail    bool
	intern  decode.InternTable
	arena   decode.ValueArena
	maps    decode.AttrMaps
	build   litellmBuild // the event being built, reused record to record
}

// read fills f.rec and f.headers from line and reports false when the
// line needs the general route.
func (f *litellmFast) read(line []byte) bool {
	return f.readAt(line, 0) == len(line)
}

// readAt fills f.rec and f.headers from the object at b[i] (after white
// space) and returns the index just past it, or -1 when the record needs
// the general route.
func (f *litellmFast) readAt(b []byte, i int) int {
	f.rec, f.headers, f.fail = litellmRecord{}, f.headers[:0], false
	var seen uint32
	end := jsonwalk.WalkObject(b, i, func(key []byte, j int) int {
		k, ok := litellmKey(key)
		if !ok || k >= 0 && seen&(1<<k) != 0 {
			return -1
		}
		if k < 0 {
			return jsonwalk.WalkSkip(b, j, &f.stack)
		}
		seen |= 1 << k
		return f.field(b, k, j)
	})
	if f.fail {
		return -1
	}
	return end
}

// field reads the value at line[j] of field k.
func (f *litellmFast) field(line []byte, k, j int) int {
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
		end := jsonwalk.WalkSkip(line, j, &f.stack)
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

// str reads a string field (null leaves it empty).
func (f *litellmFast) str(line []byte, j int, dst *string, intern bool) int {
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	s, end, plain, ok := jsonwalk.WalkString(line, j)
	if !ok {
		return -1
	}
	if !plain {
		var good bool
		if s, good = jsonwalk.AppendUnescapedText(nil, s); !good {
			return -1
		}
	}
	if intern {
		*dst = f.intern.Get(s)
	} else {
		*dst = string(s)
	}
	return end
}

// boolean reads a *bool field.
func (f *litellmFast) boolean(line []byte, j int, dst **bool) int {
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
func (f *litellmFast) count(line []byte, j int, dst **int64) int {
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

// number reads response_cost, a json.Number (null leaves it empty).
func (f *litellmFast) number(line []byte, j int) int {
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
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

// object walks the object (or null) at line[j] with member, failing on
// duplicate keys among names.
func (f *litellmFast) object(line []byte, j int, names []string, member func(k, j int) int) int {
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	var seen uint32
	return jsonwalk.WalkObject(line, j, func(key []byte, j int) int {
		k, ok := jsonwalk.StructKey(key, names)
		if !ok || k >= 0 && seen&(1<<k) != 0 {
			return -1
		}
		if k < 0 {
			return jsonwalk.WalkSkip(line, j, &f.stack)
		}
		seen |= 1 << k
		return member(k, j)
	})
}

func (f *litellmFast) metadata(line []byte, j int) int {
	m := &f.rec.Metadata
	return f.object(line, j, []string{"user_api_key_request_route", "status"}, func(k, j int) int {
		return f.str(line, j, []*string{&m.Route, &m.Status}[k], true)
	})
}

func (f *litellmFast) errorInfo(line []byte, j int) int {
	e := &f.rec.ErrorInformation
	return f.object(line, j, []string{"error_code", "error_class"}, func(k, j int) int {
		if k == 1 {
			return f.str(line, j, &e.Class, true)
		}
		end := jsonwalk.WalkSkip(line, j, &f.stack)
		if end >= 0 {
			e.Code = line[j:end]
		}
		return end
	})
}

// hidden reads hidden_params.additional_headers into f.headers.
func (f *litellmFast) hidden(line []byte, j int) int {
	return f.object(line, j, []string{"additional_headers"}, func(_, j int) int {
		if line[j] == 'n' {
			return jsonwalk.WalkLiteral(line, j, "null")
		}
		return jsonwalk.WalkObject(line, j, func(key []byte, j int) int {
			if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
				return -1
			}
			for _, h := range f.headers {
				if bytes.Equal(h.key, key) {
					return -1
				}
			}
			end := jsonwalk.WalkSkip(line, j, &f.stack)
			if end >= 0 {
				f.headers = append(f.headers, litellmHeader{key, line[j:end]})
			}
			return end
		})
	})
}

// headerIDs appends the x-request-id headers' values as ids does.
func (f *litellmFast) headerIDs(ev *schema.Event) {
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

// decode reads one line whose first byte is '{': false when the general
// route must read it, else it told sink what the general route would have.
func (f *litellmFast) decode(in *decode.Input, loc *time.Location, line int64, t []byte, sink decode.Sink) bool {
	return f.read(t) && f.emit(in, loc, line, t, sink)
}

// emit reports the record read into f.rec, whose bytes are raw: false when
// the general route must read it (it would reject it).
func (f *litellmFast) emit(in *decode.Input, loc *time.Location, line int64, raw []byte, sink decode.Sink) bool {
	f.build.ev, f.build.attrs = schema.Event{}, f.build.attrs[:0]
	if reason, _ := f.rec.event(loc, &f.build); reason != "" {
		return false
	}
	ev := &f.build.ev
	f.headerIDs(ev)
	ev.Format, ev.Source, ev.Host, ev.Clock = "litellm", schema.SourceProxy, in.Host, schema.ClockWall
	ev.InputFile, ev.InputLine = in.Name, line
	sink.Event(line, raw, ev)
	return true
}

// litellmEpochNs is textscan.DecimalScaled(s, 9) for a JSON number in place, for
// numbers of at most 10 integer digits without exponent; ok is false and
// slow true for the others.
func litellmEpochNs(b []byte) (ns int64, ok, slow bool) {
	i, neg := 0, b[0] == '-'
	if neg {
		i = 1
	}
	var v uint64
	start := i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + uint64(b[i]-'0')
	}
	if i == start || i-start > 10 {
		return 0, false, true
	}
	scale := uint64(1e9)
	v *= scale
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if scale > 1 {
				scale /= 10
				v += uint64(b[i]-'0') * scale
			}
		}
	}
	if i != len(b) || v > math.MaxInt64 {
		return 0, false, true
	}
	if neg {
		return -int64(v), true, false
	}
	return int64(v), true, false
}
