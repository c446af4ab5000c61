package envoy

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// TestEnvoyDatadogExpectations checks the decoded corpus lines against the
// expected parse results DataDog ships beside them (envoy_tests.yaml: date in
// ms, duration in ns, x_envoy_upstream_service_time, request id, status).
func TestEnvoyDatadogExpectations(t *testing.T) {
	want := []struct {
		dateMs, durationNs int64
		ust, requestID     string
		status             int32
		path               string
	}{
		{1551864687354, 11e6, "10", "d209e46f-9ed5-9b61-bbdd-43e22662702a", 418, "/status/418"},
		{1551864687360, 5e6, "2", "d209e46f-9ed5-9b61-bbdd-43e22662702a", 418, "/status/418"},
		{1531497418312, 107e6, "107", "820b432a-32c1-98d5-b5e2-310f824f940f", 200, "/v1/gifs/search"},
		{1615540311592, 1e6, "", "d0000a1f-0000-4b42-0000-0000e13d78ca", 200, "/server_info"},
	}
	rec, err := decodetest.DecodeFile(t, Format{}, "testdata/datadog_envoy_samples.log")
	if err != nil || len(rec.Events) != len(want) || rec.Total() != 4 {
		t.Fatalf("err %v, %d events, %d records", err, len(rec.Events), rec.Total())
	}
	for i, w := range want {
		ev := rec.Events[i].Event
		if *ev.StartNs != w.dateMs*1e6 || *ev.EndNs-*ev.StartNs != w.durationNs {
			t.Errorf("line %d: start %d end %d", i+1, *ev.StartNs, *ev.EndNs)
		}
		if ev.Attrs["upstream_service_time_ms"] != w.ust || ev.RequestID != w.requestID || *ev.Status != w.status || ev.Endpoint != w.path {
			t.Errorf("line %d: %+v", i+1, ev)
		}
	}
}

// TestEnvoyInstants checks the instants of hand-written lines. Start
// 2026-11-23T10:00:00.123Z is 1795428000.123 s since the epoch.
func TestEnvoyInstants(t *testing.T) {
	const start = int64(1795428000123000000)
	cases := []struct {
		name, format, line  string
		headers, first, end int64 // ns after start, -1 = nil
		status              int32 // 0 = nil
		class               string
	}{
		{"duration and response duration", "[%START_TIME%] %RESPONSE_CODE% %DURATION% %RESPONSE_DURATION%",
			"[2026-11-23T10:00:00.123Z] 200 4120 85", 85e6, -1, 4120e6, 200, ""},
		// 85 ms to upstream headers + 4035 ms upstream first byte → last byte out = 4120 ms.
		{"response tx duration gives the end", "[%START_TIME%] %RESPONSE_CODE% %RESPONSE_DURATION% %RESPONSE_TX_DURATION%",
			"[2026-11-23T10:00:00.123Z] 200 85 4035", 85e6, -1, 4120e6, 200, ""},
		// 312500 us = 312.5 ms to the first body byte; 4120000000 ns to DS_TX_END.
		{"common durations", "[%START_TIME%] %RESPONSE_CODE% %COMMON_DURATION(DS_RX_BEG:US_RX_BEG:ms)% %COMMON_DURATION(DS_RX_BEG:US_RX_BODY_BEG:us)% %COMMON_DURATION(DS_RX_BEG:DS_TX_END:ns)%",
			"[2026-11-23T10:00:00.123Z] 200 85 312500 4120000000", 85e6, 312.5e6, 4120e6, 200, ""},
		{"epoch start time", "%START_TIME(%s.%3f)% %RESPONSE_CODE% %DURATION%", "1795428000.123 200 10", -1, -1, 10e6, 200, ""},
		{"epoch start time in us", "%START_TIME(%s.%6f)% %RESPONSE_CODE% %DURATION%", "1795428000.123000 200 10", -1, -1, 10e6, 200, ""},
		{"strftime start time", "%START_TIME(%Y-%m-%dT%H:%M:%S.%3fZ)% %RESPONSE_CODE% %DURATION%", "2026-11-23T10:00:00.123Z 200 10", -1, -1, 10e6, 200, ""},
		// 11:00:00.123 at +01:00 is 10:00:00.123 UTC.
		{"zone offset", "%START_TIME(%Y-%m-%dT%H:%M:%E3S%z)% %RESPONSE_CODE% %DURATION%", "2026-11-23T11:00:00.123+0100 200 10", -1, -1, 10e6, 200, ""},
		{"upstream timeout flag", "[%START_TIME%] %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION%", "[2026-11-23T10:00:00.123Z] 504 UT 60000", -1, -1, 60000e6, 504, schema.ErrorTimeout},
		{"downstream cut beats 200", "[%START_TIME%] %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION%", "[2026-11-23T10:00:00.123Z] 200 DC 900", -1, -1, 900e6, 200, schema.ErrorInterrupted},
		{"long flag names", "[%START_TIME%] %RESPONSE_CODE% %RESPONSE_FLAGS_LONG% %DURATION%", "[2026-11-23T10:00:00.123Z] 503 UpstreamConnectionTermination 900", -1, -1, 900e6, 503, schema.ErrorServer},
		{"no response sent", "[%START_TIME%] %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION%", "[2026-11-23T10:00:00.123Z] 0 - 7", -1, -1, 7e6, 0, schema.ErrorInterrupted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &decodetest.Recorder{}
			in := &decode.Input{R: strings.NewReader(c.line + "\n"), Name: "t", Opts: decode.Options{LogFormat: c.format}}
			if err := (Format{}).Decode(in, rec); err != nil || len(rec.Events) != 1 {
				t.Fatalf("err %v, rec %+v", err, rec)
			}
			ev := rec.Events[0].Event
			if *ev.StartNs != start {
				t.Errorf("start %d, want %d", *ev.StartNs, start)
			}
			decodetest.CheckOffset(t, "headers", ev.HeadersNs, start, c.headers)
			decodetest.CheckOffset(t, "first token", ev.FirstTokenNs, start, c.first)
			decodetest.CheckOffset(t, "end", ev.EndNs, start, c.end)
			if (ev.Status == nil) != (c.status == 0) || ev.Status != nil && *ev.Status != c.status || ev.Error != c.class {
				t.Errorf("status %v class %q, want %d %q", ev.Status, ev.Error, c.status, c.class)
			}
		})
	}
}

