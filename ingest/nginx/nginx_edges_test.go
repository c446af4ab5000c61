package nginx

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// nginxTestFormats are the log_formats the reader is checked with: the
// fleet's, the testdata's, combined (the default), and one with every
// variable the event reads, duplicates and ${var} references.
var nginxTestFormats = []string{
	fleet.NginxLogFormat,
	`$remote_addr - [$time_local] $msec "$request" $status $body_bytes_sent $request_time $upstream_connect_time $upstream_header_time $upstream_response_time "$upstream_addr" $request_id "$http_traceparent" "$upstream_http_x_request_id" "$http_user_agent"`,
	"",
	`[$time_iso8601] $host ${server_name} "$request_method $request_uri" $uri $status $status s=$upstream_status a="$upstream_addr" ` +
		`u=$upstream_http_x_request_id v=$upstream_http_x_trace_id x=$http_x_request_id y=$http_x_b_request_id z=$http_x_a_request_id r=$request_id t=$request_time`,
}

// nginxEdgeLines are hand-made lines for the formats above: escapes,
// unicode, missing and "-" values, duplicate ids, huge numbers, bad dates,
// truncated lines, absolute URLs, upstream lists, error-log and blank lines.
var nginxEdgeLines = []string{
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST /v1/chat/completions HTTP/1.1" 200 37200 "-" "chat-web/1.4 \"q\" \x22x\x22" rt=4.552 uct="0.000" uht="0.002" urt="4.552" msec=1795428005.805 rid=285a2103 tp=00-7C009C86535400438082D653206CCBEE-7c009c8653540043-01`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST /v1/chät?x=1 HTTP/1.1" 499 0 "-" "агент/1.0" rt=0.001 uct="-" uht="-" urt="-" msec=1795428005.805 rid=- tp=-`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST http://h:8000/v1/x?y HTTP/1.1" 200 1 "-" "ua" rt=4.552 uct="0.000, 0.001" uht="-, 0.002" urt="0.100, 4.552" msec=1795428005.805 rid=a tp=00-00000000000000000000000000000000-7c009c8653540043-01`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST /a HTTP/1.1" 1000 1 "-" "ua" rt=4.552 uct="0.000" uht="0.002" urt="4.552" msec=99999999999.999 rid=a tp=0x7c009c86535400438082d653206ccbee`,
	`10.0.2.12 - - [31/Feb/2026:10:00:05 +0000] "POST /a HTTP/1.1" 0200 1 "-" "ua" rt=4.5525 uct="0.000 : 0.001" uht="0.002 : 0.003" urt="4.552 : 5" msec=- rid=a tp=a-b-c-d`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST /a HTTP/1.1" 200 1 "-" "ua" rt=4.552 uct="0.000" uht="0.002" urt="4.552" msec=1795428005.805 rid=a tp=- extra fields`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST /a HTTP/1.1" 200 1 "-" "ua" rt=4.552 uct="0.000" uht="0.002" urt="4.552" msec=1795428005.805 rid=a`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST	/a HTTP/1.1" 200 1 "-" "ua" rt=- uct="x" uht="0.002" urt="4.552" msec=1795428005.805 rid=a tp=-` + "\r",
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "GET  /b  " 200 1 "-" "ua" rt=2 uct="0.5" uht="9" urt="-" msec=1795428005 rid=a\x41 tp=-`,
	`10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "" - - "-" "" rt=1 uct="0.5" uht="0.1, 0.2" urt="0.3" msec=1795428005 rid=a tp=00-7c009c86535400438082d653206ccbee-00`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 1795428001.500 "POST /v1/chat/completions HTTP/1.1" 200 5120 2.500 0.001 0.400 2.450 "10.1.0.7:8000" 9f1c "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" "9f1c" "python-httpx/0.27.0"`,
	`10.0.0.6 - [23/Nov/2026:10:00:03 +0000] 1795428003.250 "POST /v1/chat/completions?stream=1 HTTP/1.1" 200 8844 3.100 0.002, 0.001 -, 0.380 0.050, 3.000 "10.1.0.7:8000, 10.1.0.8:8000" 0b6e "-" "cmpl-7f3e" "openai-python/1.54.0"`,
	`10.0.0.6 - [23/Nov/2026:10:00:03 +0000] 1795428003.250 "POST /v1/chat/completions?stream=1 HTTP/1.1" 200 8844 3.100 - - - "-" - "-" "-" "-"`,
	`10.0.0.6 - [23/Nov/2026:10:00:03 +0000] 1795428003.250 "POST /v1/chat/completions?stream=1 HTTP/1.1" 200 8844 3.100 0.1 0.2 0.3 "u" a "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" "b" "\"x\""`,
	`10.0.0.7 - [23/Nov/2026:10:00:04 +0000] - "POST /v1/completions HTTP/1.1" 200 912 1.200 0.001 : 0.002 0.100 : 0.200 0.150 : 1.000 "10.1.0.7:8000 : 10.1.0.9:8000" 5d7c "-" "-" "openai-python/1.54.0"`,
	`127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"`,
	`127.0.0.1 - - [10/Oct/2000:13:55:36 +1400] "GET /a HTTP/1.0" 200 2326`,
	`127.0.0.1 - - [10/oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326 "-" "-"`,
	`127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326 "-" "-" trailing`,
	`127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326 "-" "a" "b"`,
	`[2026-11-23T10:00:05+01:00] h.example s "POST /v1/x?q" /v1/x 200 201 s=200 a="10.0.0.1:80" u=U1 v=V1 x=X1 y=Y1 z=X1 r=R1 t=0.5`,
	`[2026-11-23T10:00:05Z] - - "- -" - - - s=- a="-" u=- v=- x=- y=- z=- r=- t=-`,
	`[2026-11-23 10:00:05] - - "- -" - - - s=- a="-" u=- v=- x=- y=- z=- r=- t=-`,
	`2026/11/23 10:00:00 [error] 42#42: *1 upstream timed out`,
	``, `   `, "\xc2\xa0", `garbage`, `10.0.2.12 - - [23/Nov/2026:10:00:05 +0000] "POST /a HTTP/1.1" 200`,
}

