package client

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// clientRoutes decodes data by the general route alone and with the fast
// path, and fails when the two report anything differently. It returns the
// number of lines the fast path read.
func clientRoutes(t *testing.T, data []byte) int {
	t.Helper()
	general, fast := &decodetest.Recorder{}, &decodetest.Recorder{}
	in := func() *decode.Input { return &decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"} }
	errG := Format{}.decode(in(), general, nil)
	c := &clientFast{}
	errF := Format{}.decode(in(), fast, c)
	if (errG == nil) != (errF == nil) || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
	read := 0
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var rec clientRecord
		if t := bytes.TrimSpace(line); len(t) > 0 && c.read(t, &rec) {
			read++
		}
	}
	return read
}

// clientFastEdges are lines the fast path must read as the general route
// does, or hand to it: escapes, unicode, missing fields, duplicate and
// case-folded keys, nulls, huge numbers, truncated lines.
var clientFastEdges = []string{
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
	`[1,2]`, `"x"`, `not json`, ``, `{}`,
}

func TestClientFastMatchesGeneral(t *testing.T) {
	for _, l := range clientFastEdges {
		clientRoutes(t, []byte(l+"\n"))
	}
	clientRoutes(t, []byte(strings.Join(clientFastEdges, "\r\n")))
	for _, p := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		clientRoutes(t, data)
	}
	for _, host := range []string{"web-1", "web-2"} {
		gen := decodetest.FleetLog(t, decodetest.SmallFleet(), host)
		lines := bytes.Count(gen, []byte{'\n'})
		if read := clientRoutes(t, gen); read != lines {
			t.Errorf("%s: the fast path read %d of %d lines", host, read, lines)
		}
	}
}

func FuzzClientFast(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	for _, l := range clientFastEdges {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		clientRoutes(t, data)
	})
}
