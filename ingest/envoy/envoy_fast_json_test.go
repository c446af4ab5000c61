package envoy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// envoyJSONTestMaps are the key→operator maps the JSON fast path is checked
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

// envoyJSONFastFor compiles a key→operator map for both JSON routes.
func envoyJSONFastFor(t testing.TB, spec string) (map[string]*envoyOp, *envoyJSONFast) {
	m := envoyDefaultJSONMap
	if spec != "" {
		m = nil
		if err := json.Unmarshal([]byte(spec), &m); err != nil {
			t.Fatal(err)
		}
	}
	ops := envoyKeyOps(m)
	return ops, newEnvoyJSONFast(ops)
}

func TestEnvoyJSONFastMatchesGeneral(t *testing.T) {
	for _, spec := range envoyJSONTestMaps {
		ops, fast := envoyJSONFastFor(t, spec)
		took := 0
		for _, rec := range envoyEdgeRecords {
			if checkEnvoyJSON(t, ops, fast, []byte(rec)) {
				took++
			}
		}
		if took < 3 {
			t.Errorf("map %.40q: the fast path took %d records", spec, took)
		}
		lines := strings.Join(envoyEdgeRecords, "\n")
		pretty := "{\n  \"start_time\": \"2026-11-23T10:00:04.925Z\",\n  \"duration\": 5\n}\n{\"cut\": \n"
		decodetest.RoutesAgree(t, envoyDecode, decode.Options{LogFormat: spec}, []byte(lines+"\n\n"+pretty))
		if spec != "" {
			decodetest.RoutesAgree(t, envoyDecode, decode.Options{LogFormat: spec}, []byte("[\n"+strings.Join(envoyEdgeRecords[:3], ",\n")+"\n]"))
		}
	}
}

// envoyJSONSeeds are records for FuzzEnvoyJSONFast: the edge records, and
// the fleet's first records.
func envoyJSONSeeds() []string {
	seeds := append([]string(nil), envoyEdgeRecords...)
	for _, line := range bytes.SplitN(decodetest.BenchLog(&testing.B{}, "edge-2"), []byte("\n"), 6)[:5] {
		seeds = append(seeds, string(line))
	}
	return seeds
}

func FuzzEnvoyJSONFast(f *testing.F) {
	for i, rec := range envoyJSONSeeds() {
		f.Add(rec, uint8(i))
	}
	type compiled struct {
		ops  map[string]*envoyOp
		fast *envoyJSONFast
	}
	var plans []compiled
	for _, spec := range envoyJSONTestMaps {
		ops, fast := envoyJSONFastFor(f, spec)
		plans = append(plans, compiled{ops, fast})
	}
	f.Fuzz(func(t *testing.T, rec string, m uint8) {
		var stack []byte
		p := plans[int(m)%len(plans)]
		if s := strings.TrimSpace(rec); s != "" && s[0] == '{' && !jsonwalk.ValidObject([]byte(s), &stack) {
			// The walk checks validity: an invalid record must be declined.
			var r decodetest.Recorder
			if p.fast.record(&decode.Input{}, &r, 1, []byte(s)) || r.Total() != 0 {
				t.Fatalf("%q: invalid JSON taken by the fast path", s)
			}
			return
		}
		checkEnvoyJSON(t, p.ops, p.fast, []byte(rec))
	})
}

// FuzzJSONValidObject checks jsonwalk.ValidObject against json.Valid.
func FuzzJSONValidObject(f *testing.F) {
	for _, rec := range envoyJSONSeeds() {
		f.Add(rec)
	}
	for _, s := range []string{"{", "{}x", "{} \n", `{"a":1`, `{"a":01}`, `{"a":"\x01"}`, `{"a":"\u12"}`, `{"a":[}`, strings.Repeat("[", 10001)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if t := strings.TrimLeft(s, " \t\r\n"); t == "" || t[0] != '{' {
			return
		}
		var stack []byte
		if got, want := jsonwalk.ValidObject([]byte(s), &stack), json.Valid([]byte(s)); got != want {
			t.Fatalf("%q: jsonValidObject %v, json.Valid %v", s, got, want)
		}
	})
}

// FuzzDecimalScaledBytes checks textscan.DecimalScaledBytes against textscan.DecimalScaled.
func FuzzDecimalScaledBytes(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "12.", ".5", "-.5", "1.2.3", "1e3", " 1", "+1", "-", "", "123456789012.123456789",
		"99999999999999999999", "007.0700", "1.9999999999"} {
		f.Add(s, uint8(6))
	}
	f.Fuzz(func(t *testing.T, s string, scale uint8) {
		sc := int(scale % 10)
		got, ok := textscan.DecimalScaledBytes([]byte(s), sc)
		want, wok := textscan.DecimalScaled(s, sc)
		if got != want || ok != wok {
			t.Fatalf("%q scale %d: %d %v, decimalScaled %d %v", s, sc, got, ok, want, wok)
		}
	})
}

// FuzzJSONStringEndFast checks jsonwalk.StringEndFast against jsonwalk.StringEnd.
func FuzzJSONStringEndFast(f *testing.F) {
	for _, s := range []string{`"abc"`, `"0123456789abcdef"`, `"0123456\"89"`, "\"01234567\x01\"", `"0123456789`, `"\u00e4bcdefghij"`, `"é"`, `""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := append([]byte(`"`), s...)
		end, st := jsonwalk.StringEndFast(b, 0)
		wantEnd, wantSt := jsonwalk.StringEnd(b, 0)
		if st != wantSt || st != jsonwalk.Bad && end != wantEnd {
			t.Fatalf("%q: %d %d, jsonStringEnd %d %d", b, end, st, wantEnd, wantSt)
		}
	})
}
