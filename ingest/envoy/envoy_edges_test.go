package envoy

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// envoyTextTestFormats are the format strings the text reader is
// checked with ("" is the default and Istio formats), and envoyEdgeLines
// hand-made lines for them.
var envoyTextTestFormats = []string{
	"",
	`[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION% %RESPONSE_DURATION% %COMMON_DURATION(DS_RX_BEG:US_RX_BODY_BEG:us)% "%REQ(X-REQUEST-ID)%" "%REQ(TRACEPARENT)%" "%UPSTREAM_HOST%" %ACCESS_LOG_TYPE%`,
	`%START_TIME(%s.%3f)% %RESPONSE_CODE% %RESPONSE_FLAGS_LONG% %DURATION% %RESPONSE_TX_DURATION% %RESPONSE_DURATION% %COMMON_DURATION(DS_RX_BEG:US_RX_BEG:ms)% %COMMON_DURATION(DS_RX_BEG:DS_TX_END:ns)% %COMMON_DURATION(US_CX_BEG:US_CX_END:us)% %COMMON_DURATION(DS_RX_BEG:US_RX_BEG:xs)% %TRACE_ID% %REQ(X-B3-TRACEID)% %REQ(:PATH)% %REQ(:AUTHORITY)% %UPSTREAM_CLUSTER% %ROUTE_NAME% %REQUEST_DURATION% %GENAI(gen_ai.request.model)% %GENAI(gen_ai.usage.output_tokens)% "%REQ(USER-AGENT)%"`,
	`[%START_TIME(%Y-%m-%dT%H:%M:%E3S%z)%] %RESPONSE_CODE% %DURATION% %START_TIME% %RESPONSE_CODE%`,
	`[%START_TIME%] %RESPONSE_CODE% %DURATION% "%REQ(X-REQUEST-ID)%";`, // ends with a literal
}

