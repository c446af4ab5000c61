package haproxy

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// haproxyEdgeLines are hand-made lines for the HAProxy fast path: syslog
// prefixes, captured ids, logasap, -1 timers, absolute URLs, appended ids,
// tcp and foreign lines, bad dates and timers, odd white space.
var haproxyEdgeLines = []string{
	`Nov 23 10:00:04 lb-1 haproxy[311]: 10.1.0.5:51234 [23/Nov/2026:10:00:00.123] llm-in vllm/gpu-7 2/15/3/85/4120 200 51234 - - ---- 12/12/3/2/0 0/4 {00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01|chat-web} "POST /v1/chat/completions HTTP/1.1" 9f1c2d3e-0000-4000-8000-000000000001`,
	`<134>Nov 23 10:00:05 lb-1 haproxy[311]: 10.1.0.6:51240 [23/Nov/2026:10:00:01.000] llm-in vllm/gpu-7 1/0/2/90/+95 200 +1523 - - ---- 13/13/4/3/0 0/0 "POST /v1/chat/completions HTTP/1.1"`,
	`10.1.0.7:40001 [23/Nov/2026:10:00:02.500] llm-in vllm/gpu-8 0/0/1/-1/60002 504 194 - - sH-- 14/14/5/4/0 0/0 {9F1C2D3E-0000-4000-8000-000000000003} "POST http://llm.internal:8000/v1/completions HTTP/1.1"`,
	`10.1.0.8:40002 [23/Nov/2026:10:00:03.000] llm-in vllm/gpu-8 0/0/1/120/880 200 5120 - - CD-- 14/14/5/4/0 0/0 "POST /v1/chat/completions?x=1 HTTP/1.1" -`,
	`10.1.0.9:40003 [23/Nov/2026:10:00:04.000] llm-in vllm/<NOSRV> 0/-1/-1/-1/3 503 217 - - SC-- 15/15/6/0/3 0/0 "POST /v1/chat/completions HTTP/1.1"`,
	`10.1.0.9:40004 [23/Nov/2026:10:00:05.000] llm-in vllm/gpu-7 0/0/1/20/25 429 80 - - ---- 15/15/6/0/0 0/0 "POST /v1/chat/completions HTTP/1.1"`,
	`10.1.0.9:40005 [32/Nov/2026:10:00:06.000] llm-in vllm/gpu-7 0/0/1/20/25 200 80 - - ---- 15/15/6/0/0 0/0 "POST /v1/chat/completions HTTP/1.1"`,
	`10.1.0.9:40006 [23/Nov/2026:10:00:07.000] llm-in vllm/gpu-7 0/0/x/20/25 200 80 - - ---- 15/15/6/0/0 0/0 "POST /v1/chat/completions HTTP/1.1"`,
	`10.1.0.9:40006 [23/Nov/2026:10:00:07.000] llm-in vllm/gpu-7 ++1/0/-2/20/25 -1 80 - - K 15/15/6/0/0 0/0  {a|00-00000000000000000000000000000000-00f067aa0ba902b7-01|  9f1c2d3e-0000-4000-8000-00000000000a } {x} "GET   http://h" x y`,
	`10.1.0.9:40006 [23/Nov/2026:10:00:07.000] llm-in vllm/gpu-7 1/1/1/1/ 0 80 - - c 15/15/6/0/0 0/0 {|} "POST /a`,
	`10.1.0.9:40006 [23/Nov/2026:10:00:07.000] llm-in vllm/gpu-7 1/1/1/1/1 200 80 - - - 15/15/6/0/0`,
	`10.1.0.9:40006 [23/Nov/2026:10:00:07.000] llm-in vllm 1/1/1/1/1 200 80 - - - 15/15/6/0/0 0/0 "GET /"`,
	`x:1 [23/Nov/2026:10:00:07.000] a:b [23/Nov/2026:10:00:08.000] f b/s 1/2/3/4/5 200 1 - - R 1/1/1/1/1 0/0 "GET /x"`,
	`a [23/Nov/2026:10:00:07.000] :1 [23/Nov/2026:10:00:08.000] f b/s 1/2/3/4/5 200 1 - - I 1/1/1/1/1 0/0 "GET /x"`,
	`10.0.1.2:33313 [06/Feb/2009:12:12:51.443] fnt bck/srv1 34/56/5007 212 -- 1/3/6/8/13 15/17`,
	`Connect from 10.0.1.2:33312 to 10.0.3.31:8012 (www/HTTP)`,
	`Nov 23 10:00:08 lb-1 haproxy[311]: Proxy llm-in started.`,
	`random garbage that is not a log line`,
	"10.1.0.9:40006 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \u00a0{x} \"GET /\"",
	"10.1.0.9:40006 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 {\u00a09f1c2d3e-0000-4000-8000-00000000000a} \"GET /\"",
	"10.1.0.9:40006 [23/nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /\"",
	"10.1.0.9:40006\t[23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /\"",
	"\t10.1.0.9:40006 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /\" ",
	"10.1.0.9:40006 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 0 1 - - - 1/1/1/1/1 0/0 {9f1c2d3e-0000-4000-8000-00000000000b|00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01|00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01} \"GET /\" id2 more",
	"10.1.0.9:40006 [23/Nov/2026:10:00:07.000] f /s 1/1/1/1/1 -0 1 - - S 1/1/1/1/1 0/0 {open \"GET /p?q#f HTTP/1.1\"   ",
	"h:1 [29/Feb/2024:23:59:59.999] f b/ 1/1/1/1/1 200 1 - - L 1/1/1/1/1 0/0 \"GET https://h.example\" -",
	"h:1 [29/Feb/2024:23:59:59.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [29/Feb/2024:23:59:59.998] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [29/Feb/2025:23:59:59.998] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [01/Jan/1970:00:00:00.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [01/Jan/1970:00:00:00.007] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [08/Mar/2026:02:30:00.500] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [08/Mar/2026:02:30:00.501] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [01/Nov/2026:01:30:00.100] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [01/Nov/2026:01:30:00.900] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [01/Nov/2026:01:30:00.900] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\" 3 3",
	``, ` `,
}

