package otlp

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// otlpSpan is a span decoded from any of the JSON dialects, before it is
// mapped to an event. Instants are Unix nanoseconds; of the attributes
// only those the mapping reads are kept (otlpAttrSet).
type otlpSpan struct {
	traceID, spanID, name string
	kind                  string // server, client, internal, producer, consumer or ""
	start, end            *int64
	failed                bool
	attrs                 *otlpAttrSet
	resource              *otlpAttrSet // nil for a bare span
	events                []otlpSpanEvent
}

// otlpSpanEvent is one span event: its name, time (when timed) and whether
// it may carry content (otlpContentChunk of its attributes).
type otlpSpanEvent struct {
	name    string
	at      int64
	timed   bool
	content bool
}

// otlpTimedEvent makes a span event from its time, nil when not recorded.
func otlpTimedEvent(name string, at *int64, content bool) otlpSpanEvent {
	e := otlpSpanEvent{name: name, content: content, timed: at != nil}
	if at != nil {
		e.at = *at
	}
	return e
}

// otlpBad is a span field that decodes as JSON but not as its type: a
// reject reason and the offending value.
type otlpBad struct{ reason, value string }

func (e otlpBad) Error() string { return e.reason + " " + decode.TruncateDetail(e.value) }

// otlpParsed is one span of a document, with its raw JSON, or why it could
// not be decoded.
type otlpParsed struct {
	span otlpSpan
	raw  []byte
	err  error
}

// otlpSpans decodes the spans of one JSON object given its top-level keys:
// an ExportTraceServiceRequest, a console-exporter span or a bare span.
// known is false for other documents (logs, metrics, anything else).
func otlpSpans(keys map[string]json.RawMessage, doc []byte) (spans []otlpParsed, known bool, err error) {
	switch {
	case keys["resourceSpans"] != nil:
		spans, err = otlpRequestSpans(keys["resourceSpans"])
		return spans, true, err
	case keys["context"] != nil:
		var c otlpConsoleSpan
		if err := json.Unmarshal(doc, &c); err != nil {
			return []otlpParsed{{raw: doc, err: err}}, true, nil
		}
		sp, err := c.span()
		return []otlpParsed{{span: sp, raw: doc, err: err}}, true, nil
	case keys["spanId"] != nil || keys["traceId"] != nil || keys["startTimeUnixNano"] != nil ||
		keys["kind"] != nil && keys["attributes"] != nil:
		sp, err := otlpBareSpanOf(doc, nil)
		return []otlpParsed{{span: sp, raw: doc, err: err}}, true, nil
	}
	return nil, false, nil
}

