// Package aiperf decodes AIPerf's per-request export.
package aiperf

import (
	"bufio"
	"bytes"
	"errors"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes AIPerf's per-request export, profile_export.jsonl
// (ai-dynamo/aiperf, GenAI-Perf's successor; written by its records
// processors, one JSON object per line, one line per request). Each record
// has "metadata" (ids and the request's wall time), "metrics" (each
// {"value", "unit"}) and, for a failed request, "error" ({"code", "type",
// "message"}). Fields and the instants they mark, on the client's wall clock:
//
//   - metrics.min_request_timestamp (ns since the epoch, when the request was
//     sent), else metadata.timestamp_ns → start.
//   - metrics.ttft (ms after start to the first response with content, AIPerf
//     drops responses without content) → first_token and the first chunk.
//   - metrics.inter_chunk_latency (ms between consecutive content responses,
//     a list) → the chunks after the first: offsets ttft, ttft + icl[0], …
//   - metrics.max_response_timestamp (ns, the last content response), else
//     start + metrics.request_latency (ms, which ends there too) → end. AIPerf
//     does not time [DONE], so end is the last content response.
//   - metrics.output_sequence_length (output plus reasoning tokens), else
//     output_token_count + reasoning_token_count → output tokens;
//     input_sequence_length → prompt tokens. AIPerf counts them with its
//     tokenizer, so their provenance is "counted".
//   - metadata.x_request_id (AIPerf sends it as the X-Request-ID header) →
//     RequestID; x_correlation_id and conversation_id → OtherIDs;
//     credit_phase (warmup, profiling) → attrs["credit_phase"].
//   - error.code → status (499 for a request AIPerf cancelled, which counts
//     as interrupted), its class from the status, else from error.type
//     (…Timeout… → timeout, …Cancel… → interrupted, else server_error); a
//     failed request is not completed. A record without error is completed.
//
// Times given in another unit than AIPerf writes (ns for timestamps, ms for
// durations; s, ms, us and ns are read) are converted. Message texts are
// never read. The aggregate export, profile_export_aiperf.json, holds no
// request and is refused with a pointer to the per-request file.
//
// A reject's column: a line that is no JSON, at the byte encoding/json
// refuses (just past the line when it is cut short); a record with a bad
// or missing value, column 1 (values are decoded, not located).
type Format struct{}

func (Format) Name() string   { return "aiperf" }
func (Format) Source() string { return schema.SourceClient }
func (Format) Describe() string {
	return "AIPerf profile_export.jsonl, one record per request: send time, ttft, inter-chunk latencies, end, token counts, x-request-id; no header time"
}

// Sniff claims a per-request record (an object whose "metadata" holds
// AIPerf's ids) and AIPerf's aggregate export, which Decode then refuses
// with a reason instead of leaving it an unknown format.
func (Format) Sniff(head []byte) bool {
	if aggregate(head) {
		return true
	}
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t, []byte(`"metadata"`)) {
		return false
	}
	for _, k := range []string{`"x_request_id"`, `"record_processor_id"`, `"credit_phase"`} {
		if bytes.Contains(t, []byte(k)) {
			return true
		}
	}
	return false
}

// aggregate reports whether head is AIPerf's aggregate export
// (profile_export_aiperf.json): one object whose first key is "records",
// or with "input_config" beside "records".
func aggregate(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	if bytes.HasPrefix(bytes.TrimLeft(t[1:], " \t\r\n"), []byte(`"records"`)) {
		return true
	}
	return bytes.Contains(t, []byte(`"records"`)) && bytes.Contains(t, []byte(`"input_config"`))
}

// errAggregate is the refusal of the aggregate export.
var errAggregate = errors.New("AIPerf aggregate export (profile_export_aiperf.json) holds statistics, not requests: " +
	"give the per-request profile_export.jsonl from the same artifacts folder")

// Decode reads one record per line; blank lines are skipped.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	br := bufio.NewReaderSize(in.R, 64<<10)
	head, _ := br.Peek(decode.SniffSize)
	if aggregate(head) {
		return errAggregate
	}
	var ev schema.Event
	return decode.ReadRecordsByLine(br, sink, func(line int64, b []byte) {
		if len(bytes.TrimSpace(b)) == 0 {
			sink.Skip(line, "blank line")
			return
		}
		if reason, detail := decodeRecord(b, &ev); reason != "" {
			at := decode.At(line) // a bad value: the record's line
			if reason == "invalid json" {
				at = decode.JSONRefusedAt(line, 1, b)
			}
			sink.Reject(at, reason, detail)
			return
		}
		ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, line
		sink.Event(line, b, &ev)
	})
}
