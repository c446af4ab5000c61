package jsonl

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// jsonlTestMap is the mapping of the differential tests: the testdata's,
// whose paths are dotted, nested and repeated.
func jsonlTestMap(t testing.TB) string {
	return decodetest.BenchOpts(t, "testdata/gateway.jsonl").Map
}

// jsonlRoutes decodes data with mapping by the general route alone and
// with the fast path, and fails when the two report anything differently.
func jsonlRoutes(t *testing.T, data []byte, mapping string, tz *time.Location) {
	t.Helper()
	general, fast := &decodetest.Recorder{}, &decodetest.Recorder{}
	in := func() *decode.Input {
		return &decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h", Opts: decode.Options{Map: mapping, TZ: tz}}
	}
	errG := Format{}.decode(in(), general, false)
	errF := Format{}.decode(in(), fast, true)
	if (errG == nil) != (errF == nil) || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
}

// jsonlFastEdges are lines the fast path must read as the general route
// does, or hand to it.
var jsonlFastEdges = []string{
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}}`,
	` { "ts" : "2026-11-23T10:00:00.5+01:00" , "req" : { "id" : "a\u00e9\"\\\/" } } `,
	`{"ts":"2026-11-23 10:00:00.5","req":{"id":"a"}}`,
	`{"ts":"2026-11-23 10:00:00","req":{"id":"a"}}`,
	`{"ts":"2026-11-23 10:00:00Z","req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00","req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00,5Z","req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00.Z","req":{"id":"a"}}`,
	`{"ts":"1826-11-23T10:00:00Z","req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","model":"m\ud83d\ude00","path":"\/v1\/chat?x=1"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","model":"\ud83d"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","model":"caf` + "\xe9" + `"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"req":{"id":"b"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"req":null}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"req.id":"dotted"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":7,"req.id":"dotted"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"timing":{"ttft_ms":1},"timing":3}`,
	`{"ts":"2026-11-23T10:00:00Z","r\u0065q":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00Z","REQ":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":null}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","stream":"1"},"status":"404"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","stream":"yes"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","stream":{}}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"status":" 200 "}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"status":"+200"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"status":200.0}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"status":99}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"status":[200]}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"error":0}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"error":""}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"error":false,"status":503}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"error":{}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":"007"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"prompt_tokens":9223372036854775808}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"prompt_tokens":1e3}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"prompt_tokens":"+5"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"timing":{"headers_ms":1e400}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"timing":{"headers_ms":"1e3","ttft_ms":-0.0000005}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"timing":{"headers_ms":9223372036854}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"finished_at":1795428001.12345678951}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"finished_at":" 1795428001 "}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"finished_at":true}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"0x4bf92f3577b34da6a3ce929d0e0e4736"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"region":12.50,"gw":{"tenant":true,"host":""}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"region":[1],"gw":{"tenant":null}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}} trailing`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}}{}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"deep":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"deep":` + strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100) + `}`,
	`{"ts":null,"req":{"id":"a"}}`,
	`{"req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00Z"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{}}`,
	`null`, `[]`, `"x"`, `{}`, `{"ts":`, "\t", ` {"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}}` + "\r",
	// trace ids in and out of the shapes read in place
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"4BF92F3577B34DA6A3CE929D0E0E4736"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"4bf92f35-77b3-4da6-a3ce-929d0e0e4736"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"0X4bf92f3577b34da6a3ce929d0e0e4736"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"0x0x4bf92f3577b34da6a3ce929d0e0e4736"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"00000000000000000000000000000000"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"00-00000000000000000000000000000000-00f067aa0ba902b7-01"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 "}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-01"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"00-0x4bf92f3577b34da6a3ce929d0e0e4736-x-01"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"traceparent":12345}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":""},"traceparent":""}`,
	// duplicate and dotted keys at several levels
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","id":"b","model":"m","model":null}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","model":"m"},"req":{"id":"b"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"req":{"id":{"x":1}}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"gw":{"host":"x","tenant":"t"},"gw":"s"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"gw.tenant":"x","gw":{"tenant":"y","host":"h"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"prompt_tokens":{"a":1}}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"prompt":{"r\u0065q":{"id":"b"}},"x":{"y":[{"\u0074s":1}]}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","m\u006fdel":"m"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","mod` + "\xff" + `el":"m"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","módel":"m"},"régión":"x"}`,
	`{"ts":"2026-11-23T10:00:00Z","a.b":{"c":1},"a":{"b.c":2,"b":{"c":3}},"":"e","x":{"":"f"}}`,
	`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":3}},"a.b":7}`,
	`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":3},"b.c":null},"a..b":"m","":{"x":"ep"},"y":{"":"h"}}`,
	`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":3,"d":{"e":"5"}}},"a.b.c.d":{"e":1}}`,
	`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":3}},"a":{"b":{"d":1}}}`,
}

// jsonlEscapedMap maps path keys a\b and a, backspace, b.
const jsonlEscapedMap = `{"start":{"field":"ts"},"request_id":"a\\b","model":"a\b"}`

// jsonlDottedMap maps paths whose candidates overlap, with empty segments.
const jsonlDottedMap = `{"start":{"field":"ts"},"request_id":"a.b.c","model":"a..b","endpoint":".x","host":"y.","attrs":["a.b","a","a.b.c.d.e",""]}`

func TestJSONLFastMatchesGeneral(t *testing.T) {
	m := jsonlTestMap(t)
	data, err := os.ReadFile("testdata/gateway.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	jsonlRoutes(t, data, m, nil)
	for _, line := range jsonlFastEdges {
		jsonlRoutes(t, []byte(line), m, nil)
		jsonlRoutes(t, []byte(line), m, time.FixedZone("X", 3600))
		jsonlRoutes(t, []byte(line), `{"start":{"field":"ts"},"request_id":"req.id","attrs":["req","","req.id"],"error":"req.id"}`, nil)
		jsonlRoutes(t, []byte(line), jsonlDottedMap, nil)
	}
	// A path key with a backslash: the line's raw key equal to it is an
	// escape that decodes to another key.
	for _, line := range []string{`{"ts":"2026-11-23T10:00:00Z","a\\b":"x"}`, `{"ts":"2026-11-23T10:00:00Z","a\b":"x"}`, `{"ts":"2026-11-23T10:00:00Z","a\u0008":"x"}`} {
		jsonlRoutes(t, []byte(line), jsonlEscapedMap, nil)
	}
	// A path with too many dots turns the fast path off.
	deep := `{"start":{"field":"ts"},"request_id":"a.b.c.d.e.f.g.h.i.j.k.l"}`
	if m, err := parseJSONLMapping(deep); err != nil || newJSONLFast(m, &decode.Input{}) != nil {
		t.Errorf("mapping %s: err %v, or a fast path", deep, err)
	}
	jsonlRoutes(t, []byte(`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":{"k":{"l":"x"}}}}}}}}}}}}`), deep, nil)
	if !testing.Short() {
		jsonlRoutes(t, benchJSONLInput()[:1<<20], m, nil)
	}
}

func FuzzJSONLFast(f *testing.F) {
	data, _ := os.ReadFile("testdata/gateway.jsonl")
	for _, line := range bytes.Split(data, []byte("\n")) {
		f.Add(string(line))
	}
	for _, line := range jsonlFastEdges {
		f.Add(line)
	}
	m := jsonlTestMap(f)
	f.Fuzz(func(t *testing.T, line string) {
		jsonlRoutes(t, []byte(line), m, nil)
		jsonlRoutes(t, []byte(line), jsonlDottedMap, nil)
		jsonlRoutes(t, []byte(line), jsonlEscapedMap, nil)
	})
}
