package nginx

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// The goldens of testdata/nginx were checked by hand against the inputs:
// llm_gateway.log line 1: end = $msec 1795428001.500 s; start = end − 2.500 =
// 1795427999.000 s; headers = end − 2.450 + 0.400 = 1795427999.450 s.
// Line 2 (two attempts "0.050, 3.000"): start = 1795428003.250 − 3.100 =
// 1795428000.150; headers = end − 3.000 + 0.380 = 1795428000.630. Line 3
// (" : " redirect): start = 1795428004.900 − 1.200 = 1795428003.700;
// headers = end − 1.000 + 0.200 = 1795428004.100; connect = 0.002 s (last).
// Line 4 (499, header time "-"): headers nil, start = 1795428004.210.
// Line 7: user agent `curl/8.5.0 \x22quoted\x22 agent` → `curl/8.5.0 "quoted" agent`.
// datadog_samples.log line 1 (common format): end = 13/Jul/2016:10:55:36
// +0000 = 1468407336 s, matching DataDog's expected date_access 1468407336000 ms.

func nginxDecodeLine(t *testing.T, format, line string) *decodetest.Recorder {
	t.Helper()
	rec := &decodetest.Recorder{}
	in := &decode.Input{R: strings.NewReader(line + "\n"), Name: "t", Host: "h", Opts: decode.Options{LogFormat: format}}
	if err := (Format{}).Decode(in, rec); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if rec.Total() != 1 {
		t.Fatalf("got %d records for one line", rec.Total())
	}
	return rec
}

func TestNginxInstants(t *testing.T) {
	const f = `$msec $request_time $upstream_connect_time $upstream_header_time $upstream_response_time "$request" $status`
	cases := []struct {
		name                string
		line                string
		start, headers, end int64 // ns; 0 = nil
		connect             int64
		status              int32
		errClass            string
	}{
		// end 1000.500 s, start = 1000.500 − 0.250 = 1000.250 s,
		// headers = end − 0.200 + 0.050 = 1000.350 s.
		{"one attempt", `1000.500 0.250 0.003 0.050 0.200 "POST /v1/chat/completions HTTP/1.1" 200`,
			1000_250_000_000, 1000_350_000_000, 1000_500_000_000, 3_000_000, 200, ""},
		// last attempt answered: headers = 2000.000 − 1.500 + 0.300 = 1998.800;
		// start = 2000.000 − 2.000 = 1998.000.
		{"retry in group", `2000.000 2.000 0.001, 0.004 0.020, 0.300 0.400, 1.500 "POST /v1/completions HTTP/1.1" 200`,
			1998_000_000_000, 1998_800_000_000, 2000_000_000_000, 4_000_000, 200, ""},
		// last response time unknown: headers = start + earlier 0.400 + 0.300
		// = 1998.000 + 0.700 = 1998.700 (lower bound).
		{"last response unknown", `2000.000 2.000 0.001, 0.004 0.020 : 0.300 0.400 : - "GET /x HTTP/1.1" 502`,
			1998_000_000_000, 1998_700_000_000, 2000_000_000_000, 4_000_000, 502, "server_error"},
		// upstream time longer than request_time (nginx measures them apart):
		// end − 0.950 + 0.010 = 9.060 < start 9.900, clamped to start.
		{"clamped", `10.000 0.100 0.001 0.010 0.950 "GET / HTTP/1.1" 200`,
			9_900_000_000, 9_900_000_000, 10_000_000_000, 1_000_000, 200, ""},
		{"no upstream", `10.000 0.000 - - - "GET /v1/models HTTP/1.1" 404`,
			10_000_000_000, 0, 10_000_000_000, 0, 404, "client_error"},
		{"rate limited", `10.000 0.010 0.001 0.008 0.009 "POST /v1/chat/completions HTTP/1.1" 429`,
			9_990_000_000, 9_999_000_000, 10_000_000_000, 1_000_000, 429, "rate_limited"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := nginxDecodeLine(t, f, c.line)
			if len(rec.Events) != 1 {
				t.Fatalf("not an event: %+v", rec)
			}
			ev := rec.Events[0].Event
			check := func(what string, got *int64, want int64) {
				if want == 0 && got != nil || want != 0 && (got == nil || *got != want) {
					t.Errorf("%s = %v, want %d", what, nginxDeref(got), want)
				}
			}
			check("start", ev.StartNs, c.start)
			check("headers", ev.HeadersNs, c.headers)
			check("end", ev.EndNs, c.end)
			check("connect", ev.ConnectNs, c.connect)
			if ev.FirstTokenNs != nil {
				t.Errorf("first token set: time to headers is not TTFT")
			}
			if ev.Status == nil || *ev.Status != c.status || ev.Error != c.errClass {
				t.Errorf("status %v class %q, want %d %q", ev.Status, ev.Error, c.status, c.errClass)
			}
		})
	}
}