// TestEnvoyBadFormats checks that an unusable --log-format is an error.
func TestEnvoyBadFormats(t *testing.T) {
	for _, f := range []string{"%START_TIME", "%START_TIME(%s%", "{not json"} {
		in := &decode.Input{R: strings.NewReader("x\n"), Opts: decode.Options{LogFormat: f}}
		if err := (Format{}).Decode(in, &decodetest.Recorder{}); err == nil {
			t.Errorf("format %q accepted", f)
		}
	}
}

// TestEnvoySniff checks that envoy claims its own inputs and not others'.
func TestEnvoySniff(t *testing.T) {
	yes := []string{
		`[2019-03-06T09:31:27.354Z] "GET /status/418 HTTP/1.1" 418 - "-" 0 135 11 10 "-"`,
		`{"start_time":"2025-08-30T16:51:37.894Z","response_flags":"-","duration":1}`,
	}
	no := []string{
		`127.0.0.1 - - [23/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 12 "-" "curl"`,
		`{"request_id":"x","start":"2026-11-23T10:00:00Z","chunks":[]}`,
		`{"resourceSpans":[]}`,
		`Feb  1 18:34:10 localhost haproxy[42471]: 73.18.215.121:50886 [01/Feb/2018:18:34:10.200] fe be/s 0/0/0/1/2 200 9 - - ---- 1/1/1/1/0 0/0 "GET / HTTP/1.1"`,
	}
	for _, s := range yes {
		if !(Format{}).Sniff([]byte(s)) {
			t.Errorf("not sniffed: %s", s)
		}
	}
	for _, s := range no {
		if (Format{}).Sniff([]byte(s)) {
			t.Errorf("wrongly sniffed: %s", s)
		}
	}
}

func FuzzEnvoy(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Add([]byte("[2026-11-23T10:00:00.123Z] \"GET / HTTP/1.1\" 200 - 0 0 1 - \"-\" \"-\" \"-\" \"-\" \"-\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		opts := decode.Options{LogFormat: "%START_TIME(%s.%3f)% %RESPONSE_CODE% %RESPONSE_FLAGS% %COMMON_DURATION(DS_RX_BEG:US_RX_BODY_BEG:us)% %ACCESS_LOG_TYPE%"}
		decodetest.FuzzDecode(t, Format{}, opts, data)
		rec := &decodetest.Recorder{}
		if err := (Format{}).Decode(&decode.Input{R: bytes.NewReader(data), Opts: opts}, rec); err == nil && rec.Total() != decodetest.LineCount(data) {
			t.Fatalf("%d lines, %d records reported", decodetest.LineCount(data), rec.Total())
		}
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			decodetest.FuzzDecode(t, Format{}, decode.Options{LogFormat: `{"t":"%START_TIME%","d":"%DURATION%"}`}, data)
		}
	})
}

// TestEnvoyIstioModern decodes the Istio 1.7+ default-format example of
// Istio's access-log documentation with no --log-format: 2020-11-25T21:26:18.409Z
// is 1606339578.409 s; DURATION 4 ms.
func TestEnvoyIstioModern(t *testing.T) {
	line := `[2020-11-25T21:26:18.409Z] "GET /status/418 HTTP/1.1" 418 - via_upstream - "-" 0 135 4 4 "-" "curl/7.73.0-DEV" "84961386-6d84-929d-98bd-c5aee93b5c88" "httpbin:8000" "10.44.1.27:80" outbound|8000||httpbin.foo.svc.cluster.local 10.44.1.23:37652 10.0.45.184:8000 10.44.1.23:46520 - default` + "\n"
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(line)}, rec); err != nil || len(rec.Events) != 1 {
		t.Fatalf("%v %+v", err, rec)
	}
	ev := rec.Events[0].Event
	if *ev.StartNs != 1606339578409000000 || *ev.EndNs != 1606339578413000000 || ev.RequestID != "84961386-6d84-929d-98bd-c5aee93b5c88" ||
		ev.Attrs["upstream_cluster"] != "outbound|8000||httpbin.foo.svc.cluster.local" || ev.Attrs["route"] != "default" {
		t.Errorf("%+v", ev)
	}
}
