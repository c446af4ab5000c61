// Package jsonl reads JSON lines of any shape, read through a --map field mapping: the decoder is Format,
// whose doc says which instant each field marks.
package jsonl

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes JSON lines of any shape, one request per line, with a
// field mapping the user gives as JSON text in decode.Input.Opts.Map (--map
// JSON|@FILE). Without a mapping Decode fails with "jsonl needs --map". It
// never sniffs: generic JSON must be chosen with --format jsonl.
//
// The mapping names, for each value, the field holding it: a key, or a dotted
// path into nested objects ("usage.prompt_tokens"; a key that itself contains
// dots, like "gen_ai.usage.input_tokens", is matched whole first):
//
//	{
//	  "source": "client",                    // client | proxy | server; default client
//	  "require": "event.type",               // optional: lines without this field are skipped
//	  "start": {"field": "ts", "format": "rfc3339"},
//	  "headers":     {"field": "timing.headers_ms", "unit": "ms"},
//	  "first_token": {"field": "timing.ttft_ms", "unit": "ms"},
//	  "last_token":  {"field": "timing.last_ms", "unit": "ms"},
//	  "end":         {"field": "finished_at", "format": "unix_ms"},
//	  "queue":       {"field": "queue_s", "unit": "s"},      // also "prefill", "decode": durations
//	  "request_id": "id", "trace_id": "traceparent", "response_id": "response.id",
//	  "model": "model", "endpoint": "path", "status": "status", "error": "error",
//	  "stream": "stream", "prompt_tokens": "usage.prompt_tokens",
//	  "output_tokens": "usage.completion_tokens", "tokens_source": "usage",
//	  "host": "hostname", "attrs": ["region", "tenant"]
//	}
//
// An instant is either absolute, with "format" rfc3339 (a string; one
// without a zone is read in --tz, else UTC), unix_s, unix_ms, unix_us or
// unix_ns (a number or numeric string, read exactly: "1700000000.123456"
// seconds loses nothing), or a duration after start, with "unit" s, ms, us or
// ns. start must be absolute; its instant is Unix time on the host's wall
// clock. Every instant the mapping names marks what its field marks: the
// user's mapping says which of SPEC §1's instants it is. Missing or null
// fields leave the value nil. trace_id takes a 32-hex id or a traceparent.
// error is a failure when it is a non-empty string or true; its class comes
// from status (decode.ErrorClass), else server_error; its text is not stored. A
// status of 400 or more without error is a failure of its status class.
// tokens_source is usage, counted or derived (default unknown). attrs copies
// scalar fields as strings, keyed by the path; never name a field holding
// prompt or response text.
//
// Records: a blank line is a skip, so is a line without the "require" field;
// a line that is not a JSON object, lacks start or has a value of the wrong
// kind is a reject naming the field.
type Format struct{}

func (Format) Name() string   { return "jsonl" }
func (Format) Source() string { return schema.SourceClient }
func (Format) Describe() string {
	return "generic JSON lines with a --map field mapping: whatever instants, ids and counts the mapping names"
}

// Sniff never claims an input: any JSON lines would match.
func (Format) Sniff(head []byte) bool { return false }

// LineRecords reports that every line is a record of its own, so the
// driver may decode a large file in blocks.
func (Format) LineRecords(head []byte) bool { return true }

func (g Format) Decode(in *decode.Input, sink decode.Sink) error {
	return g.decode(in, sink, true)
}

// decode reads the input, by the fast path (jsonl_fast.go) first when
// useFast is set, else by the general route alone.
func (Format) decode(in *decode.Input, sink decode.Sink, useFast bool) error {
	m, err := parseJSONLMapping(in.Opts.Map)
	if err != nil {
		return err
	}
	fast := newJSONLFast(m, in)
	useFast = useFast && fast != nil
	return decode.ReadRecordsByLine(in.R, sink, func(line int64, b []byte) {
		if len(bytes.TrimSpace(b)) == 0 {
			sink.Skip(line, "blank line")
			return
		}
		if useFast && fast.decode(line, b, sink) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil || obj == nil {
			sink.Reject(line, "invalid json", decode.TruncateDetail(fmt.Sprint(err)))
			return
		}
		if m.Require != "" {
			if v, ok := jsonlLookup(obj, m.Require); !ok || v == nil {
				sink.Skip(line, "not a request record")
				return
			}
		}
		ev, reason, detail := m.event(in, obj)
		if reason != "" {
			sink.Reject(line, reason, detail)
			return
		}
		ev.InputLine = line
		sink.Event(line, b, ev)
	})
}

