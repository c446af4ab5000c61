package aiperf

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks the columns of AIPerf's rejects, counted by
// hand in the lines below.
func TestRejectColumns(t *testing.T) {
	in := "" +
		`{"metadata": {"x": 1,}}` + "\n" + // '}' after a comma: byte 22
		`{"metadata": {` + "\n" + // cut short: just past its 14 bytes
		`{"metadata": {}, "metrics": {}}` + "\n" // no start: the line's start
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, in, "1:22", "2:15", "3:1")
}