// otlpRequestSpans decodes resourceSpans[].scopeSpans[].spans[] (and the
// pre-1.0 name instrumentationLibrarySpans), one result per span so that a
// bad span does not take its neighbours with it.
func otlpRequestSpans(raw json.RawMessage) ([]otlpParsed, error) {
	var rss []struct {
		Resource struct {
			Attributes []otlpKV `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Spans []json.RawMessage `json:"spans"`
		} `json:"scopeSpans"`
		LibrarySpans []struct {
			Spans []json.RawMessage `json:"spans"`
		} `json:"instrumentationLibrarySpans"`
	}
	if err := json.Unmarshal(raw, &rss); err != nil {
		return nil, err
	}
	var out []otlpParsed
	for _, rs := range rss {
		res := otlpAttrSetOf(otlpAttrs(rs.Resource.Attributes))
		scopes := append(rs.ScopeSpans, rs.LibrarySpans...)
		for _, sc := range scopes {
			for _, s := range sc.Spans {
				sp, err := otlpBareSpanOf(s, res)
				out = append(out, otlpParsed{span: sp, raw: s, err: err})
			}
		}
	}
	return out, nil
}

// otlpSpanJSON is an OTLP/JSON span (camelCase field names, hex ids,
// integer or string nanoseconds, integer or protojson enums).
type otlpSpanJSON struct {
	TraceID string          `json:"traceId"`
	SpanID  string          `json:"spanId"`
	Name    string          `json:"name"`
	Kind    json.RawMessage `json:"kind"`
	Start   json.RawMessage `json:"startTimeUnixNano"`
	End     json.RawMessage `json:"endTimeUnixNano"`
	Attrs   []otlpKV        `json:"attributes"`
	Events  []struct {
		Time  json.RawMessage `json:"timeUnixNano"`
		Name  string          `json:"name"`
		Attrs []otlpKV        `json:"attributes"`
	} `json:"events"`
	Status struct {
		Code json.RawMessage `json:"code"`
	} `json:"status"`
}

// otlpBareSpanOf decodes one OTLP/JSON span with its resource attributes.
func otlpBareSpanOf(raw []byte, resource *otlpAttrSet) (otlpSpan, error) {
	var j otlpSpanJSON
	if err := json.Unmarshal(raw, &j); err != nil {
		return otlpSpan{}, err
	}
	sp := otlpSpan{traceID: otlpID(j.TraceID, 16), spanID: otlpID(j.SpanID, 8), name: j.Name,
		attrs: otlpAttrSetOf(otlpAttrs(j.Attrs)), resource: resource}
	var err error
	if sp.kind, err = otlpEnum(j.Kind, "SPAN_KIND_", otlpKinds); err != nil {
		return sp, err
	}
	status, err := otlpEnum(j.Status.Code, "STATUS_CODE_", []string{"unset", "ok", "error"})
	if err != nil {
		return sp, err
	}
	sp.failed = status == "error"
	if sp.start, err = otlpNanos(j.Start); err != nil {
		return sp, err
	}
	if sp.end, err = otlpNanos(j.End); err != nil {
		return sp, err
	}
	for _, e := range j.Events {
		at, err := otlpNanos(e.Time)
		if err != nil {
			return sp, err
		}
		content := otlpContentChunk(otlpAttrSetOf(otlpAttrs(e.Attrs)))
		sp.events = append(sp.events, otlpTimedEvent(e.Name, at, content))
	}
	return sp, nil
}

// otlpKinds are the span kinds by their OTLP number.
var otlpKinds = []string{"", "internal", "server", "client", "producer", "consumer"}

// otlpEnum decodes an enum given as its number or its protojson name
// (prefix + upper-case name); absent gives names[0].
func otlpEnum(raw json.RawMessage, prefix string, names []string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return names[0], nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		name := strings.ToLower(strings.TrimPrefix(s, prefix))
		for _, n := range names {
			if n == name || name == "unspecified" && n == "" {
				return n, nil
			}
		}
		return "", otlpBad{"bad enum", s}
	}
	i, err := strconv.Atoi(string(raw))
	if err != nil || i < 0 || i >= len(names) {
		return "", otlpBad{"bad enum", string(raw)}
	}
	return names[i], nil
}

// otlpNanos decodes a fixed64 nanosecond time given as a string or a JSON
// number; absent or 0 (OTLP's "not set") gives nil.
func otlpNanos(raw json.RawMessage) (*int64, error) {
	v, set, err := otlpNanosOf(raw)
	if !set {
		return nil, err
	}
	return &v, nil
}

// otlpNanosOf is otlpNanos without allocating: set is false for a time not
// set.
func otlpNanosOf(raw []byte) (v int64, set bool, err error) {
	s := bytes.Trim(bytes.TrimSpace(raw), `"`)
	if len(s) == 0 || string(s) == "null" || string(s) == "0" {
		return 0, false, nil
	}
	v, err = strconv.ParseInt(string(s), 10, 64)
	if err != nil || v < 0 {
		return 0, false, otlpBad{"bad timestamp", string(raw)}
	}
	return v, true, nil
}

// otlpID returns a trace or span id of size bytes as lowercase hex: OTLP/JSON
// writes hex, protojson proper writes base64. It returns "" for anything else.
func otlpID(s string, size int) string {
	if id := decode.NormalizeHexID(s, 2*size); id != "" {
		return id
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) == size {
		return decode.NormalizeHexID(hex.EncodeToString(b), 2*size)
	}
	return ""
}

// otlpKV is an OTLP/JSON key-value attribute.
type otlpKV struct {
	Key   string       `json:"key"`
	Value otlpAnyValue `json:"value"`
}

// otlpAnyValue is an OTLP/JSON AnyValue; intValue is a string (int64) or a
// number, doubleValue a number or "NaN"/"Infinity".
type otlpAnyValue struct {
	String *string          `json:"stringValue"`
	Bool   *bool            `json:"boolValue"`
	Int    json.RawMessage  `json:"intValue"`
	Double json.RawMessage  `json:"doubleValue"`
	Array  *otlpArrayValue  `json:"arrayValue"`
	Kvlist *json.RawMessage `json:"kvlistValue"`
}

type otlpArrayValue struct {
	Values []otlpAnyValue `json:"values"`
}

// value returns v as string, int64, float64, bool, []any, or nil.
func (v otlpAnyValue) value() any {
	switch {
	case v.String != nil:
		return *v.String
	case v.Bool != nil:
		return *v.Bool
	case v.Int != nil:
		if i, err := strconv.ParseInt(strings.Trim(string(v.Int), `"`), 10, 64); err == nil {
			return i
		}
	case v.Double != nil:
		// ParseFloat also takes protojson's "NaN", "Infinity", "-Infinity".
		if f, err := strconv.ParseFloat(strings.Trim(string(v.Double), `"`), 64); err == nil {
			return f
		}
	case v.Array != nil:
		out := make([]any, 0, len(v.Array.Values))
		for _, e := range v.Array.Values {
			out = append(out, e.value())
		}
		return out
	}
	return nil
}

// otlpAttrs turns OTLP/JSON attributes into a map.
func otlpAttrs(kvs []otlpKV) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		if v := kv.Value.value(); v != nil {
			m[kv.Key] = v
		}
	}
	return m
}