// jsonlLookup returns the value at path in obj: the key path itself, else a
// dotted descent (trying every split, leftmost first).
func jsonlLookup(obj map[string]any, path string) (any, bool) {
	if v, ok := obj[path]; ok {
		return v, true
	}
	for i := 0; i < len(path); i++ {
		if path[i] != '.' {
			continue
		}
		if sub, ok := obj[path[:i]].(map[string]any); ok {
			if v, ok := jsonlLookup(sub, path[i+1:]); ok {
				return v, true
			}
		}
	}
	return nil, false
}

// jsonlScalar renders a string, number or bool as a string; ok is false for
// null, objects and arrays.
func jsonlScalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// errBadTime is jsonlTime's error for a value that is no instant.
var errBadTime = errors.New("bad timestamp")

// jsonlTime parses an absolute instant into Unix nanoseconds; the error is
// textscan.ErrTimeRange for a date int64 ns cannot hold, else errBadTime.
func jsonlTime(v any, format string, tz *time.Location) (int64, error) {
	s, ok := jsonlScalar(v)
	if !ok {
		return 0, errBadTime
	}
	return jsonlTimeText(s, format, tz)
}

// jsonlTimeText parses the text of an absolute instant into Unix
// nanoseconds, with jsonlTime's errors.
func jsonlTimeText(s, format string, tz *time.Location) (int64, error) {
	if format != "rfc3339" {
		if ns, ok := textscan.ScaledDecimalNs(strings.TrimSpace(s), jsonlUnitNs[format]); ok {
			return ns, nil
		}
		return 0, errBadTime
	}
	if tz == nil {
		tz = time.UTC
	}
	ns, err := textscan.ParseNs(time.RFC3339Nano, s, time.UTC)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if err == nil || errors.Is(err, textscan.ErrTimeRange) {
			return ns, err
		}
		ns, err = textscan.ParseNs(layout, s, tz)
	}
	if err != nil && !errors.Is(err, textscan.ErrTimeRange) {
		err = errBadTime
	}
	return ns, err
}

// event maps one JSON object to an event; it returns a reject reason and a
// detail naming the field for a value of the wrong kind.
func (m *jsonlMapping) event(in *decode.Input, obj map[string]any) (*schema.Event, string, string) {
	ev := &schema.Event{Source: m.Source, Format: "jsonl", Host: in.Host, Clock: schema.ClockWall, InputFile: in.Name}
	for _, step := range []func(*schema.Event, *decode.Input, map[string]any) (string, string){m.times, m.ids, m.outcome, m.counts} {
		if reason, detail := step(ev, in, obj); reason != "" {
			return nil, reason, detail
		}
	}
	for _, path := range m.Attrs {
		if v, ok := jsonlLookup(obj, path); ok {
			if s, ok := jsonlScalar(v); ok {
				if ev.Attrs == nil {
					ev.Attrs = map[string]string{}
				}
				ev.Attrs[path] = s
			}
		}
	}
	return ev, "", ""
}

// jsonlDetail names a field and its offending value.
func jsonlDetail(field string, v any) string {
	return decode.TruncateDetail(fmt.Sprintf("%s=%v", field, v))
}