var envoyEdgeLines = []string{
	// Lines of one hour (textscan.RFC3339Hour), a trailing literal, spaces in values.
	`[2026-11-23T10:00:05.000Z] 200 15 "e";`,
	`[2026-11-23T10:59:59.999999999Z] 200 15 "f";`,
	`[2026-11-23T10:60:00.000Z] 200 15 "g";`,
	`[2026-11-23T10:00:05+01:00] 200 15 "h";`,
	`[2026-11-23T10:00:05.000Z] 200 15 "i";x`,
	`[2026-11-23T10:00:05.000Z] 2 00 15 "j";`,
	`[2026-11-23T10:00:05.000Z] 200 15 "k" ;`,
	`[2026-11-23T10:07:05.5Z] 200 15 "l;";`,
	`[2019-03-06T09:31:27.354Z] "GET /status/418 HTTP/1.1" 418 - "-" 0 135 11 10 "-" "curl/7.60.0" "d209e46f-9ed5-9b61-bbdd-43e22662702a" "httpbin:8000" "172.30.146.73:80" outbound|8000||httpbin.default.svc.cluster.local - 172.21.13.94:8000 172.30.146.82:60290 -`,
	`[2018-07-13T15:56:58.312Z] "GET /v1/gifs/search?q=x HTTP/1.1" 200 - 0 11187 107 107 "173.252.99.154, 23.235.39.44" "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)" "820b432a" "api.giphy.com" "127.0.0.1:8000"`,
	`[2026-11-23T10:00:00.123Z] "POST /v1/chat/completions HTTP/1.1" 200 - 4120 85 312500 "9f1c2d3e-0000-4000-8000-000000000001" "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" "10.0.0.7:8000" DownstreamEnd`,
	`[2026-11-23T10:00:01.000Z] "POST /v1/chat/completions HTTP/1.1" 200 - - - - "9f1c2d3e-0000-4000-8000-000000000002" "-" "10.0.0.7:8000" DownstreamPeriodic`,
	`[2026-11-23T10:00:01.000Z] "POST /v1/chat/completions?stream=1 HTTP/2" 200 DC 2500 90 400000 "a" "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01" "10.0.0.7:8000" DownstreamEnd`,
	`[2026-11-23T10:00:02.500Z] "POST /v1/completions HTTP/1.1" 504 UT 60001 - - "b" "-" "10.0.0.8:8000" DownstreamEnd`,
	`[2026-11-23T10:00:03.000Z] "POST /v1/chat/completions HTTP/1.1" 0 DC 15 - - "c" "-" "-" DownstreamEnd`,
	`[2026-11-23T10:00:04.000Z] "POST /v1/chät HTTP/1.1" 503 UF,URX 3 - - "d" "0x00-x" "10.0.0.9:8000" DownstreamEnd`,
	`[2026-13-23T10:00:05.000Z] "POST /v1/chat/completions HTTP/1.1" 200 - 10 5 - "bad-date" "-" "-" DownstreamEnd`,
	`[2026-11-23T10:00:07.000Z] "POST /v1/chat/completions HTTP/1.1" 200 - 12x 5 - "bad-duration" "-" "-" DownstreamEnd`,
	`[2026-11-23T10:00:07+01:00] "POST /a HTTP/1.1" 1000 - 1.5 2.25 -3 "e" "-" "-" -`,
	`[2026-11-23T10:00:07Z] "POST /a HTTP/1.1" 200 - 1e3 99999999999999999999 0.0005 "e" "-" "-" NotSet`,
	`[2026-11-23T10:00:07.1234567891Z] "POST  HTTP/1.1" 200 , UT , 1 2 3 "e" "-" "-" UpstreamEnd`,
	`1795428000.123 200 UpstreamRequestTimeout 10 5 4 3 2 1 - 4bf92f3577b34da6a3ce929d0e0e4736 00f067aa0ba902b700f067aa0ba902b7 /p?q a c r 9 llama 12 "ua with spaces"`,
	`1795428000.123 404 RateLimited,UpstreamOverflow - 5 4 3 - 1 - - 00F067AA0BA902B700F067AA0BA902B7 /p?q a c r 9 llama x "ua"`,
	`1795428000.123 0 - - 5 - - - - - - - - - - - - - - "ua"`,
	`1795428000.123 - - - 5 4 - - -5 - 0x4bf92f3577b34da6a3ce929d0e0e4736 - - - - - - - - "-"`,
	`1795428000.123 200 NoHealthyUpstream,DownstreamConnectionTermination 10 - - 3 x 2 1 - - ?q - - - - - -1 ""`,
	`[2026-11-23T11:00:00.123+0100] 200 10 2026-11-23T10:00:00.124Z 0`,
	`[2026-11-23T11:00:00.123+0100] 0 10 - 404`,
	`[2026-11-23T11:00:00.123+0100] 404 10 2026-11-23T10:00:00Z 0 trailing`,
	``, ` `, "\t", `garbage`, `[2026-11-23T10:00:00.123Z] "POST /v1/chat/completions HTTP/1.1" 200`,
}

// envoyJSONTestMaps are the key→operator maps the JSON reader is checked
// with ("" is envoyDefaultJSONMap), and envoyEdgeRecords hand-made records.
var envoyJSONTestMaps = []string{
	fleet.EnvoyLogFormat,
	"",
	`{"ts":"%START_TIME(%s.%3f)%","dur":"%DURATION%","hdr":"%COMMON_DURATION(DS_RX_BEG:US_RX_BEG:ms)%","fb":"%COMMON_DURATION(DS_RX_BEG:US_RX_BODY_BEG:ms)%","rid":"%REQ(X-REQUEST-ID)%","tid":"%TRACE_ID%","code":"%RESPONSE_CODE%","flags":"%RESPONSE_FLAGS%","path":"%REQ(:PATH)%","up":"%UPSTREAM_HOST%","type":"%ACCESS_LOG_TYPE%","x":"%START_TIME% and text","gen_ai.request.model":"%REQ(X-MODEL)%"}`,
}

