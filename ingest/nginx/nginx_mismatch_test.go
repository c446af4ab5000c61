package nginx

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
)

// TestNginxMismatchReasons checks the reason of each kind of line no
// log_format fits. The field counts are by hand: combined is 9 fields
// ($remote_addr - $remote_user [$time_local] "$request" $status
// $body_bytes_sent "$http_referer" "$http_user_agent"), common its first 7,
// the testdata's gateway format 16 and the fleet's 16 too (combined and
// rt=… uct="…" uht="…" urt="…" msec=… rid=… tp=…), whose fourth field
// [$time_local] the gateway's line does not fit (its fourth is $msec).
func TestNginxMismatchReasons(t *testing.T) {
	const (
		combinedLine = `127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326 "-" "curl/8"`
		commonLine   = `127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2326`
		jsonFormat   = `escape=json '{"t":"$msec","rt":"$request_time","st":"$status"}'`
		p            = "line does not match log_format: "
	)
	gateway := nginxTestFormats[1]
	cases := []struct{ name, format, line, reason string }{
		{"combined line, --log-format given", gateway, combinedLine, p + "the line is in combined, leave --log-format out"},
		{"common line, --log-format given", fleet.NginxLogFormat, commonLine, p + "the line is in common, leave --log-format out"},
		{"JSON line, no --log-format", "", `{"t":"1795428001.500","st":"200"}`, p + "the line is JSON, give the log_format written with escape=json"},
		{"text line, JSON log_format", "log_format j " + jsonFormat + ";", combinedLine, p + "the line is not JSON, the log_format writes JSON"},
		{"fewer fields than combined", "", `GET /v1/models 200 not-a-log`, p + "4 fields where combined has 9"},
		{"one field", "", `garbage`, p + "1 field where combined has 9"},
		{"combined's field count, date unbracketed", "", `127.0.0.1 - - 10/Oct/2000:13:55:36 "GET /a HTTP/1.0" 200 2326 "-" "curl/8"`,
			p + "field 4 does not fit [$time_local] in combined"},
		{"common's field count, status not a number", "", `127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" OK 2326`,
			p + "field 6 does not fit $status in common"},
		{"combined's field count, request unquoted", "", `127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] GET 200 2326 "-" "curl/8"`,
			p + `field 5 does not fit "$request" in combined`},
		{"another custom format", gateway, `1795428001.500 0.250 200 "POST /v1/x HTTP/1.1"`, p + "4 fields where the log_format has 16"},
		{"gateway line, fleet format", fleet.NginxLogFormat,
			`10.0.0.5 - [23/Nov/2026:10:00:01 +0000] 1795428001.500 "POST /v1/chat/completions HTTP/1.1" 200 5120 2.500 0.001 0.400 2.450 "10.1.0.7:8000" 9f1c "-" "c" "python-httpx/0.27.0"`,
			p + "field 4 does not fit [$time_local] in the log_format"},
	}
	for _, c := range cases {
		rec := nginxDecodeLine(t, c.format, c.line)
		if len(rec.Rejects) != 1 || rec.Rejects[0].Reason != c.reason {
			t.Errorf("%s: %+v, want reject %q", c.name, rec, c.reason)
		} else if d := rec.Rejects[0].Detail; d != decode.TruncateDetail(c.line) {
			t.Errorf("%s: detail %q, want the line", c.name, d)
		}
	}
}

func TestNginxMissingTiming(t *testing.T) {
	cases := map[string]string{
		"": "combined has no $request_time, so its lines give no start instant (its variables: " +
			"$remote_addr $remote_user $time_local $request $status $body_bytes_sent $http_referer $http_user_agent)",
		fleet.NginxLogFormat: "",
		`log_format x '$remote_addr [$time_local] "$request" $status';`: "the log_format has no $request_time, so its lines give no start instant " +
			"(its variables: $remote_addr $time_local $request $status)",
	}
	for spec, want := range cases {
		if got, err := MissingTiming(spec); err != nil || got != want {
			t.Errorf("MissingTiming(%.30q) = %q, %v; want %q", spec, got, err, want)
		}
	}
	if _, err := MissingTiming(`$status $request_time`); err == nil {
		t.Error("a log_format without a clock gave no error")
	}
}
