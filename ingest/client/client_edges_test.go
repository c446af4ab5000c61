package client

import (
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// clientEdges are lines at the edges of the format: escapes, unicode,
// missing fields, repeated and case-folded keys, nulls, huge numbers,
// deep values, truncated lines.
var clientEdges = []string{
	`{"request_id":"a","start":"2026-11-23T10:00:00Z","end_ms":3}`,
	` { "request_id" : "a\u00e9\"\\\/" , "start" : "2026-11-23T10:00:00.5+01:00" , "end_ms" : 3 } `,
	`{"request_id":"a","start":"2026-11-23T10:00:00Z","model":"m\ud83d\ude00","endpoint":"\/v1\/chat?x=1"}`,
	`{"request_id":"a","start":"2026-11-23T10:00:00Z","model":"\ud83d"}`,
	`{"request_id":"a","start":"2026-11-23T10:00:00Z","model":"caf` + "\xe9" + `"}`,
	`{"request_id":"a","request_id":"b","start":"2026-11-23T10:00:00Z"}`,
	`{"REQUEST_ID":"a","start":"2026-11-23T10:00:00Z"}`,
	`{"request_\u0069d":"a","start":"2026-11-23T10:00:00Z"}`,
	`{"requestid":"a","start":"2026-11-23T10:00:00Z","x":{"y":[1,{"z":null}]}}`,
	`{"request_id":null,"start":null,"model":null,"stream":null,"status":null,"chunks":null,"attrs":null}`,
	`{"request_id":"a","start":null}`,
	`{"request_id":"a"}`,
	`{"start":"2026-11-23T10:00:00Z","status":2147483648}`,
	`{"start":"2026-11-23T10:00:00Z","status":-2147483648}`,
	`{"start":"2026-11-23T10:00:00Z","status":200.0}`,
	`{"start":"2026-11-23T10:00:00Z","status":-0}`,
	`{"start":"2026-11-23T10:00:00Z","status":"200"}`,
	`{"start":"2026-11-23T10:00:00Z","prompt_tokens":9223372036854775807,"output_tokens":-9223372036854775808}`,
	`{"start":"2026-11-23T10:00:00Z","prompt_tokens":9223372036854775808}`,
	`{"start":"2026-11-23T10:00:00Z","prompt_tokens":1e3}`,
	`{"start":"2026-11-23T10:00:00Z","headers_ms":1e400,"end_ms":5}`,
	`{"start":"2026-11-23T10:00:00Z","headers_ms":-0.0,"end_ms":1e11}`,
	`{"start":"2026-11-23T10:00:00Z","end_ms":1.00000000000000000000000001}`,
	`{"start":"2026-11-23T10:00:00Z","end_ms":01}`,
	`{"start":"2026-11-23T10:00:00Z","stream":true,"chunks":[{"t_ms":1,"kind":"content"},{"t_ms":0.5,"kind":"content","tokens":2}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content" },{"t_ms":2,"kind":"con\"tent"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content","x":1},{"t_ms":01,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":1.0,"kind":"content"},{"t_ms":1,"tokens":-1,"kind":"role"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":-1,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content"}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"role","tokens":-1},{"t_ms":2,"kind":"content","tokens":0}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":-1}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":2147483648}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":null}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":1,"tokens":2}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"Kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"\u212Aind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"cont\u0065nt"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"delta"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":null,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[null]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1e-7,"kind":"content","text":"hi"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":-1,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content"}],"chunks":[]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":{}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"a":"x","b":1.50,"c":true,"d":null,"e":{"f":1},"g":[1],"h":-0.0e+1}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"a":"x","a":null}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"\u0061":"x"}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"é":"\u00e9","n":"a\nb"}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"a":"\ud800"}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"d":null}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":"x"}`,
	`{"start":"2026-11-23T10:00:00Z","trace_id":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"}`,
	`{"start":"2026-11-23T10:00:00Z","error":"Read Timeout","status":200,"stream":false}`,
	`{"start":"2026-11-23T10:00:00Z","stream":tru}`,
	`{"start":"2026-11-23T10:00:00Z","end_ms":3`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content"}`,
	`{"start":"2026-11-23T10:00:00Z"} {}`,
	`{"start":"2026-11-23T10:00:00Z",}`,
	`{"start":"2026-11-23T10:00:00Z","x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"start":"2026-11-23T10:00:00Z","x":"a` + "\x01" + `"}`,
	`{"start":"bad","end_ms":3}`,
	`{"start":"0001-01-01T00:00:00Z","end_ms":3}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":3},{"t_ms":2,"kind":"content"}],"chunks":[{"kind":"role"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":3},{"t_ms":2,"kind":"content","tokens":5}],"chunks":[{"kind":"reasoning"}],"chunks":[null,{"t_ms":3}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":3}],"chunks":[],"chunks":[{"t_ms":null}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":3}],"chunks":null,"chunks":[{"t_ms":2}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","tokens":3,"kind":null,"tokens":null}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"T_MS":1,"KIND":"content","Tokens":3,"x":[{}]}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content"},{}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[1]}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"a":1,"b":"x"},"attrs":{"a":null,"c":false}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"a":1},"attrs":null,"attrs":{"b":2}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"caf` + "\xe9" + `":"v` + "\xff" + `","\ud800":1}}`,
	`{"start":"2026-11-23T10:00:00Z","model":"a","model":null,"status":200,"status":null,"stream":true,"stream":null}`,
	`{"start":"2026-11-23T10:00:00Z","start":null,"request_id":"r"}`,
	`{"Start":"2026-11-23T10:00:00Z","END_MS":3,"Request_Id":"r","\u0073tatus":200}`,
	`{"start":"2026-11-23T10:00:00Z","x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
	`{"start":"2026-11-23T10:00:00Z","x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","x":` + strings.Repeat("[", 9996) + strings.Repeat("]", 9996) + `}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"kind":"content","x":` + strings.Repeat("[", 9997) + strings.Repeat("]", 9997) + `}]}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"x":` + strings.Repeat("[", 9997) + strings.Repeat("]", 9997) + `}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}}`,
	"\ufeff" + `{"start":"2026-11-23T10:00:00Z","end_ms":3}`,
	`{"start":"2026-11-23T10:00:00Z","end_ms":3,"chunks":[{"t_ms":1,"kind":"content","tokens":2}],"end_ms":0.5}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1e11,"kind":"content"},{"t_ms":100000000000.0000001,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content"}],"chunks":[{"t_ms":1,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","error":"x","error":null,"endpoint":"/v1/a?b","endpoint":"/v1/c"}`,
	`{"start":"2026-11-23T10:00:00Z","status":999,"prompt_tokens":-1}`,
	`{"start":"2026-11-23T10:00:00Z","status":1000}`,
	`{"start":"2026-11-23T10:00:00Z","output_tokens":-1}`,
	`{"start":"2026-11-23T10:00:00Z","headers_ms":-1}`,
	`{"start":"2026-11-23T10:00:00Z","end_ms":1e11,"chunks":[{"t_ms":1e11,"kind":"content"}]}`,
	`{"start":"2200-12-31T23:59:59.999999999Z","end_ms":1e11}`,
	`{"start":"2201-01-01T00:00:00Z"}`,
	`{"start":"1969-12-31T23:59:59Z"}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content"}],"output_tokens":null}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{"n":1e400,"m":-0,"s":"\u0000"}}`,
	`{"start":"2026-11-23T10:00:00Z","attrs":{}}`,
	`{"start":"2026-11-23T10:00:00Z","trace_id":"4bf92f3577b34da6a3ce929d0e0e473"}`,
	`{"start":"2026-11-23T10:00:00Z","request_id":"\u0000x"}`,
	`  {"start":"2026-11-23T10:00:00Z"}  `,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"con` + "\\" + `"},{"t_ms":2,"kind":"content"}]}`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content"},`,
	`{"start":"2026-11-23T10:00:00Z","chunks":[{"t_ms":1,"tokens":2,"kind":"content"]}`,
	`{"start":"2026-11-23T10:00:00Z","x":1}}`,
	`null`, `true`, `{`, `}`, `{"start":"2026-11-23T10:00:00Z"` + "\x00}",
	`[1,2]`, `"x"`, `not json`, ``, `{}`,
}

// clientEdgeInputs are the edge inputs: each edge line alone, and all of
// them but the deep ones as one input, lines ended by CRLF.
func clientEdgeInputs() []string {
	short := slices.DeleteFunc(slices.Clone(clientEdges), func(l string) bool { return len(l) > 1000 })
	return append(slices.Clone(clientEdges), strings.Join(short, "\r\n"))
}

// TestClientEdges decodes every edge input and compares what the sink was
// told with testdata/edges/edges.golden, written by the route this decoder
// replaced (each line unmarshalled by goccy/go-json into a struct), which
// the reader was fuzzed against before that route was deleted.
func TestClientEdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, clientEdgeInputs(), "testdata/edges/edges.golden")
}