func nginxDeref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestNginxMatcher(t *testing.T) {
	cases := []struct {
		name, format, line string
		want               map[string]string // nil = no match
	}{
		{"braced variable", `${remote_addr}x$status`, `1.2.3.4x200`,
			map[string]string{"remote_addr": "1.2.3.4", "status": "200"}},
		{"quoted value with spaces", `"$request" $status`, `"GET /a b HTTP/1.1" 200`,
			map[string]string{"request": "GET /a b HTTP/1.1", "status": "200"}},
		{"json-escaped quote", `{"ua":"$http_user_agent","s":$status}`, `{"ua":"a \"b\" c","s":200}`,
			map[string]string{"http_user_agent": `a \"b\" c`, "status": "200"}},
		{"unquoted lists", `$upstream_response_time $request_time`, `0.050, 1.000 : 2.000 3.100`,
			map[string]string{"upstream_response_time": "0.050, 1.000 : 2.000", "request_time": "3.100"}},
		{"unbracketed time_local", `$time_local $status`, `23/Nov/2026:10:00:01 +0000 200`,
			map[string]string{"time_local": "23/Nov/2026:10:00:01 +0000", "status": "200"}},
		{"trailing fields", `$status $body_bytes_sent`, `200 12 "extra"`,
			map[string]string{"status": "200", "body_bytes_sent": "12"}},
		{"absolute-form target", `"$request"`, `"GET http://h:8080/v1/models?x=1 HTTP/1.1"`,
			map[string]string{"request": "GET http://h:8080/v1/models?x=1 HTTP/1.1"}},
		{"number refuses text", `$status "$request"`, `OK "GET / HTTP/1.1"`, nil},
		{"prefix differs", `[$status]`, `200`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := nginxCompile(c.format)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := nginxMatch(f, c.line)
			if ok != (c.want != nil) {
				t.Fatalf("match = %v, want %v (%v)", ok, c.want != nil, got)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// nginxMatch splits line by f as the reader does, into each variable's
// value by name.
func nginxMatch(f *nginxLogFormat, line string) (map[string]string, bool) {
	vals := make([]nginxSpan, len(f.vars))
	if !newNginxPlan(f).match([]byte(line), vals, !strings.Contains(line, `\`)) {
		return nil, false
	}
	out := map[string]string{}
	for i, v := range f.vars {
		out[v.name] = line[vals[i].lo:vals[i].hi]
	}
	return out, true
}

func TestNginxCompileErrors(t *testing.T) {
	for _, f := range []string{`$status$request_time`, `no variables here`} {
		if _, err := nginxCompile(f); err == nil {
			t.Errorf("nginxCompile(%q) accepted", f)
		}
	}
	in := &decode.Input{R: strings.NewReader("x\n"), Opts: decode.Options{LogFormat: `$status $request_time`}}
	if err := (Format{}).Decode(in, &decodetest.Recorder{}); err == nil {
		t.Error("a log_format without a clock was accepted")
	}
}

func TestNginxFormatString(t *testing.T) {
	cases := map[string]string{
		`  $msec "$request"  `: `$msec "$request"`,
		`"$request" "$status"`: `"$request" "$status"`,
		"log_format llm escape=json '$msec '\n    '\"$request\" $status';": `$msec "$request" $status`,
		`'$msec ' '$status'`: `$msec $status`,
		`'$msec ' $status`:   `'$msec ' $status`,
		`combined`:           `combined`,
	}
	for in, want := range cases {
		if got := nginxFormatString(in); got != want {
			t.Errorf("nginxFormatString(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNginxTargetPath(t *testing.T) {
	cases := map[string]string{
		"/v1/chat/completions?stream=1": "/v1/chat/completions",
		"http://h:8080/v1/models?x=1":   "/v1/models",
		"*":                             "",
		"\x16\x03\x01":                  "",
	}
	for in, want := range cases {
		if got := nginxTargetPath(in); got != want {
			t.Errorf("nginxTargetPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNginxUnescape(t *testing.T) {
	cases := map[string]string{
		`a\x22b\x22`:    `a"b"`,
		`\x5Cx`:         `\x`,
		`q\"u\\o\n`:     "q\"u\\o\n",
		`\u00e9t\u00e9`: "été",
		`bad\xZZ`:       `bad\xZZ`,
		`end\`:          `end\`,
	}
	for in, want := range cases {
		if got := nginxUnescape(in); got != want {
			t.Errorf("nginxUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNginxSeconds(t *testing.T) {
	cases := []struct {
		in   string
		ns   int64
		ok   bool
		fail bool
	}{
		{"0.250", 250_000_000, true, false},
		{"1795428001.500", 1_795_428_001_500_000_000, true, false},
		{"12", 12_000_000_000, true, false},
		{"-", 0, false, false},
		{"1.2.3", 0, false, true},
		{"-0.5", 0, false, true},
		{"99999999999", 0, false, true},
	}
	for _, c := range cases {
		ns, ok, err := nginxSeconds(c.in)
		if ns != c.ns || ok != c.ok || (err != nil) != c.fail {
			t.Errorf("nginxSeconds(%q) = %d, %v, %v", c.in, ns, ok, err)
		}
	}
}

// TestNginxJSONFormat decodes a JSON access log written with escape=json,
// the log_format pasted as it stands in nginx.conf.
func TestNginxJSONFormat(t *testing.T) {
	const f = `log_format json_llm escape=json '{"t":"$msec","rt":"$request_time",'
		'"req":"$request","st":"$status","urt":"$upstream_response_time","uht":"$upstream_header_time","ua":"$http_user_agent"}';`
	line := `{"t":"1795428001.500","rt":"2.500","req":"POST /v1/completions HTTP/1.1","st":"200","urt":"0.100, 2.000","uht":"0.050, 0.700","ua":"my \"agent\", v1"}`
	rec := nginxDecodeLine(t, f, line)
	if len(rec.Events) != 1 {
		t.Fatalf("%+v", rec)
	}
	ev := rec.Events[0].Event
	// start = 1795428001.500 − 2.500 = 1795427999.000 s; headers = end − 2.000
	// + 0.700 = 1795428000.200 s.
	if *ev.StartNs != 1795427999_000_000_000 || *ev.HeadersNs != 1795428000_200_000_000 {
		t.Errorf("start %d headers %d", *ev.StartNs, *ev.HeadersNs)
	}
	if ev.Attrs["user_agent"] != `my "agent", v1` || ev.Endpoint != "/v1/completions" {
		t.Errorf("ua %q endpoint %q", ev.Attrs["user_agent"], ev.Endpoint)
	}
}

func TestNginxIDs(t *testing.T) {
	const f = `$msec "$http_x_request_id" "$request_id" "$http_x_client_request_id" "$upstream_http_x_request_id" "$http_traceparent"`
	rec := nginxDecodeLine(t, f, `1.000 "hdr-1" "-" "cli-9" "up-3" "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"`)
	ev := rec.Events[0].Event
	if ev.RequestID != "hdr-1" || strings.Join(ev.OtherIDs, ",") != "cli-9,up-3" {
		t.Errorf("ids %q %v", ev.RequestID, ev.OtherIDs)
	}
	if ev.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id %q", ev.TraceID)
	}
}

func TestNginxRejects(t *testing.T) {
	const f = `$msec $request_time $upstream_response_time $status`
	cases := map[string]string{
		`1.000 0.5 0.1 200`:          "", // a good line
		`1.000 abc 0.1 200`:          "line does not match log_format: field 2 does not fit $request_time in the log_format",
		`1.000 0.5 0.1 2000`:         "bad status",
		`9999999999.000 0.5 0.1 200`: "bad timestamp",
	}
	for line, reason := range cases {
		rec := nginxDecodeLine(t, f, line)
		got := ""
		if len(rec.Rejects) == 1 {
			got = rec.Rejects[0].Reason
		}
		if got != reason {
			t.Errorf("%q: reject %q, want %q", line, got, reason)
		}
	}
}

func TestNginxSniff(t *testing.T) {
	cases := []struct {
		name, head string
		want       bool
	}{
		{"combined", `127.0.0.1 - - [06/Jan/2017:16:16:37 +0000] "GET / HTTP/1.1" 200 612 "-" "curl"` + "\n", true},
		{"with error lines", "2017/09/26 14:36:50 [error] 1#1: x\n" +
			`127.0.0.1 - frank [13/Jul/2016:10:55:36 +0000] "GET /a HTTP/1.0" 200 2326` + "\n", true},
		{"haproxy", `Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"` + "\n", false},
		{"envoy", `[2026-11-23T10:00:00.000Z] "POST /v1/chat/completions HTTP/1.1" 200 - 0 512 100 90 "-" "curl" "id" "h" "10.0.0.1:80"` + "\n", false},
		{"only error lines", "2017/09/26 14:36:50 [error] 1#1: x\n", false},
		{"cut at the sniff size", `127.0.0.1 - - [06/Jan/2017:16:16:37 +0000] "GET / HTTP/1.1" 200 612 "-" "curl"` + "\n" +
			`127.0.0.1 - - [06/Jan/2017:16:16:3`, true},
		{"one stray line in five", strings.Repeat(`127.0.0.1 - - [06/Jan/2017:16:16:37 +0000] "GET / HTTP/1.1" 200 612`+"\n", 4) +
			"garbage\n", true},
		{"mostly other", `127.0.0.1 - - [06/Jan/2017:16:16:37 +0000] "GET / HTTP/1.1" 200 612` + "\ngarbage\ngarbage\n", false},
		{"json", `{"resourceSpans":[]}` + "\n", false},
		{"custom on combined", `10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 1795428001.500 "POST /v1/chat/completions HTTP/1.1" 200 5120 2.500` + "\n", true},
		{"haproxy without syslog header", `10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "GET /index.html HTTP/1.1"` + "\n", false},
	}
	for _, c := range cases {
		if got := (Format{}).Sniff([]byte(c.head)); got != c.want {
			t.Errorf("%s: Sniff = %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzNginx(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Add([]byte(`1.000 0.1, 0.2 : - "GET /\x22 HTTP/1.1" 200 "a\"b"` + "\n\n"))
	opts := decode.Options{LogFormat: `$msec $upstream_response_time "$request" $status "$http_user_agent" $request_time`}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		_ = Format{}.Sniff(data)
		decodetest.FuzzDecode(t, Format{}, opts, data)
		rec := &decodetest.Recorder{}
		_ = Format{}.Decode(&decode.Input{R: bytes.NewReader(data), Opts: opts}, rec)
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if rec.Total() != lines {
			t.Fatalf("%d lines, %d records reported", lines, rec.Total())
		}
	})
}