// nginxEdgeMore are more hand-made lines: a value the first split does not
// fit (the matcher backtracks), escapes in every value the event reads,
// odd request lines (Unicode white space, absolute URLs url.Parse
// refuses), dates textscan does not read (lower-case month, years out of
// the int64-ns range), bad numbers of every kind, invalid UTF-8, a BOM,
// trailing fields and lines cut short.
var nginxEdgeMore = []string{
	`1.2.3.4 - us [er [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 1 "-" "ua"`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a\"b\" HTTP/1.0" 200 1 "r\"" "u\\"`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /\x61b HTTP/1.0" 200 1 "-" "\u00e9\x"`,
	"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET\u00a0/nbsp HTTP/1.0\" 200 1 \"-\" \"ua\"",
	"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET\u2003/em\u2003HTTP/1.0\" 200 1",
	"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET\x0b/vt HTTP/1.0\" 200 1",
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET http://[::1 HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET https://h.example HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET https://h.example/p%20q?x HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET * HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "-" 400 0 "-" "-"`,
	`1.2.3.4 - - [10/OCT/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/0001:13:55:36 -0700] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/9999:13:55:36 -0700] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 -9999] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:25:55:36 -0700] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:60 +0000] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [29/Feb/2001:13:55:36 +0000] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" 2.0 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" 99999999999999999999 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" . 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" 000 1`,
	"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /\xff\xfe HTTP/1.0\" 200 1 \"-\" \"\xc3(\"",
	"\xef\xbb\xbf1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /bom HTTP/1.0\" 200 1",
	` 1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" 200 1`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" 200 1 `,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0" 200`,
	`1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.0`,
	"\r\r", "\t", "2026/11/23 10:00:00 [bogus] not an error line", "2026/11/23 10:00:00 [warn] 1#1: x",
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 1795428001.5001 "POST /v1/x HTTP/1.1" 200 1 2.5 0.001 0.4 2.45 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 9999999999.999 "POST /v1/x HTTP/1.1" 200 1 2.5 0.001 0.4 2.45 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] . "POST /v1/x HTTP/1.1" 200 1 . 0.001 0.4 2.45 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1, 0.2, 0.3 - : 0.4, - 0.5 : 0.6, 9.9 "u" a\"b "\x30\x30-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" "a\"b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1 0.2 12345678901 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1 0.2 0.3, 1.1234567890 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1 1.1234567890 0.3 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 . 0.2 0.3 "u" a "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1 0.2 0.3 "u" a "-" "b" "c" "d"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1 0.2 0.3 "u" a b "-" "b" "c"`,
	`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 5.0 "POST /v1/x HTTP/1.1" 200 1 2.5 0.1 0.2 0.3 "u" a "-" "b" "c`,
	`[2026-11-23T10:00:05.123+01:00] h s "POST /v1/x" /v1/x 200 201 s=200 a="10.0.0.1:80" u=U1 v=V1 x=X1 y=Y1 z=X1 r=R1 t=0.5`,
	`[0001-11-23T10:00:05Z] h s "POST /v1/x" /v1/x 200 201 s=200 a="-" u=- v=- x=- y=- z=- r=- t=0.5`,
	`[2026-11-23t10:00:05z] h s "POST /v1/x" /v1/x 200 201 s=200 a="-" u=- v=- x=- y=- z=- r=- t=0.5`,
	`[-] h s "POST /v1/x" /v1/x 200 201 s=200 a="-" u=- v=- x=- y=- z=- r=- t=0.5`,
	`[2026-11-23T10:00:05Z] h\x20 s\"q "P\x4fST /v1/\x41 b" \x2Fv1 - 201 s=200 a="-" u=\x55 v=- x=- y=a\"b z=- r=- t=0.5`,
	`[2026-11-23T10:00:05Z] h s "POST v1/x" v1/x 200 201 s=200 a="-" u=- v=- x=- y=- z=- r=- t=0.5`,
	`[2026-11-23T10:00:05Z] h s "POST v1/x" /v2 200 201 s=200 a="-" u=- v=- x=- y=- z=- r=- t=0.5 more`,
	`{"t":"1795428001.500","rt":"2.500","req":"POST /v1/completions HTTP/1.1","st":"200","urt":"0.100, 2.000","uht":"0.050, 0.700","ua":"my \"agent\", v1"}`,
	`{"t":"1795428001.500","rt":"-","req":"POST /v1/\u00e9 HTTP/1.1","st":"-","urt":"-","uht":"-","ua":"\\\"x\\"}`,
	`{"t":"1795428001.500","rt":"2.500","req":"POST /v1/c HTTP/1.1","st":"200","urt":"0.100, 2.000","uht":"0.050, 0.700","ua":"a"} `,
	`{"t":"1795428001.500","rt":"2.500","req":"POST /v1/c HTTP/1.1","st":"200","urt":"0.100, 2.000","uht":"0.050","ua":"a"}`,
	`{"t":"","rt":"","req":"","st":"","urt":"","uht":"","ua":""}`,
	`1.5 a b c 200 0.1, 0.2 : 0.3`,
	`1.5 a b c 200 0.1, 0.2 : 0.3 junk more`,
	`1.5 a x b y c z 200 0.1`,
	`1.5 a b c 200 0.1,0.2`,
	`1.5 a b c 200 -`,
	"1.5 " + strings.Repeat("w ", 300) + "x",
	"1.5 " + strings.Repeat("7 ", 40) + "200 0.1 z",
}

