// Package otlp reads OpenTelemetry traces as JSON: the decoder is Format,
// whose doc says which instant each field marks.
package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes OpenTelemetry traces written as JSON: OTLP/JSON
// ExportTraceServiceRequest documents (the collector's file exporter writes
// one per line; a single pretty-printed document works too), bare OTLP/JSON
// span objects, and the Python SDK's ConsoleSpanExporter output (one
// pretty-printed object per span, concatenated). Enums may be integers or
// protojson names ("SPAN_KIND_SERVER", "STATUS_CODE_ERROR"). One span is one
// record; its line is the line its document starts on.
//
// Instants are Unix nanoseconds on the clock of the host that recorded the
// span: the resource's host.name, else service.instance.id, else --host.
// Server spans (vLLM and SGLang "llm_request") and client spans map to
// events as described in otlpServerEvent and otlpClientEvent; spans that are
// not LLM requests are skipped. Prompt and completion text (input.value,
// output.value, llm.input_messages.*, gen_ai.prompt.*) is never read into
// the event: only the attributes named in otlp_event.go are.
//
// A reject's line is the line its document starts on. Its column: a
// document that is no JSON, at the byte encoding/json refuses (its lines
// counted from the document's first); an array item that is no object, at
// that item; a line too long, at its first byte past the limit; a span
// with a bad value and a document of the wrong shape, column 1.
type Format struct{}

func (Format) Name() string   { return "otlp" }
func (Format) Source() string { return schema.SourceServer }
func (Format) Describe() string {
	return "OTLP/JSON or Python console-exporter traces: vLLM/SGLang llm_request server spans (arrival, ttft, e2e, " +
		"queue, prefill, decode, usage) and LLM client spans (start, first token event or time_to_first_chunk, chunk events, end)"
}

// otlpConsoleKind matches the console exporter's span kind, "kind": "SpanKind.CLIENT".
var otlpConsoleKind = regexp.MustCompile(`"kind"\s*:\s*"SpanKind\.`)

// otlpBareSpan matches a bare OTLP/JSON span's protojson enum kind.
var otlpBareSpan = regexp.MustCompile(`"kind"\s*:\s*"SPAN_KIND_`)

// Sniff claims OTLP/JSON requests ("resourceSpans"), console-exporter spans
// ("context" with "trace_id" and "kind": "SpanKind.…") and bare OTLP/JSON
// spans with a protojson kind or "startTimeUnixNano".
func (Format) Sniff(head []byte) bool {
	h := bytes.TrimLeft(bytes.TrimPrefix(head, decode.UTF8BOM), " \t\r\n[")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	switch {
	case bytes.Contains(head, []byte(`"resourceSpans"`)):
		return true
	case bytes.Contains(head, []byte(`"context"`)) && bytes.Contains(head, []byte(`"trace_id"`)) &&
		otlpConsoleKind.Match(head):
		return true
	}
	return otlpBareSpan.Match(head) || bytes.Contains(head, []byte(`"startTimeUnixNano"`))
}

// LineRecords reports whether the input is JSON lines (its first line is a
// whole JSON document), so the driver may decode it in blocks of lines;
// pretty-printed documents and the console exporter's output span lines
// and are decoded whole.
func (Format) LineRecords(head []byte) bool {
	first := decode.FirstLine(head)
	return len(first) > 0 && first[0] == '{' && json.Valid(first)
}

// Decode splits the input into JSON documents (one per line, or spanning
// lines) and reports every span in them.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	d := &otlpDocs{in: in, sink: sink, limit: otlpMaxDocBytes}
	err := decode.EachTextLine(in.R, d.line, func(n int64) {
		d.flushBroken("invalid json")
		sink.Reject(decode.AtCol(n, decode.MaxLineBytes+1), "line too long", fmt.Sprintf("longer than %d bytes", decode.MaxLineBytes))
	})
	d.flushBroken("invalid json")
	return err
}

// otlpMaxDocBytes bounds a multi-line document.
const otlpMaxDocBytes = 256 << 20

// otlpDocs gathers lines into JSON documents by following the nesting of
// braces and brackets outside strings.
type otlpDocs struct {
	in      *decode.Input
	sink    decode.Sink
	buf     []byte
	start   int64 // line the current document starts on; 0 = none open
	depth   int
	inStr   bool
	escaped bool
	discard bool       // the open document was too large: skip to its end unbuffered
	limit   int        // largest document kept, bytes
	read    otlpReader // reads each document
}

// line takes the next input line. A line that is a whole JSON object by
// itself, starting in column 0, while a document is open, means that
// document was cut short (a JSON-lines writer died mid-line): it is rejected
// and the line starts afresh, so one broken line does not swallow the rest.
func (d *otlpDocs) line(n int64, line []byte) {
	if d.start != 0 && !d.discard && len(line) > 0 && line[0] == '{' && json.Valid(line) {
		d.flushBroken("invalid json")
	}
	if d.start == 0 {
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			d.sink.Skip(n, "blank line")
			return
		}
		if t[0] != '{' && t[0] != '[' {
			d.sink.Reject(decode.AtCol(n, decode.ColIn(line, t)), "invalid json", decode.TruncateDetail(string(t))) // its first byte is refused
			return
		}
		if t[0] == '{' && d.read.object(d.in, n, t, nil, d.sink, true) {
			return // a whole request on one line
		}
		d.start, d.depth, d.inStr, d.escaped, d.discard = n, 0, false, false, false
	}
	if !d.discard && len(d.buf)+len(line) > d.limit {
		d.sink.Reject(decode.At(d.start), "document too large", fmt.Sprintf("over %d bytes", d.limit))
		d.buf, d.discard = d.buf[:0], true
	}
	if !d.discard {
		d.buf = append(append(d.buf, line...), '\n')
	}
	if d.scan(line) {
		doc, start, discard := d.buf, d.start, d.discard
		d.buf, d.start, d.discard = d.buf[:0], 0, false
		if !discard {
			d.document(start, doc)
		}
	}
}

// scan follows the nesting through line and reports whether the open
// document closed on it (or can never close: a stray closing bracket).
func (d *otlpDocs) scan(line []byte) bool {
	for _, c := range line {
		switch {
		case d.escaped:
			d.escaped = false
		case d.inStr && c == '\\':
			d.escaped = true
		case c == '"':
			d.inStr = !d.inStr
		case d.inStr:
		case c == '{' || c == '[':
			d.depth++
		case c == '}' || c == ']':
			if d.depth--; d.depth <= 0 {
				return true
			}
		}
	}
	return false
}

// flushBroken rejects a document left open (truncated input) unless it
// was already rejected as too large.
func (d *otlpDocs) flushBroken(reason string) {
	if d.start != 0 && !d.discard {
		d.sink.Reject(decode.At(d.start), reason, "document not closed: "+decode.TruncateDetail(string(bytes.TrimSpace(d.buf))))
	}
	d.buf, d.start, d.discard = d.buf[:0], 0, false
}

// document reports every span of the JSON document doc starting on line
// n: an object, or an array of them.
func (d *otlpDocs) document(n int64, doc []byte) {
	if t := bytes.TrimSpace(doc); t[0] == '[' {
		d.read.array(d.in, n, t, doc, d.sink)
	} else {
		d.read.object(d.in, n, t, doc, d.sink, false)
	}
}

// otlpJSONDetail names a JSON error and the start of the document.
func otlpJSONDetail(err error, doc []byte) string {
	return err.Error() + " in " + decode.TruncateDetail(string(bytes.TrimSpace(doc)))
}
