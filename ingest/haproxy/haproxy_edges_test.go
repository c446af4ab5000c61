package haproxy

import (
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// haproxyEdges are hand-made inputs: syslog prefixes, captured ids,
// logasap, -1 timers, absolute URLs, appended ids, tcp and foreign lines,
// bad dates, timers and statuses, odd white space (Unicode's too). What the
// decoder must report for each is in testdata/edges/edges.golden (in UTC)
// and edges_ny.golden (read in America/New_York), written by the route this
// decoder replaced (a regexp for the head, time.ParseInLocation, strconv
// and strings), which the one route was fuzzed against before that route
// was deleted.
var haproxyEdges = []string{
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
	"\u0085h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\" id\u00a0",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \u2028{9f1c2d3e-0000-4000-8000-00000000000c\u00a0|x\u3000} \u00a0\"GET /a\"\u2029 id3\u205f",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s +-1/++5/007/0/+-1 +200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s -+5/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/99999999999999999999 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/9223372036854775807 9999999999 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 4294967496 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 2_00 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 - 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [31/Feb/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/2026:24:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Xyz/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h:1 [23/Nov/0000:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"h\xff:1 [23/Nov/2026:10:00:07.000] f\xfe b/s 1/1/1/1/1 200 1 - - \xc3 1/1/1/1/1 0/0 {\xe9} \"GET /\xff\" \xff",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 {a}{9f1c2d3e-0000-4000-8000-00000000000d}\"GET /a\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET\"",
	"h:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1",
	"h:1 [23/Nov/2026:10:00:07.000]  f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"\xef\xbb\xbfh:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"",
	"\x0bh:1 [23/Nov/2026:10:00:07.000] f b/s 1/1/1/1/1 200 1 - - - 1/1/1/1/1 0/0 \"GET /a\"\x0b\x0c",
}

// haproxyEdgesJoined is every edge line in one input, lines ended by CRLF.
var haproxyEdgesJoined = strings.Join(haproxyEdges, "\r\n")

// haproxyInZone is the decoder with the TZ option set.
type haproxyInZone struct {
	Format
	loc *time.Location
}

func (f haproxyInZone) Decode(in *decode.Input, sink decode.Sink) error {
	in.Opts.TZ = f.loc
	return f.Format.Decode(in, sink)
}

// TestHAProxyEdges decodes every edge input (and all of them in one input)
// in UTC and in New York time and compares what the sink was told with
// the edges goldens.
func TestHAProxyEdges(t *testing.T) {
	inputs := append(append([]string(nil), haproxyEdges...), haproxyEdgesJoined)
	decodetest.CheckEdges(t, Format{}, inputs, "testdata/edges/edges.golden")
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	decodetest.CheckEdges(t, haproxyInZone{loc: ny}, inputs, "testdata/edges/edges_ny.golden")
}
