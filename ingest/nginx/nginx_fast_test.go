package nginx

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// nginxTestFormats are the log_formats the fast path is checked with: the
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

// checkNginxLine decodes one line by the fast path and, when it takes the
// line, by the general route too: both must tell the sink the same.
func checkNginxLine(t *testing.T, formats []*nginxLogFormat, f *nginxFast, n int64, line []byte) bool {
	in := &decode.Input{Name: "t.log", Host: "h"}
	var fast, general decodetest.Recorder
	took := f.line(in, n, line, &fast)
	if !took {
		if fast.Total() != 0 {
			t.Fatalf("%q: fast path declined after reporting %+v", line, fast)
		}
		return false
	}
	nginxLine(in, formats, n, line, &general)
	if !reflect.DeepEqual(fast, general) {
		g, _ := json.Marshal(general)
		h, _ := json.Marshal(fast)
		t.Fatalf("%q:\nfast    %s\ngeneral %s", line, h, g)
	}
	return true
}

// nginxFastFor compiles a log_format for both routes.
func nginxFastFor(t testing.TB, spec string) ([]*nginxLogFormat, *nginxFast) {
	formats, err := nginxFormats(spec)
	if err != nil {
		t.Fatal(err)
	}
	p := newNginxPlan(formats[0])
	return formats, &nginxFast{plan: p, vals: make([]nginxSpan, len(p.f.vars))}
}

func TestNginxFastMatchesGeneral(t *testing.T) {
	took := map[string]int{}
	for _, spec := range nginxTestFormats {
		formats, f := nginxFastFor(t, spec)
		for i, line := range nginxEdgeLines {
			if checkNginxLine(t, formats, f, int64(i+1), []byte(line)) {
				took[spec]++
			}
		}
		decodetest.RoutesAgree(t, nginxDecode, decode.Options{LogFormat: spec}, []byte("\xef\xbb\xbf"+strings.Join(nginxEdgeLines, "\n")))
	}
	for _, spec := range nginxTestFormats {
		if took[spec] < 2 {
			t.Errorf("format %.30q: the fast path took %d edge lines", spec, took[spec])
		}
	}
}

// TestNginxFastFleetAndTestdata checks the routes agree on the fleet's log
// and the testdata, and that the fast path takes every fleet line.
func TestNginxFastFleetAndTestdata(t *testing.T) {
	data := decodetest.BenchLog(&testing.B{}, "edge-1")
	formats, f := nginxFastFor(t, fleet.NginxLogFormat)
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, line := range lines {
		if !checkNginxLine(t, formats, f, int64(i+1), line) {
			t.Errorf("line %d: the fast path declined %q", i+1, line)
		}
	}
	decodetest.RoutesAgree(t, nginxDecode, decode.Options{LogFormat: fleet.NginxLogFormat}, data)
	for _, path := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		spec := ""
		if o, err := os.ReadFile(path + ".opts.json"); err == nil {
			var opts struct {
				LogFormat string `json:"log_format"`
			}
			if err := json.Unmarshal(o, &opts); err != nil {
				t.Fatal(err)
			}
			spec = opts.LogFormat
		}
		decodetest.RoutesAgree(t, nginxDecode, decode.Options{LogFormat: spec}, data)
	}
}

func FuzzNginxFast(f *testing.F) {
	for i, line := range nginxEdgeLines {
		f.Add(line, uint8(i%len(nginxTestFormats)))
	}
	type compiled struct {
		formats []*nginxLogFormat
		fast    *nginxFast
	}
	var plans []compiled
	for _, spec := range nginxTestFormats {
		formats, fast := nginxFastFor(f, spec)
		plans = append(plans, compiled{formats, fast})
	}
	f.Fuzz(func(t *testing.T, line string, format uint8) {
		p := plans[int(format)%len(plans)]
		checkNginxLine(t, p.formats, p.fast, 1, []byte(line))
	})
}

// FuzzNginxValid checks nginxValidBytes against nginxValid for every kind.
func FuzzNginxValid(f *testing.F) {
	for _, s := range []string{"-", "12.5", "1.2.3", "", "23/Nov/2026:10:00:05 +0000", "a b", `a\"b"`, `x"`,
		"0.1, 0.2 : -", "a,b", "a, : b", " : a", "a, ", "a : : b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for k := nginxAnyText; k <= nginxList; k++ {
			if got, want := nginxValidBytes(k, []byte(v)), nginxValid(k, v); got != want {
				t.Fatalf("kind %d, %q: fast %v, general %v", k, v, got, want)
			}
		}
	})
}

// nginxSecondsReference is nginxSeconds as first written (strings.Cut and
// a digit check per part), the reference FuzzNginxSeconds checks against.
func nginxSecondsReference(s string) (ns int64, ok bool, err error) {
	if s == "" || s == "-" {
		return 0, false, nil
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 10 || len(frac) > 9 {
		return 0, false, errNginxSeconds
	}
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, false, errNginxSeconds
			}
		}
	}
	for i := 0; i < len(whole); i++ {
		ns = ns*10 + int64(whole[i]-'0')
	}
	if ns > 9e9 {
		return 0, false, errNginxSeconds
	}
	ns *= 1e9
	scale := int64(1e8)
	for i := 0; i < len(frac); i++ {
		ns += int64(frac[i]-'0') * scale
		scale /= 10
	}
	return ns, true, nil
}

func FuzzNginxSeconds(f *testing.F) {
	for _, s := range []string{"", "-", "0", "12.345", "12.", ".5", "1.2.3", "9999999999.999", "9000000001", "12345678901", "1.1234567890", "+1", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ns, ok, err := nginxSeconds(s)
		ns2, ok2, err2 := nginxSecondsReference(s)
		if ns != ns2 || ok != ok2 || err != err2 {
			t.Fatalf("%q: %d %v %v, reference %d %v %v", s, ns, ok, err, ns2, ok2, err2)
		}
	})
}
