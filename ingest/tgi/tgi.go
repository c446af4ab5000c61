// Package tgi reads the text-generation-inference router log: the decoder is Format,
// whose doc says which instant each field marks.
package tgi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes the log of the Hugging Face text-generation-inference router
// (router/src/server.rs), as tracing-subscriber writes it: text, with or
// without ANSI colour codes, or JSON lines with --json-output.
//
// A text record is one line:
//
//	2026-11-23T10:00:01.500000Z  INFO HTTP request{otel.name=POST /generate_stream ... trace_id=4bf9…}:generate_stream{parameters=GenerateParameters { … } total_time="1.2345s" validation_time="1.2ms" queue_time="25.3µs" inference_time="1.2s" time_per_token="40ms" seed="None"}: text_generation_router::server: router/src/server.rs:598: Success
//
// that is: the log time, the level, the span chain (root first, joined by
// ':'; each span is name{key=value …}, string values Debug-quoted, and
// `parameters` a Rust Debug struct with nested braces), the target, file:line
// and the message. A JSON record carries "timestamp", "level", "message" (or
// "fields":{"message"}), "target", "span" (the current span's fields and
// "name") and "spans" (the chain, root first).
//
// The router records its timings on the handler span (generate,
// generate_stream, completions, chat_completions, …) just before it logs
// "Success" at INFO, when the response is finished. On the router's monotonic
// clock, with start_time taken when the handler starts (after the JSON body
// was read), queued when validation ends, start when the batcher schedules the
// request and now when the last token is out:
//
//	log time        end: the response finished (instant, Unix time, wall clock)
//	total_time      end − handler start; so start = log time − total_time
//	validation_time handler start → queued         (ValidationNs)
//	queue_time      queued → scheduled              (QueueNs)
//	inference_time  scheduled → end                 (InferenceNs)
//	time_per_token  inference_time / generated tokens, truncated to 1 ns (TimePerTokenNs)
//
// Durations are Rust Duration Debug strings ("1.234567s", "40ms", "25.3µs",
// "812ns"); compound forms like "1m5.3s" are accepted too. Output tokens are
// round(inference_time / time_per_token), provenance "derived". TGI logs no
// first-token instant, so FirstTokenNs, PrefillNs and DecodeNs stay nil.
//
// The trace_id (W3C) and route of the optional outer "HTTP request" span (the
// OpenTelemetry axum layer) give TraceID and Endpoint; a request_id field
// gives RequestID. An ERROR line inside a handler span is a failed request,
// with the log time as its end (and start = end − total_time when its handler
// span has a total_time that parses; one that does not leaves the start
// unset) and the class from the router's error kinds:
// "Input validation error", template and tool errors → client_error (422),
// "Model is overloaded" → rate_limited (429), "Request failed during
// generation" → server_error (424), "Incomplete generation" → interrupted
// (the stream ended before its last token). Its status is left nil: a stream
// sends 200 before the error. Every other line (startup, DEBUG input/output
// lines and their continuation lines, INFO lines without timings, WARN) is a
// skip; a line with a handler span whose durations do not parse is a reject.
type Format struct{}

func (Format) Name() string   { return "tgi" }
func (Format) Source() string { return schema.SourceServer }
func (Format) Describe() string {
	return "TGI router log (text or --json-output): end (log time), start = end − total_time, validation, queue, inference, time per token, derived output tokens; no first token"
}

// tgiANSI matches ANSI SGR colour codes, raw or as the "#033[" escape some
// log shippers write.
var tgiANSI = regexp.MustCompile(`(\x1b|#033)\[[0-9;]*m`)

