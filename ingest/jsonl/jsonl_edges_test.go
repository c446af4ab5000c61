package jsonl

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// jsonlTestMap is the mapping of the edge tests: the testdata's,
// whose paths are dotted, nested and repeated.
func jsonlTestMap(t testing.TB) string {
	return decodetest.BenchOpts(t, "testdata/gateway.jsonl").Map
}

// jsonlEdges are lines at the edges of the format: escapes, unicode,
// repeated and dotted keys, nulls, values of every kind where a mapped
// field is, huge numbers, deep values, text after the object, truncated
// lines.
var jsonlEdges = []string{
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
	`{"ts":"2026-11-23T10:00:00Z","req":{"i\u0064":"esc","id":"b"},"r\u0065q":{"id":"c"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"status":"abc"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":{"x":[1,"b",null,true]},"model":[2]}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","stream":[true]}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"prompt_tokens":-1}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"usage":{"completion_tokens":[1]}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"timing":{"ttft_ms":{"a":"b"}}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"timing":{"queue_us":"x"},"finished_at":"y"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"finished_at":"9999999999999"}`,
	`{"ts":{"a":1},"req":{"id":"a"}}`,
	`{"ts":"99999-11-23T10:00:00Z","req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"gw":{"host":"h\u00e9","tenant":"t` + "\xff" + `"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","model":"\ud800x"}}`,
	"\ufeff" + `{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"x":"\q"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"x":"a` + "\x01" + `"}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}}  {"x":`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"}}]`,
	`true`, `1`, `{"ts"}`, `{"ts":"2026-11-23T10:00:00Z"`, `{,}`, `nul`,
}

// jsonlNestedEdges are lines nested to encoding/json's depth and one
// level past it.
var jsonlNestedEdges = []string{
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"deep":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a"},"deep":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","x":` + strings.Repeat("[", 9997) + strings.Repeat("]", 9997) + `}}`,
	`{"ts":"2026-11-23T10:00:00Z","req":{"id":"a","x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}}`,
}

// jsonlEscapedMap maps path keys a\b and a, backspace, b.
const jsonlEscapedMap = `{"start":{"field":"ts"},"request_id":"a\\b","model":"a\b"}`

// jsonlDottedMap maps paths whose candidates overlap, with empty segments.
const jsonlDottedMap = `{"start":{"field":"ts"},"request_id":"a.b.c","model":"a..b","endpoint":".x","host":"y.","attrs":["a.b","a","a.b.c.d.e",""]}`

// jsonlDeepMap has a path with too many dots to compile.
const jsonlDeepMap = `{"start":{"field":"ts"},"request_id":"a.b.c.d.e.f.g.h.i.j.k.l","model":"a.b","attrs":["req.id","x.y.z"]}`

// jsonlEscapedLines are lines for jsonlEscapedMap.
var jsonlEscapedLines = []string{`{"ts":"2026-11-23T10:00:00Z","a\\b":"x"}`, `{"ts":"2026-11-23T10:00:00Z","a\b":"x"}`, `{"ts":"2026-11-23T10:00:00Z","a\u0008":"x"}`}

// jsonlDeepLines are lines for jsonlDeepMap.
var jsonlDeepLines = []string{
	`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":{"k":{"l":"x"}}}}}}}}}}}}`,
	`{"ts":"2026-11-23T10:00:00Z","a.b.c.d.e.f":{"g.h.i.j":{"k.l":"y"}},"a":{"b":"m","b":{"c":1}},"req":{"id":[1]},"x.y":{"z":2}}`,
	`{"ts":"2026-11-23T10:00:00Z","a":{"b.c.d.e.f.g.h.i.j.k.l":{"x":1}},"a.b":7,"a\u002eb":8}`,
	`{"ts":"2026-11-23T10:00:00Z","a":{"b":{"c":3}},"a":null}`,
}

// jsonlReqMap maps request_id, attrs and error to one path.
const jsonlReqMap = `{"start":{"field":"ts"},"request_id":"req.id","attrs":["req","","req.id"],"error":"req.id"}`

// jsonlMapped is the jsonl format with a mapping and a --tz of its own.
type jsonlMapped struct {
	Format
	mapping string
	tz      *time.Location
}

func (f jsonlMapped) Decode(in *decode.Input, sink decode.Sink) error {
	in.Opts.Map, in.Opts.TZ = f.mapping, f.tz
	return f.Format.Decode(in, sink)
}

// jsonlEdgeSet is a mapping with the edge inputs decoded by it; what the
// decoder must report for them is in testdata/edges/NAME.golden.
type jsonlEdgeSet struct {
	name   string
	format jsonlMapped
	inputs []string
}

// jsonlEdgeSets are the edge inputs by mapping: each line alone (and, by
// the testdata's mapping, all of them as one input, and the testdata).
func jsonlEdgeSets(t testing.TB) []jsonlEdgeSet {
	data, err := os.ReadFile("testdata/gateway.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	m := jsonlTestMap(t)
	return []jsonlEdgeSet{
		{"edges", jsonlMapped{mapping: m}, slices.Concat(jsonlEdges, jsonlNestedEdges, []string{strings.Join(jsonlEdges, "\n"), string(data)})},
		{"edges_tz", jsonlMapped{mapping: m, tz: time.FixedZone("X", 3600)}, jsonlEdges},
		{"edges_req", jsonlMapped{mapping: jsonlReqMap}, jsonlEdges},
		{"edges_dotted", jsonlMapped{mapping: jsonlDottedMap}, slices.Concat(jsonlEdges, jsonlDeepLines)},
		{"edges_deep", jsonlMapped{mapping: jsonlDeepMap}, slices.Concat(jsonlEdges, jsonlDeepLines)},
		{"edges_escaped", jsonlMapped{mapping: jsonlEscapedMap}, jsonlEscapedLines},
	}
}

// TestJSONLEdges decodes every edge input by every mapping and compares what
// the sink was told with the goldens in testdata/edges, written by the
// route this decoder replaced (each line decoded by encoding/json into a
// map[string]any), which the reader was fuzzed against before that route
// was deleted.
func TestJSONLEdges(t *testing.T) {
	for _, s := range jsonlEdgeSets(t) {
		t.Run(s.name, func(t *testing.T) {
			decodetest.CheckEdges(t, s.format, s.inputs, "testdata/edges/"+s.name+".golden")
		})
	}
}
