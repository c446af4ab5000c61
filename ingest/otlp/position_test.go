package otlp

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks the columns of OTLP's rejects, counted by hand
// in the lines below.
func TestRejectColumns(t *testing.T) {
	in := "" +
		`{"resourceSpans": x}` + "\n" + // `{"resourceSpans": ` is 18 bytes: 'x' at 19
		`[{"resourceSpans":[]}, 7]` + "\n" // "7" follows 22 bytes and a space: 24
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, in, "1:19", "2:24")
}

// TestRejectColumnsNotJSON checks a line that starts no JSON: at its first
// non-blank byte (two spaces before it).
func TestRejectColumnsNotJSON(t *testing.T) {
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, "  not json\n", "1:3")
}