var envoyEdgeRecords = []string{
	`{"start_time":"2026-11-23T10:00:04.925Z","method":"POST","path":"/v1/chat/completions","protocol":"HTTP/1.1","response_code":200,"response_flags":"-","duration":2896,"response_duration":1,"first_body_byte":61,"upstream_service_time":1,"x_request_id":"ad7a34e2-bdfa-45a7-abd7-97936589e9e8","traceparent":"00-2256b46ab674fdd83db9c945597eeb1f-2256b46ab674fdd8-01","upstream_host":"gpu-2:8000","user_agent":"chat-web/1.4 python-httpx/0.27.2"}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","method":"POST","path":"/v1/chat/completions","response_code":200,"response_flags":"DC","duration":2896,"response_duration":null,"first_body_byte":null,"upstream_service_time":null,"x_request_id":null,"traceparent":null,"upstream_host":null}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","path":"/v1/ch\u00e4t?x=\"1\"","response_code":"200","duration":"2896.5","x_request_id":"a\/b","user_agent":"\ud83d\ude00","upstream_host":"\ud800"}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","start_time":"2026-11-23T10:00:05Z","duration":1}`,
	`{"start\u005ftime":"2026-11-23T10:00:04.925Z","duration":1}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":-1}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":1e3,"response_code":1e2,"response_flags":"UT,UF"}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":99999999999999999999,"response_code":0}`,
	`{"start_time":"not a time","duration":1}`,
	`{"duration":1}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","access_log_type":"DownstreamPeriodic","duration":"x"}`,
	`{"start_time":"-","duration":1}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","response_code":200,"request_id":"r1","x-request-id":"r2","trace_id":"4BF92F3577B34DA6A3CE929D0E0E4736","traceparent":"00-00000000000000000000000000000000-00f067aa0ba902b7-01","path":"?q","x-envoy-origin-path":"/p","authority":"h","upstream_cluster":"c","route_name":"r","request_duration":"5","response_duration":7,"response_tx_duration":9,"gen_ai.request.model":"m1","gen_ai.response.model":"m2","gen_ai.usage.input_tokens":10,"gen_ai.usage.output_tokens":"20","gen_ai.other":1}`,
	`{"gen_ai.usage.output_tokens":1,"start_time":"2026-11-23T10:00:04.925Z","gen_ai.usage.output_tokens":2}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","method":{"a":[1,2,{"b":null}]},"protocol":[true,false],"path":true,"response_code":"2\u0030\u0030"}`,
	"{\"start_time\":\"2026-11-23T10:00:04.925Z\",\"path\":\"/\xff\xfe\",\"x_request_id\":\"ok\",\"m\xffx\":1}",
	`{"ts":"1795428000.123","dur":4120,"hdr":"85","fb":"312.5","rid":"req-a1","tid":"4BF92F3577B34DA6A3CE929D0E0E4736","code":200,"flags":"-","path":"/v1/chat/completions","up":"10.0.0.7:8000","type":"DownstreamEnd","x":"y"}`,
	`{"ts":"1795428001.000","dur":null,"hdr":"-","fb":"-","rid":"req-a2","tid":null,"code":200,"flags":"-","path":"/v1/chat/completions","up":"10.0.0.7:8000","type":"DownstreamPeriodic"}`,
	`{"ts":"1795428001.000","dur":"2500","hdr":90,"fb":"400","rid":"req-a2","tid":"0x4bf92f3577b34da6a3ce929d0e0e4736","code":200,"flags":"-","gen_ai.request.model":"mapped"}`,
	`{}`, `{"a":1}`, `null`, `[1]`, `"x"`, `{"start_time":"2026-11-23T10:00:04.925Z","duration":1} x`, `{"start_time":"2026-11-23T10:00:04.925Z","duration":01}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":1,}`, `{"start_time":"2026-11-23T10:00:04.925Z" "duration":1}`, ` { "start_time" : "2026-11-23T10:00:04.925Z" , "duration" : 1 } `,
}

