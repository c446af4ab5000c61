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

// otlpNanosOf decodes a fixed64 nanosecond time given as a string or a
// JSON number; set is false for absent, null or 0 (OTLP's "not set").
func otlpNanosOf(raw []byte) (v int64, set bool, err error) {
	s := bytes.Trim(bytes.TrimSpace(raw), `"`)
	if len(s) == 0 || string(s) == "null" || string(s) == "0" {
		return 0, false, nil
	}
	v, ok := otlpParseInt(s) // strconv.ParseInt's result, faster
	if !ok || v < 0 {
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

// otlpConsole reports the console-exporter span doc, which encoding/json
// decodes into otlpConsoleSpan.
func otlpConsole(in *decode.Input, n int64, doc []byte, sink decode.Sink) {
	var c otlpConsoleSpan
	if err := json.Unmarshal(doc, &c); err != nil {
		sink.Reject(decode.JSONErrorAt(n, 1, doc, err), "invalid json", otlpJSONDetail(err, doc))
		return
	}
	sp, err := c.span()
	if bad, ok := err.(otlpBad); ok {
		sink.Reject(decode.At(n), bad.reason, decode.TruncateDetail(bad.value))
		return
	}
	ev, skip, reason, detail := otlpEvent(&sp, in.Host)
	decode.Emit(in, sink, decode.At(n), doc, ev, skip, reason, detail)
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