// otlpConsoleSpan is a span as the Python SDK's ConsoleSpanExporter writes it
// (ReadableSpan.to_json): "0x…" ids, "SpanKind.CLIENT", ISO-8601 UTC times
// with microseconds, flat attribute maps.
type otlpConsoleSpan struct {
	Name    string `json:"name"`
	Context struct {
		TraceID string `json:"trace_id"`
		SpanID  string `json:"span_id"`
	} `json:"context"`
	Kind   string `json:"kind"`
	Start  string `json:"start_time"`
	End    string `json:"end_time"`
	Status struct {
		Code string `json:"status_code"`
	} `json:"status"`
	Attrs  map[string]any `json:"attributes"`
	Events []struct {
		Name  string         `json:"name"`
		Time  string         `json:"timestamp"`
		Attrs map[string]any `json:"attributes"`
	} `json:"events"`
	Resource struct {
		Attrs map[string]any `json:"attributes"`
	} `json:"resource"`
}

// span converts a console span.
func (c otlpConsoleSpan) span() (otlpSpan, error) {
	sp := otlpSpan{traceID: otlpID(c.Context.TraceID, 16), spanID: otlpID(c.Context.SpanID, 8), name: c.Name,
		kind:   strings.ToLower(strings.TrimPrefix(c.Kind, "SpanKind.")),
		failed: c.Status.Code == "ERROR", attrs: otlpAttrSetOf(c.Attrs), resource: otlpAttrSetOf(c.Resource.Attrs)}
	var err error
	if sp.start, err = otlpISONanos(c.Start); err != nil {
		return sp, err
	}
	if sp.end, err = otlpISONanos(c.End); err != nil {
		return sp, err
	}
	for _, e := range c.Events {
		at, err := otlpISONanos(e.Time)
		if err != nil {
			return sp, err
		}
		content := otlpContentChunk(otlpAttrSetOf(e.Attrs))
		sp.events = append(sp.events, otlpTimedEvent(e.Name, at, content))
	}
	return sp, nil
}

// otlpISONanos parses an ISO-8601 time with a zone ("2026-11-23T10:00:00.123456Z")
// into Unix nanoseconds; "" gives nil.
func otlpISONanos(s string) (*int64, error) {
	if s == "" {
		return nil, nil
	}
	ns, err := textscan.ParseNs(time.RFC3339Nano, s, time.UTC)
	if err != nil {
		return nil, otlpBad{textscan.TimeReason(err, "bad timestamp"), s}
	}
	return decode.Ptr(ns), nil
}