// envoyEdgeMoreLines are more text lines: clocks out of the int64-ns
// range, COMMON_DURATION arguments that are not START:END:PRECISION,
// invalid UTF-8, a BOM, lines of white space only and lines cut short.
var envoyEdgeMoreLines = []string{
	`[0001-11-23T10:00:05.000Z] 200 15 "e";`,
	`[2026-11-23T10:00:05.000Z] 200 15 "e\xff";`,
	"\xef\xbb\xbf[2026-11-23T10:00:05.000Z] 200 15 \"bom\";",
	"\u00a0", "\x0b\x0c", "\xc3 x", "\u00a0[2026-11-23T10:00:05.000Z] 200 15 \"nbsp\";",
	`99999999999.123 200 - 10 5 4 3 2 1 - - - /p a c r 9 llama 12 "ua"`,
	`1795428000.123 200 - 10 5 4 3 2 1 x - - /p a c r 9 llama 12 "ua"`,
	`1795428000.123 200 - 10 5 4 3 2 1.5 - - - /p a c r 9 llama 12 "ua"`,
	`1795428000.123 200 - 10 5 4 3 2.5 1 - - - /p a c r 9 llama 12 "ua"`,
	`1795428000.1234 200 - 10 5 4 3 2 1 - - - /p a c r 9 llama 12 "ua"`,
	`[2026-11-23T11:00:00.123+0100] 2000 10 - -`,
	`[2026-11-23T11:00:00.123+0100] 200 -1 - -`,
	`[2026-11-23T11:00:00.123+0100] 200 1 garbage 404`,
	`[2026-11-23T11:00:00.123+01:00] 200 1 - -`,
	`[2026-11-23T11:00:00Z] 200 1 - -`,
	`2026-11-23T10:00:00Z 5 - 200 DownstreamEnd -`,
	`2026-11-23T10:00:00Z - 5 200 DownstreamEnd -`,
	`2026-11-23T10:00:00Z - - 200 DownstreamStart -`,
	`2026-11-23T10:00:00Z - - 200 DownstreamStart x`,
	`x - - 200 DownstreamStart -`,
	`- - - 200 DownstreamEnd -`,
	`- - - - - 2026-11-23T10:00:00Z`,
	`- - - 1000 - 2026-11-23T10:00:00Z`,
}