// tgiTextTime matches the start of a tracing-subscriber text line.
var tgiTextTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\s+(TRACE|DEBUG|INFO|WARN|ERROR) `)

func (Format) Sniff(head []byte) bool {
	head = tgiANSI.ReplaceAll(head, nil)
	if !bytes.Contains(head, []byte("text_generation_")) {
		return false
	}
	for _, line := range bytes.Split(head, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return tgiTextTime.Match(line) || isJSONRecord(line)
	}
	return false
}

// isJSONRecord reports whether line, trimmed of spaces, is a --json-output
// record: an object with a "timestamp" key, in any place among its keys.
func isJSONRecord(line []byte) bool {
	return len(line) > 0 && line[0] == '{' && bytes.Contains(line, []byte(`"timestamp"`))
}

// tgiSuccessLine reports whether rec is the "Success" line of a request
// with its timings (in handler's total_time).
func tgiSuccessLine(rec tgiRecord, handler tgiSpan) bool {
	return rec.level == "INFO" && strings.HasPrefix(rec.message, "Success") && handler.fields["total_time"] != ""
}

// tgiSpan is one span of a record's chain, with its field values unquoted.
type tgiSpan struct {
	name   string
	fields map[string]string
}

// tgiRecord is one parsed log line.
type tgiRecord struct {
	time    time.Time
	level   string
	spans   []tgiSpan // root first
	message string
}

func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	return tgiDecode(in, sink, true)
}

// tgiDecode is Decode, by the fast path (tgi_fast.go) when fast is set and
// it takes the line, else by tgiLine.
func tgiDecode(in *decode.Input, sink decode.Sink, fast bool) error {
	f := &tgiFast{}
	return decode.ReadRecordsByLine(in.R, sink, func(line int64, b []byte) {
		if !fast || !f.line(in, sink, line, b) {
			tgiLine(in, sink, line, b)
		}
	})
}

// tgiLine decodes one line by the general route.
func tgiLine(in *decode.Input, sink decode.Sink, line int64, b []byte) {
	text := tgiANSI.ReplaceAllString(string(b), "")
	if strings.TrimSpace(text) == "" {
		sink.Skip(line, "blank line")
		return
	}
	var rec tgiRecord
	var ok bool
	if trimmed := strings.TrimSpace(text); isJSONRecord([]byte(trimmed)) {
		var err error
		if rec, err = tgiParseJSON(trimmed); err != nil {
			sink.Reject(line, "invalid json", decode.TruncateDetail(err.Error()))
			return
		}
		ok = true
	} else {
		rec, ok = tgiParseText(text)
	}
	switch {
	case !ok && strings.Contains(text, "total_time="):
		// A request's timing line that does not parse was cut or mangled:
		// it is a request record lost, not a foreign line.
		sink.Reject(line, "malformed request line", decode.TruncateDetail(text))
	case !ok:
		sink.Skip(line, "not a log record")
	default:
		Format{}.emit(in, line, b, rec, sink)
	}
}

// emit turns one log record into an event, a skip or a reject.
func (Format) emit(in *decode.Input, line int64, raw []byte, rec tgiRecord, sink decode.Sink) {
	handler, ok := tgiHandlerSpan(rec.spans)
	switch {
	case rec.level != "ERROR" && !strings.HasPrefix(rec.message, "Success") && bytes.Contains(raw, []byte("total_time=")):
		// Timings without the "Success" that ends every such line: the line
		// was cut short, and the request it recorded is lost.
		sink.Reject(line, "malformed request line", decode.TruncateDetail(string(raw)))
	case !ok:
		sink.Skip(line, "not a request record")
	case (rec.level == "ERROR" || tgiSuccessLine(rec, handler)) && !textscan.Fits(rec.time):
		sink.Reject(line, textscan.TimeRangeReason, rec.time.Format(time.RFC3339Nano))
	case tgiSuccessLine(rec, handler):
		ev, reason, detail := tgiSuccess(in, rec, handler)
		if reason != "" {
			sink.Reject(line, reason, detail)
			return
		}
		ev.InputLine = line
		sink.Event(line, raw, ev)
	case rec.level == "ERROR":
		ev := tgiBase(in, rec, handler)
		if ns, ok := tgiDuration(handler.fields["total_time"]); ok {
			ev.StartNs = decode.Ptr(*ev.EndNs - ns)
		}
		ev.Completed = decode.Ptr(false)
		kind, class := tgiErrorKind(rec.message)
		ev.Error = class
		ev.Attrs["tgi_error"] = kind
		ev.InputLine = line
		sink.Event(line, raw, ev)
	default:
		sink.Skip(line, "not a request record")
	}
}

// tgiHandlers are the router's request handler spans.
var tgiHandlers = map[string]bool{
	"generate": true, "generate_stream": true, "completions": true, "chat_completions": true,
	"compat_generate": true, "vertex_compatibility": true,
}

// tgiHandlerSpan returns the innermost span that carries the request timings
// or is a request handler.
func tgiHandlerSpan(spans []tgiSpan) (tgiSpan, bool) {
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].fields["total_time"] != "" || tgiHandlers[spans[i].name] {
			return spans[i], true
		}
	}
	return tgiSpan{}, false
}

// tgiBase fills what every TGI event has: the end instant (log time), ids and
// endpoint from the HTTP request span, and the handler name.
func tgiBase(in *decode.Input, rec tgiRecord, handler tgiSpan) *schema.Event {
	ev := &schema.Event{
		Source: schema.SourceServer, Format: "tgi", Host: in.Host, Clock: schema.ClockWall,
		InputFile: in.Name, EndNs: decode.Ptr(rec.time.UnixNano()),
		Attrs: map[string]string{"handler": handler.name},
	}
	switch handler.name {
	case "generate":
		ev.Stream = decode.Ptr(false)
	case "generate_stream":
		ev.Stream = decode.Ptr(true)
	}
	for _, s := range rec.spans {
		f := s.fields
		if id := decode.NormalizeTraceID(f["trace_id"]); id != "" {
			ev.TraceID = id
		}
		if id := f["request_id"]; id != "" {
			ev.RequestID = id
		}
		for _, k := range []string{"http.route", "url.path", "http.target"} {
			if f[k] != "" && ev.Endpoint == "" {
				ev.Endpoint = decode.EndpointPath(f[k])
			}
		}
		for _, k := range []string{"http.status_code", "http.response.status_code"} {
			if n, err := strconv.Atoi(f[k]); err == nil && n >= 100 && n < 600 {
				ev.Status = decode.Ptr(int32(n))
			}
		}
	}
	return ev
}

// tgiSuccess builds the event of a "Success" line from the handler's timings;
// it returns a reject reason and detail when a duration does not parse.
func tgiSuccess(in *decode.Input, rec tgiRecord, handler tgiSpan) (*schema.Event, string, string) {
	ev := tgiBase(in, rec, handler)
	durations := []struct {
		key string
		dst **int64
	}{
		{"total_time", nil}, {"validation_time", &ev.ValidationNs}, {"queue_time", &ev.QueueNs},
		{"inference_time", &ev.InferenceNs}, {"time_per_token", &ev.TimePerTokenNs},
	}
	var total int64
	for _, d := range durations {
		v, present := handler.fields[d.key]
		if !present || v == "" {
			continue
		}
		ns, ok := tgiDuration(v)
		if !ok {
			return nil, "bad duration", decode.TruncateDetail(fmt.Sprintf("%s=%q", d.key, v))
		}
		if d.dst == nil {
			total = ns
		} else {
			*d.dst = decode.Ptr(ns)
		}
	}
	ev.StartNs = decode.Ptr(*ev.EndNs - total)
	ev.Status, ev.Completed = decode.Ptr(int32(200)), decode.Ptr(true)
	if ev.InferenceNs != nil && ev.TimePerTokenNs != nil && *ev.TimePerTokenNs > 0 {
		n := int64(math.Round(float64(*ev.InferenceNs) / float64(*ev.TimePerTokenNs)))
		ev.OutputTokens, ev.OutputTokensSource = decode.Ptr(n), schema.TokensDerived
	}
	return ev, "", ""
}

// tgiErrorKind maps an ERROR message of the router to its error kind (the
// router's InferError::error_type) and error class.
func tgiErrorKind(msg string) (kind, class string) {
	switch {
	case strings.HasPrefix(msg, "Input validation error"):
		return "validation", schema.ErrorClient
	case strings.HasPrefix(msg, "Model is overloaded"):
		return "overloaded", schema.ErrorRateLimited
	case strings.HasPrefix(msg, "Request failed during generation"):
		return "generation", schema.ErrorServer
	case strings.HasPrefix(msg, "Incomplete generation"):
		return "incomplete_generation", schema.ErrorInterrupted
	case strings.HasPrefix(msg, "Template error"), strings.HasPrefix(msg, "Failed applying chat template"),
		strings.HasPrefix(msg, "Missing template"):
		return "template_error", schema.ErrorClient
	case strings.HasPrefix(msg, "Tool error"):
		return "tool_error", schema.ErrorClient
	}
	return "other", schema.ErrorServer
}

// tgiParseJSON parses a --json-output line.
func tgiParseJSON(text string) (tgiRecord, error) {
	var j struct {
		Timestamp string           `json:"timestamp"`
		Level     string           `json:"level"`
		Message   *string          `json:"message"`
		Fields    map[string]any   `json:"fields"`
		Span      map[string]any   `json:"span"`
		Spans     []map[string]any `json:"spans"`
	}
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return tgiRecord{}, err
	}
	ts, err := time.Parse(time.RFC3339Nano, j.Timestamp)
	if err != nil {
		return tgiRecord{}, fmt.Errorf("timestamp %q: not RFC 3339", decode.TruncateDetail(j.Timestamp))
	}
	rec := tgiRecord{time: ts, level: strings.ToUpper(strings.TrimSpace(j.Level))}
	if j.Message != nil {
		rec.message = *j.Message
	} else if m, ok := j.Fields["message"].(string); ok {
		rec.message = m
	}
	chain := j.Spans
	if len(chain) == 0 && j.Span != nil {
		chain = []map[string]any{j.Span}
	}
	for _, s := range chain {
		sp := tgiSpan{fields: map[string]string{}}
		for k, v := range s {
			str := tgiJSONString(v)
			if k == "name" {
				sp.name = str
			} else {
				sp.fields[k] = str
			}
		}
		rec.spans = append(rec.spans, sp)
	}
	return rec, nil
}

// tgiJSONString renders a JSON span field value as the text form would show
// it unquoted.
func tgiJSONString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
