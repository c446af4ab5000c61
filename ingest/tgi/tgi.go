// Package tgi reads the text-generation-inference router log: the decoder is Format,
// whose doc says which instant each field marks.
package tgi

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
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
// A reject's column is the byte column of the duration refused (inside its
// quotes), or of the byte encoding/json refuses in a JSON line; a cut line
// or a time out of range is rejected at column 1. Columns are of the line
// as read, except on a line with ANSI colour codes, where they fall back
// to 1.
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

// Decode reads the log a line at a time (tgi_read.go).
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	d := &tgiReader{}
	return decode.ReadRecordsByLine(in.R, sink, func(line int64, b []byte) { d.line(in, sink, line, b) })
}

// tgiHandlers are the router's request handler spans.
var tgiHandlers = map[string]bool{
	"generate": true, "generate_stream": true, "completions": true, "chat_completions": true,
	"compat_generate": true, "vertex_compatibility": true,
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