// nginxEdgeFormats are the log_formats the edge inputs are read with, and
// the name of each one's golden: nginxTestFormats, then one written with
// escape=json and one that ends in an upstream list after free text.
var nginxEdgeFormats = []struct{ name, spec string }{
	{"fleet", nginxTestFormats[0]}, {"gateway", nginxTestFormats[1]}, {"combined", nginxTestFormats[2]},
	{"iso", nginxTestFormats[3]},
	{"json", `log_format json_llm escape=json '{"t":"$msec","rt":"$request_time",'
		'"req":"$request","st":"$status","urt":"$upstream_response_time","uht":"$upstream_header_time","ua":"$http_user_agent"}';`},
	{"tail", `$msec $http_a $http_b $http_c $status $upstream_response_time`},
}

// nginxEdges returns every edge line as an input of its own, then all of
// them as one input (a BOM first, lines ended by CRLF).
func nginxEdges() []string {
	lines := append(append([]string(nil), nginxEdgeLines...), nginxEdgeMore...)
	return append(lines, "\xef\xbb\xbf"+strings.Join(lines, "\r\n"))
}

// TestNginxEdges decodes every edge input with each edge log_format and
// compares what the sink was told with that format's edges golden,
// written by the route this decoder replaced (a backtracking matcher over
// a map of values, strconv, time.Parse, net/url), which it was fuzzed
// against before that route was deleted.
func TestNginxEdges(t *testing.T) {
	for _, f := range nginxEdgeFormats {
		decodetest.CheckEdges(t, decodetest.WithOptions{Format: Format{}, Opts: decode.Options{LogFormat: f.spec}}, nginxEdges(), "testdata/edges/edges_"+f.name+".golden")
	}
}
