package jsonl

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks that a reject points at its offending value,
// columns counted by hand in the lines below.
func TestRejectColumns(t *testing.T) {
	m := `{"start": {"field": "ts", "format": "rfc3339"}, "first_token": {"field": "ttft_ms", "unit": "ms"}, "prompt_tokens": "n"}`
	in := "" +
		`{"ts": "yesterday"}` + "\n" + // `{"ts": ` is 7 bytes: the value's quote is byte 8
		`{"ts": "2026-11-23T10:00:00Z", "ttft_ms": "fast"}` + "\n" + // 7 + 22 + 2 + 11 = 42 bytes before "fast"
		`{"ts": "2026-11-23T10:00:00Z", "n": -3}` + "\n" + // 7 + 22 + 2 + 5 = 36 bytes before -3
		`{"id": 1}` + "\n" + // no start: the record's start
		`{"ts": 1,}` + "\n" + // '}' after a comma is byte 10
		`  [1]` + "\n" // an array: encoding/json stops just past its '[' (byte 4)
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{Map: m}, in, "1:8", "2:43", "3:37", "4:1", "5:10", "6:4")
}
