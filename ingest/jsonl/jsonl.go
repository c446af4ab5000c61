// Package jsonl reads JSON lines of any shape, read through a --map field mapping: the decoder is Format,
// whose doc says which instant each field marks.
package jsonl

import (
	"bytes"
	"errors"
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
// kind is a reject naming the field. Text after a line's object is ignored,
// as json.Decoder ignores it; of repeated keys the last wins. A reject's
// column is the byte column of the offending value in its line (for a
// line that is no JSON object, the byte encoding/json refused, see
// decode.JSONErrorAt); a missing field's is 1, the record's start.
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

// Decode reads one request per line by the mapping in in.Opts.Map; see
// Format.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	m, err := parseJSONLMapping(in.Opts.Map)
	if err != nil {
		return err
	}
	r := newJSONLReader(m, in)
	return decode.ReadRecordsByLine(in.R, sink, func(line int64, b []byte) {
		if len(bytes.TrimSpace(b)) == 0 {
			sink.Skip(line, "blank line")
			return
		}
		r.decode(line, b, sink)
	})
}

// errBadTime is the error of a value that is no instant.
var errBadTime = errors.New("bad timestamp")

// jsonlTimeText parses the text of an absolute instant into Unix
// nanoseconds; the error is textscan.ErrTimeRange for a date int64 ns
// cannot hold, else errBadTime.
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
