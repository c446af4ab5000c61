package litellm

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks the columns of LiteLLM's rejects, counted by
// hand in the inputs below.
func TestRejectColumns(t *testing.T) {
	// '[' and a 56-byte first element fill columns 1-57, ", " 58-59: the
	// second element, which has no start time, opens at column 60.
	array := `[{"id":"a","startTime":1795428000.5,"endTime":1795428001}, {"id":"b"}]`
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, array, "1:60")
	// A damaged element on line 2: " -]", where ']' (byte 3) is refused.
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, array[:57]+",\n -]", "2:3")
	// JSON lines: '}' after a comma is byte 11.
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, `{"id":"a",}`+"\n", "1:11")
}
