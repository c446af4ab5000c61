package nginx

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks that a reject points at the value refused,
// columns counted by hand in the lines below.
func TestRejectColumns(t *testing.T) {
	head := `1.2.3.4 - - [23/Nov/2026:10:00:00 +0000] "POST /v1/chat/completions HTTP/1.1" `
	in := "" +
		// head: 7 + 5 + 28 + 1 + 36 + 1 = 78 bytes; the status (over 999) is byte 79.
		head + `9999 5 "-" "-"` + "\n" +
		// "1.2.3.4 - - [" is 13 bytes: $time_local starts at 14.
		`1.2.3.4 - - [32/Nov/2026:10:00:00 +0000] "POST /v1/chat/completions HTTP/1.1" 200 5 "-" "-"` + "\n" +
		// fits no format: the line's start.
		"garbage\n"
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, in, "1:79", "2:14", "3:1")

	custom := decode.Options{LogFormat: "$status $msec $request_time"}
	in = "" +
		"200 99999999999999999999.000 0.5\n" + // "200 " is 4 bytes: $msec (too large) at 5
		"200 1795428000.000 99999999999999999999.5\n" // 4 + 14 + 1: $request_time (too large) at 20
	decodetest.CheckRejectsAt(t, Format{}, custom, in, "1:5", "2:20")
}
