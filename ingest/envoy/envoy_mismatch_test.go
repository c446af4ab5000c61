package envoy

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestEnvoyMismatchReasons checks the reason of each kind of text line no
// format fits and of each kind of entry without a start. The field counts
// are by hand: Envoy's default format is 13 fields ([%START_TIME%], the
// quoted request line, RESPONSE_CODE, RESPONSE_FLAGS, BYTES_RECEIVED,
// BYTES_SENT, DURATION, the upstream service time and five quoted
// headers), the testdata's stream format 11.
func TestEnvoyMismatchReasons(t *testing.T) {
	const (
		defaultLine = `[2019-03-06T09:31:27.354Z] "GET /status/418 HTTP/1.1" 418 - 0 135 11 10 "-" "curl/7.60.0" "d209e46f" "httpbin:8000" "172.30.146.73:80"`
		istioLine   = `[2019-03-06T09:31:27.354Z] "GET /status/418 HTTP/1.1" 418 - via_upstream - "-" 0 135 11 10 "-" "curl/7.60.0" "d209e46f" "httpbin:8000" "172.30.146.73:80" outbound|8000||httpbin - 172.21.13.94:8000 172.30.146.82:60290 - default`
		p           = "format mismatch: "
		m           = "missing start time: "
	)
	stream := envoyTextTestFormats[1]
	cases := []struct{ name, format, input, reason, detail string }{
		{"JSON line, text format given", stream, `{"start_time":"2026-11-23T10:00:04.925Z","duration":5}`,
			p + "the line is JSON, give the key→operator map as --log-format", ""},
		{"default line, format given", stream, defaultLine, p + "the line is in Envoy's default format, leave --log-format out", ""},
		{"Istio 1.7 line, format given", stream, istioLine, p + "the line is in Istio's default format, leave --log-format out", ""},
		{"fewer fields than the default", "", `2026-11-23 10:00:06 not a log line`, p + "6 fields where Envoy's default format has 13", ""},
		{"one field", "", `garbage`, p + "1 field where Envoy's default format has 13", ""},
		{"default's field count, start unbracketed", "", strings.Replace(strings.Replace(defaultLine, "[", "", 1), "]", "", 1),
			p + "field 1 does not fit [%START_TIME%] in Envoy's default format", ""},
		{"the stream format's field count, request unquoted", stream,
			`[2026-11-23T10:00:00.123Z] POST 200 - 4120 85 312500 "9f1c" "-" "10.0.0.7:8000" DownstreamEnd`,
			p + `field 2 does not fit "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" in the format`, ""},
		{"text format without START_TIME", `%RESPONSE_CODE% %DURATION%`, `200 5`, m + "the format has no %START_TIME%", "no %START_TIME% in the format"},
		{"key map without START_TIME", `{"d":"%DURATION%","c":"%RESPONSE_CODE%"}`, `{"d":5,"c":200}`, m + "the key map has no %START_TIME%", "no key of the map is %START_TIME%"},
		{"record with none of the map's keys", "", `{"ts":"2026-11-23T10:00:04.925Z","dur":5,"code":200}`,
			m + "the record has none of the map's keys", "keys: ts, dur, code"},
		{"record without its start key", "", `{"duration":5,"response_code":200}`, m + "no value for start_time", "no %START_TIME% value"},
		{"start key null", "", `{"start_time":null,"duration":5}`, m + "no value for start_time", "no %START_TIME% value"},
		{"null record", `{"start_time":"%START_TIME%"}`, `null`, m + "the record has none of the map's keys", "keys: "},
	}
	for _, c := range cases {
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{LogFormat: c.format}, c.input+"\n")
		want := c.detail
		if want == "" {
			want = decode.TruncateDetail(c.input)
		}
		if len(rec.Rejects) != 1 || rec.Rejects[0].Reason != c.reason || rec.Rejects[0].Detail != want {
			t.Errorf("%s: %+v, want reject %q (%q)", c.name, rec, c.reason, want)
		}
	}
}

func TestEnvoyMissingTiming(t *testing.T) {
	const noAfter = "no %DURATION%, %RESPONSE_DURATION% or %COMMON_DURATION(DS_RX_BEG:…)%, so its entries give no instant after the start"
	cases := map[string]string{
		"":                      "",
		envoyTextTestFormats[1]: "",
		envoyJSONTestMaps[0]:    "",
		`%START_TIME% %COMMON_DURATION(DS_RX_BEG:US_RX_BODY_BEG:us)%`:      "",
		`[%START_TIME%] %RESPONSE_CODE%`:                                   "the format has " + noAfter + " (its operators: %START_TIME% %RESPONSE_CODE%)",
		`%START_TIME% %COMMON_DURATION(US_CX_BEG:US_CX_END:us)%`:           "the format has " + noAfter + " (its operators: %START_TIME% %COMMON_DURATION(US_CX_BEG:US_CX_END:us)%)",
		`%RESPONSE_CODE% %DURATION%`:                                       "the format has no %START_TIME%, so its entries give no start instant (its operators: %RESPONSE_CODE% %DURATION%)",
		`{"t":"%START_TIME%","c":"%RESPONSE_CODE%","x":"took %DURATION%"}`: "the key map has " + noAfter + " (its operators: %RESPONSE_CODE% %START_TIME%)",
	}
	for spec, want := range cases {
		if got, err := MissingTiming(spec); err != nil || got != want {
			t.Errorf("MissingTiming(%.30q) = %q, %v; want %q", spec, got, err, want)
		}
	}
	if _, err := MissingTiming(`%BROKEN`); err == nil {
		t.Error("a format that does not compile gave no error")
	}
}