// envoyEdgeMoreRecords are more JSON records: keys with escapes and
// invalid UTF-8 (which encoding/json reads as U+FFFD), repeated keys,
// values nested to encoding/json's depth limit and one level past it,
// null and other JSON that is not an object.
var envoyEdgeMoreRecords = []string{
	`{"duration":1,"d\u0075ration":2,"start_time":"2026-11-23T10:00:04.925Z"}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":1,"duration":null}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":"x","duration":3}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","gen_ai.usage.input\u005ftokens":7,"gen_ai.usage.input_tokens":8}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","gen_ai.request.model":"a","gen_ai.request.model":"b","GEN_AI.request.model":"c"}`,
	"{\"s\":\"2026-11-23T10:00:04.925Z\",\"\xff\":5}",
	"{\"s\":\"2026-11-23T10:00:04.925Z\",\"\\ufffd\":6}",
	"{\"s\":\"2026-11-23T10:00:04.925Z\",\"\xff\xfe\":7,\"\\ud800\":8}",
	"{\"s\":\"2026-11-23T10:00:04.925Z\",\"d\":9,\"\\u0064\":10}",
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":5,"x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":5,"x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":5,"x":"` + strings.Repeat("y", 20000) + `"}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","duration":5,"x":[` + strings.Repeat(`{"a":1},`, 3000) + `1]}`,
	`{"start_time":"0001-11-23T10:00:04.925Z","duration":5}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","response_code":" 200","duration":" 5"}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","response_code":true,"duration":false}`,
	`{"start_time":"2026-11-23T10:00:04.925Z","response_code":200.0,"duration":5E-1}`,
	"\xef\xbb\xbf{\"start_time\":\"2026-11-23T10:00:04.925Z\",\"duration\":1}",
	` null `, `nul`, `1`, `[]`, `{"a":1}{"b":2}`, `{"start_time":"2026-11-23T10:00:04.925Z","duration":1`,
	"{\"start_time\":\"2026-11-23T10:00:04.925Z\",\"duration\":\"\x01\"}",
}

// envoyEdgeTextFormats and envoyEdgeJSONMaps are the --log-format values
// the edge inputs are read with, and the name of each one's golden:
// envoyTextTestFormats and envoyJSONTestMaps, then one of each with
// operators and keys of their own.
var (
	envoyEdgeTextFormats = []struct{ name, spec string }{
		{"text_default", envoyTextTestFormats[0]}, {"text_stream", envoyTextTestFormats[1]},
		{"text_epoch", envoyTextTestFormats[2]}, {"text_strftime", envoyTextTestFormats[3]},
		{"text_literal", envoyTextTestFormats[4]},
		{"text_common", `%START_TIME% %COMMON_DURATION(DS_RX_BEG:US_RX_BEG)% %COMMON_DURATION(DS_RX_BEG:US_RX_BEG:xs)% %RESPONSE_CODE% %ACCESS_LOG_TYPE% %START_TIME%`},
	}
	envoyEdgeJSONMaps = []struct{ name, spec string }{
		{"json_fleet", envoyJSONTestMaps[0]}, {"json_default", envoyJSONTestMaps[1]}, {"json_custom", envoyJSONTestMaps[2]},
		{"json_keys", `{"s":"%START_TIME%","\ufffd":"%DURATION%","d":"%RESPONSE_DURATION%","x":"%RESPONSE_CODE%"}`},
	}
)

// envoyTextEdges returns every edge line as an input of its own, then all
// of them as one input (a BOM first, lines ended by CRLF).
func envoyTextEdges() []string {
	lines := append(append([]string(nil), envoyEdgeLines...), envoyEdgeMoreLines...)
	return append(lines, "\xef\xbb\xbf"+strings.Join(lines, "\r\n"))
}

// envoyJSONEdges returns every edge record as an input of its own, then
// all of them as one input (with a pretty-printed record and one cut
// short), then the first records as a JSON array and one array of other
// JSON values.
func envoyJSONEdges() []string {
	recs := append(append([]string(nil), envoyEdgeRecords...), envoyEdgeMoreRecords...)
	pretty := "{\n  \"start_time\": \"2026-11-23T10:00:04.925Z\",\n  \"duration\": 5\n}\n{\"cut\": \n"
	return append(recs, strings.Join(recs, "\n")+"\n\n"+pretty,
		"[\n"+strings.Join(envoyEdgeRecords[:3], ",\n")+"\n]",
		`[null, {"start_time":"2026-11-23T10:00:04.925Z","duration":1}, 1, "x", [], {"duration":2}, {"a":}]`)
}

// TestEnvoyEdges decodes the edge text lines with each edge format string
// and the edge JSON records with each edge key→operator map, and compares
// what the sink was told with that format's edges golden, written by the
// route this decoder replaced (strings and encoding/json into a map),
// which it was fuzzed against before that route was deleted.
func TestEnvoyEdges(t *testing.T) {
	for _, f := range envoyEdgeTextFormats {
		decodetest.CheckEdges(t, decodetest.WithOptions{Format: Format{}, Opts: decode.Options{LogFormat: f.spec}}, envoyTextEdges(), "testdata/edges/edges_"+f.name+".golden")
	}
	for _, f := range envoyEdgeJSONMaps {
		decodetest.CheckEdges(t, decodetest.WithOptions{Format: Format{}, Opts: decode.Options{LogFormat: f.spec}}, envoyJSONEdges(), "testdata/edges/edges_"+f.name+".golden")
	}
}