// times sets start, the other instants and the phases.
func (m *jsonlMapping) times(ev *schema.Event, in *decode.Input, obj map[string]any) (string, string) {
	v, ok := jsonlLookup(obj, m.Start.Field)
	if !ok || v == nil {
		return "missing start", m.Start.Field
	}
	start, err := jsonlTime(v, m.Start.Format, in.Opts.TZ)
	if err != nil {
		return err.Error(), jsonlDetail(m.Start.Field, v)
	}
	ev.StartNs = decode.Ptr(start)
	dsts, instants := jsonlInstantDsts(ev), m.instants()
	for i, t := range instants[1:] {
		if t.spec == nil {
			continue
		}
		v, ok := jsonlLookup(obj, t.spec.Field)
		if !ok || v == nil {
			continue
		}
		if t.spec.Format != "" {
			ns, err := jsonlTime(v, t.spec.Format, in.Opts.TZ)
			if err != nil {
				return err.Error(), jsonlDetail(t.spec.Field, v)
			}
			*dsts[i] = decode.Ptr(ns)
			continue
		}
		s, _ := jsonlScalar(v)
		ns, ok := textscan.ScaledDecimalNs(strings.TrimSpace(s), jsonlUnitNs[t.spec.Unit])
		if !ok || !t.phase && (ns > 0 && start > math.MaxInt64-ns || ns < 0 && start < math.MinInt64-ns) {
			return "bad duration", jsonlDetail(t.spec.Field, v)
		}
		if !t.phase {
			ns += start
		}
		*dsts[i] = decode.Ptr(ns)
	}
	return "", ""
}

// ids sets the ids, model, endpoint, host and stream flag.
func (m *jsonlMapping) ids(ev *schema.Event, _ *decode.Input, obj map[string]any) (string, string) {
	strs := []struct {
		path string
		dst  *string
	}{
		{m.RequestID, &ev.RequestID}, {m.ResponseID, &ev.ResponseID}, {m.Model, &ev.Model},
		{m.Endpoint, &ev.Endpoint}, {m.Host, &ev.Host}, {m.TraceID, &ev.TraceID},
	}
	for _, s := range strs {
		if s.path == "" {
			continue
		}
		v, ok := jsonlLookup(obj, s.path)
		if !ok || v == nil {
			continue
		}
		str, ok := jsonlScalar(v)
		if !ok {
			return "bad value", jsonlDetail(s.path, v)
		}
		if str != "" {
			*s.dst = str
		}
	}
	ev.Endpoint = decode.EndpointPath(ev.Endpoint)
	if ev.TraceID != "" {
		ev.TraceID = cmp.Or(decode.NormalizeTraceID(ev.TraceID), decode.TraceIDFromTraceparent(ev.TraceID))
	}
	if v, ok := jsonlLookup(obj, m.Stream); m.Stream != "" && ok && v != nil {
		s, _ := jsonlScalar(v)
		b, err := strconv.ParseBool(s)
		if err != nil {
			return "bad value", jsonlDetail(m.Stream, v)
		}
		ev.Stream = decode.Ptr(b)
	}
	return "", ""
}

// outcome sets the status and the error class.
func (m *jsonlMapping) outcome(ev *schema.Event, _ *decode.Input, obj map[string]any) (string, string) {
	if v, ok := jsonlLookup(obj, m.Status); m.Status != "" && ok && v != nil {
		s, _ := jsonlScalar(v)
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 100 || n > 599 {
			return "bad status", jsonlDetail(m.Status, v)
		}
		ev.Status = decode.Ptr(int32(n))
		ev.Error = decode.ErrorClass(n)
	}
	failed := false
	if v, ok := jsonlLookup(obj, m.Error); m.Error != "" && ok {
		switch x := v.(type) {
		case bool:
			failed = x
		case string:
			failed = x != ""
		case nil:
		default:
			failed = true
		}
	}
	if failed && ev.Error == schema.ErrorNone {
		ev.Error = schema.ErrorServer
	}
	return "", ""
}

// counts sets the token counts.
func (m *jsonlMapping) counts(ev *schema.Event, _ *decode.Input, obj map[string]any) (string, string) {
	for _, c := range []struct {
		path string
		dst  **int64
		src  *string
	}{
		{m.PromptTokens, &ev.PromptTokens, &ev.PromptTokensSource},
		{m.OutputTokens, &ev.OutputTokens, &ev.OutputTokensSource},
	} {
		v, ok := jsonlLookup(obj, c.path)
		if c.path == "" || !ok || v == nil {
			continue
		}
		s, _ := jsonlScalar(v)
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < 0 {
			return "bad token count", jsonlDetail(c.path, v)
		}
		*c.dst, *c.src = decode.Ptr(n), m.TokensSource
	}
	return "", ""
}