// checkHAProxyLine decodes one line by the fast path and, when it takes the
// line, by the general route: both must tell the sink the same.
func checkHAProxyLine(t *testing.T, f *haproxyFast, line []byte) bool {
	in := &decode.Input{Name: "t.log", Host: "h"}
	var a, b decodetest.Recorder
	if !f.line(in, &a, 3, line) {
		if a.Total() != 0 {
			t.Fatalf("%q: fast path declined after reporting %+v", line, a)
		}
		return false
	}
	haproxyLine(in, &b, 3, line, f.loc)
	decodetest.RecordersAgree(t, line, &a, &b)
	return true
}

func TestHAProxyFastMatchesGeneral(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		ny = time.FixedZone("EST", -5*3600)
	}
	for _, loc := range []*time.Location{time.UTC, ny} {
		f := &haproxyFast{loc: loc}
		took := 0
		for _, line := range haproxyEdgeLines {
			if checkHAProxyLine(t, f, []byte(line)) {
				took++
			}
		}
		if took < 9 {
			t.Errorf("the fast path took %d lines", took)
		}
		decodetest.RoutesAgree(t, haproxyDecode, decode.Options{TZ: loc}, []byte(strings.Join(haproxyEdgeLines, "\r\n")))
	}
	for _, path := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		decodetest.RoutesAgree(t, haproxyDecode, decode.Options{}, data)
	}
}

func FuzzHAProxyFast(f *testing.F) {
	for _, line := range haproxyEdgeLines {
		f.Add(line)
	}
	fast := &haproxyFast{loc: time.UTC}
	f.Fuzz(func(t *testing.T, line string) {
		checkHAProxyLine(t, fast, []byte(line))
	})
}
