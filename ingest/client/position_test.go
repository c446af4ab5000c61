package client

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks the columns of the client format's rejects,
// counted by hand in the lines below.
func TestRejectColumns(t *testing.T) {
	in := "" +
		"  [1,}\n" + // not an object, and '}' (byte 6) is refused
		`{"start": 5` + "\n" + // cut short: just past its 11 bytes
		`  {"start": "x", "chunks": []}` + "\n" // a bad value: the record's '{' (byte 3)
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, in, "1:6", "2:12", "3:3")
}
