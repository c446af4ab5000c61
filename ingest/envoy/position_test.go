package envoy

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks that a reject points at the value refused,
// columns counted by hand in the lines below.
func TestRejectColumns(t *testing.T) {
	text := decode.Options{LogFormat: `[%START_TIME%] "%REQ(:METHOD)% %REQ(:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION%` + "\n"}
	in := "" +
		// the date follows '[': column 2.
		`[2026-13-23T10:00:05.000Z] "POST /v1/chat/completions HTTP/1.1" 200 - 10` + "\n" +
		// 26 (date) + 1 + 36 (request) + 1 + 3 + 1 + 1 + 1 = 70 bytes before the duration.
		`[2026-11-23T10:00:07.000Z] "POST /v1/chat/completions HTTP/1.1" 200 - 12x` + "\n" +
		// the status after 26 + 1 + 36 + 1 = 64 bytes.
		`[2026-11-23T10:00:07.000Z] "POST /v1/chat/completions HTTP/1.1" 2000 - 12` + "\n"
	decodetest.CheckRejectsAt(t, Format{}, text, in, "1:2", "2:71", "3:65")

	json := decode.Options{LogFormat: `{"ts":"%START_TIME%","code":"%RESPONSE_CODE%"}`}
	in = "" +
		`{"ts":"not-a-time","code":200}` + "\n" + // `{"ts":"` is 7 bytes: the value at 8
		`{"ts":"2026-11-23T10:00:07.000Z",` + "\n" + `"code":"x"` + "\n}\n" + // line 3: `"code":"` is 8 bytes
		`{"ts": [1,}` + "\n" // no JSON: '}' after a comma is byte 11 of line 5
	decodetest.CheckRejectsAt(t, Format{}, json, in, "1:8", "3:9", "5:11")
}
