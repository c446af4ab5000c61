package envoy

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// envoyTextTestFormats are the format strings the text fast path is
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

// checkEnvoyText decodes one line by the text fast path and, when it takes
// the line, by the general route: both must tell the sink the same.
func checkEnvoyText(t *testing.T, formats []envoyFormat, fast *envoyTextFast, line []byte) bool {
	in := &decode.Input{Name: "t.log", Host: "h"}
	var a, b decodetest.Recorder
	if !fast.line(in, &a, 7, line) {
		if a.Total() != 0 {
			t.Fatalf("%q: fast path declined after reporting %+v", line, a)
		}
		return false
	}
	envoyTextLine(in, &b, 7, line, formats)
	decodetest.RecordersAgree(t, line, &a, &b)
	return true
}

// checkEnvoyJSON is checkEnvoyText for a JSON record.
func checkEnvoyJSON(t *testing.T, ops map[string]*envoyOp, fast *envoyJSONFast, raw []byte) bool {
	in := &decode.Input{Name: "t.json", Host: "h"}
	var a, b decodetest.Recorder
	if !fast.record(in, &a, 7, raw) {
		if a.Total() != 0 {
			t.Fatalf("%q: fast path declined after reporting %+v", raw, a)
		}
		return false
	}
	envoyJSONRecord(in, &b, 7, raw, ops)
	decodetest.RecordersAgree(t, raw, &a, &b)
	return true
}

// envoyTextFastFor compiles a --log-format for both text routes.
func envoyTextFastFor(t testing.TB, spec string) ([]envoyFormat, *envoyTextFast) {
	specs := append([]string{envoyDefaultFormat}, envoyIstioFormats...)
	if spec != "" {
		specs = []string{spec}
	}
	fast := &envoyTextFast{}
	var formats []envoyFormat
	for _, s := range specs {
		f, err := parseEnvoyFormat(s)
		if err != nil {
			t.Fatal(err)
		}
		formats = append(formats, f)
		fast.plans = append(fast.plans, newEnvoyTextPlan(f))
	}
	return formats, fast
}

func TestEnvoyTextFastMatchesGeneral(t *testing.T) {
	for _, spec := range envoyTextTestFormats {
		formats, fast := envoyTextFastFor(t, spec)
		took := 0
		for _, line := range envoyEdgeLines {
			if checkEnvoyText(t, formats, fast, []byte(line)) {
				took++
			}
		}
		if took < 2 {
			t.Errorf("format %.40q: the fast path took %d lines", spec, took)
		}
		decodetest.RoutesAgree(t, envoyDecode, decode.Options{LogFormat: spec}, []byte(strings.Join(envoyEdgeLines, "\r\n")))
	}
}

// TestEnvoyFastTestdataAndFleet checks the routes agree on the testdata
// and the fleet's JSON log, and that the fast path takes every fleet record.
func TestEnvoyFastTestdataAndFleet(t *testing.T) {
	for _, path := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		decodetest.RoutesAgree(t, envoyDecode, decode.Options{LogFormat: testdataLogFormat(t, path)}, data)
	}
	data := decodetest.BenchLog(&testing.B{}, "edge-2")
	decodetest.RoutesAgree(t, envoyDecode, decode.Options{LogFormat: fleet.EnvoyLogFormat}, data)
	ops, fast := envoyJSONFastFor(t, fleet.EnvoyLogFormat)
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if !checkEnvoyJSON(t, ops, fast, line) {
			t.Errorf("the fast path declined %q", line)
		}
	}
}

// testdataLogFormat returns the log_format of a testdata file's options, or "".
func testdataLogFormat(t *testing.T, path string) string {
	o, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		return ""
	}
	var opts struct {
		LogFormat string `json:"log_format"`
	}
	if err := json.Unmarshal(o, &opts); err != nil {
		t.Fatal(err)
	}
	return opts.LogFormat
}

func FuzzEnvoyTextFast(f *testing.F) {
	for i, line := range envoyEdgeLines {
		f.Add(line, uint8(i))
	}
	type compiled struct {
		formats []envoyFormat
		fast    *envoyTextFast
	}
	var plans []compiled
	for _, spec := range envoyTextTestFormats {
		formats, fast := envoyTextFastFor(f, spec)
		plans = append(plans, compiled{formats, fast})
	}
	f.Fuzz(func(t *testing.T, line string, format uint8) {
		p := plans[int(format)%len(plans)]
		checkEnvoyText(t, p.formats, p.fast, []byte(line))
	})
}
