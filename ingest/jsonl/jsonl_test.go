package jsonl

import (
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// The golden of testdata/jsonl was checked by hand: line 1 starts at
// 2026-11-23T10:00:00.123456Z = 1795428000.123456 s; headers 40.5 ms and
// first token 85.2 ms after it give …163956000 and …208656000 ns; end
// "1795428001.3234567891" unix_s rounds to 1795428001323456789 ns; queue
// 1500 µs = 1500000 ns; host from gw.host. Line 4 "10:00:02+01:00" is
// 09:00:02Z = 1795424402 s. Line 5 has no zone and is read as UTC.

func FuzzJSONL(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	m := `{"start":{"field":"ts","format":"rfc3339"},"first_token":{"field":"t.ttft","unit":"ms"},` +
		`"end":{"field":"end","format":"unix_ms"},"status":"status","error":"error","request_id":"id",` +
		`"prompt_tokens":"u.p","output_tokens":"u.o","trace_id":"tp","attrs":["a","b.c"]}`
	f.Add([]byte(`{"ts":"2026-11-23T10:00:00Z","t":{"ttft":1.5},"end":"1795428000123.5","status":500,"u":{"p":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{Map: m}, data)
		decodetest.CheckOnePerLine(t, Format{}, decode.Options{Map: m}, data)
	})
}

func TestJSONLNeedsMap(t *testing.T) {
	err := Format{}.Decode(&decode.Input{R: strings.NewReader(`{"a":1}`)}, &decodetest.Recorder{})
	if err == nil || !strings.Contains(err.Error(), "jsonl needs --map") {
		t.Errorf("got %v", err)
	}
}

func TestJSONLBadMappings(t *testing.T) {
	bad := map[string]string{
		"not json":         `{`,
		"unknown key":      `{"start":{"field":"ts"},"strat":{}}`,
		"no start":         `{"end":{"field":"e","format":"unix_s"}}`,
		"start as unit":    `{"start":{"field":"ts","unit":"ms"}}`,
		"both":             `{"start":{"field":"ts"},"end":{"field":"e","format":"unix_s","unit":"s"}}`,
		"bad unit":         `{"start":{"field":"ts"},"end":{"field":"e","unit":"minutes"}}`,
		"unix unit":        `{"start":{"field":"ts"},"end":{"field":"e","unit":"unix_s"}}`,
		"bad format":       `{"start":{"field":"ts","format":"epoch"}}`,
		"phase absolute":   `{"start":{"field":"ts"},"queue":{"field":"q","format":"unix_s"}}`,
		"instant no kind":  `{"start":{"field":"ts"},"end":{"field":"e"}}`,
		"no field":         `{"start":{"field":"ts"},"end":{"unit":"ms"}}`,
		"bad source":       `{"start":{"field":"ts"},"source":"browser"}`,
		"bad token source": `{"start":{"field":"ts"},"tokens_source":"guessed"}`,
	}
	for name, m := range bad {
		if _, err := parseJSONLMapping(m); err == nil {
			t.Errorf("%s: mapping %s accepted", name, m)
		}
	}
	m, err := parseJSONLMapping(`{"start":{"field":"ts"}}`)
	if err != nil || m.Start.Format != "rfc3339" || m.Source != "client" {
		t.Errorf("defaults: %+v, %v", m, err)
	}
}

// TestJSONLLookup checks lookupSpan's rule (the whole key first, then
// every split) through the reader, with the paths compiled and, with a
// path of too many dots among them, resolved on the line's bytes.
func TestJSONLLookup(t *testing.T) {
	line := `{"ts":1,"a":{"b":{"c":"nested"}},"gen_ai.usage.input_tokens":"flat","x.y":{"z":"dotted key then nested"},"span":{"attributes":{"http.route":"/v1"}}}`
	cases := map[string]string{
		"a.b.c":                      "nested",
		"gen_ai.usage.input_tokens":  "flat",
		"x.y.z":                      "dotted key then nested",
		"span.attributes.http.route": "/v1",
	}
	for _, extra := range []string{`"a.b.d"`, `"a.b.d","q.q.q.q.q.q.q.q.q.q.q.q"`} {
		m := `{"start":{"field":"ts","format":"unix_s"},"attrs":["a.b.c","gen_ai.usage.input_tokens","x.y.z","span.attributes.http.route",` + extra + `]}`
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{Map: m}, line)
		if len(rec.Events) != 1 {
			t.Fatalf("%s: %+v", m, rec)
		}
		attrs := rec.Events[0].Event.Attrs
		for path, want := range cases {
			if got, ok := attrs[path]; !ok || got != want {
				t.Errorf("%s: %q = %q, %v", extra, path, got, ok)
			}
		}
		if _, ok := attrs["a.b.d"]; ok || len(attrs) != len(cases) {
			t.Errorf("%s: missing path found: %v", extra, attrs)
		}
	}
}

func TestJSONLInstants(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	cases := []struct {
		start, format string
		tz            *time.Location
		want          int64
	}{
		// 2026-11-23T10:00:00Z is 1795428000 s since 1970 (20780 days × 86400 + 36000).
		{`"2026-11-23T10:00:00.5Z"`, "rfc3339", nil, 1795428000_500000000},
		{`"2026-11-23T11:00:00+01:00"`, "rfc3339", nil, 1795428000_000000000},
		{`"2026-11-23 11:00:00"`, "rfc3339", berlin, 1795428000_000000000}, // no zone: --tz
		{`1795428000.25`, "unix_s", nil, 1795428000_250000000},
		{`"1795428000123.456"`, "unix_ms", nil, 1795428000_123456000},
		{`1795428000123456`, "unix_us", nil, 1795428000_123456000},
		{`"1795428000123456789"`, "unix_ns", nil, 1795428000_123456789},
	}
	for _, c := range cases {
		m := `{"start":{"field":"ts","format":"` + c.format + `"},"end":{"field":"d","unit":"us"}}`
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{Map: m, TZ: c.tz}, `{"ts":`+c.start+`,"d":2.5}`+"\n")
		if len(rec.Events) != 1 {
			t.Errorf("%s: %+v", c.start, rec)
			continue
		}
		ev := rec.Events[0].Event
		// end = start + 2.5 µs = start + 2500 ns.
		if *ev.StartNs != c.want || *ev.EndNs != c.want+2500 {
			t.Errorf("%s %s: start %d end %d, want %d", c.start, c.format, *ev.StartNs, *ev.EndNs, c.want)
		}
	}
}

func TestJSONLOutcome(t *testing.T) {
	m := `{"start":{"field":"ts","format":"unix_s"},"status":"s","error":"e"}`
	cases := []struct{ line, class string }{
		{`{"ts":1,"s":200}`, ""},
		{`{"ts":1,"s":"503"}`, "server_error"},
		{`{"ts":1,"s":429,"e":"slow down"}`, "rate_limited"},
		{`{"ts":1,"e":true}`, "server_error"},
		{`{"ts":1,"e":false}`, ""},
		{`{"ts":1,"e":""}`, ""},
		{`{"ts":1,"s":200,"e":{"code":"x"}}`, "server_error"},
	}
	for _, c := range cases {
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{Map: m}, c.line)
		if len(rec.Events) != 1 || rec.Events[0].Event.Error != c.class {
			t.Errorf("%s: %+v, want class %q", c.line, rec, c.class)
		}
	}
	if rec := decodetest.DecodeOne(t, Format{}, decode.Options{Map: m}, `{"ts":1,"s":"ok"}`); len(rec.Rejects) != 1 || rec.Rejects[0].Reason != "bad status" {
		t.Errorf("bad status: %+v", rec)
	}
}
