package client

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// The golden testdata/ttftrace-client/chat.jsonl.golden was checked by hand:
// line 1: start 2026-11-23T10:00:00.123456Z = 20780 days since 1970
// (56·365 + 14 leap days = 20454 to 2026-01-01, + 326 to Nov 23) ·86400
// + 10 h = 1795428000 s, so StartNs = 1795428000123456000; headers_ms 41.25
// → +41250000 = …164706000; first token 310.7 ms → …434156000; chunk
// 4100.0000004 ms rounds to 4100000000 ns; end 4120.5 ms → …4243956000;
// attrs keep replica "3" and canary "false", drop the object and the null.
// Line 2: 11:00:00.5+01:00 is 10:00:00.5Z; its chunks are written out of
// order, so the 0.29 ms chunk (290000 ns) becomes the first token.

func TestClientMsToNs(t *testing.T) {
	cases := []struct {
		ms   float64
		ns   int64
		okay bool
	}{
		{0.29, 290000, true},             // 0.29·1e6 = 289999.99999999994 in float64: rounding, not truncation
		{85.2, 85200000, true},           // 85.2·1e6 = 85200000.00000001
		{4100.0000004, 4100000000, true}, // .4 ns rounds down
		{0.0000006, 1, true},             // .6 ns rounds up
		{0, 0, true},
		{-0.001, 0, false}, // before start
		{1e12, 0, false},   // beyond the ~3-year bound
	}
	for _, c := range cases {
		ns, ok := clientMsToNs(c.ms)
		if ns != c.ns || ok != c.okay {
			t.Errorf("clientMsToNs(%v) = %d, %v; want %d, %v", c.ms, ns, ok, c.ns, c.okay)
		}
	}
}

func TestClientErrorClass(t *testing.T) {
	s := func(v int32) *int32 { return &v }
	cases := []struct {
		msg    string
		status *int32
		want   string
	}{
		{"", s(200), schema.ErrorNone},
		{"", nil, schema.ErrorNone},
		{"", s(429), schema.ErrorRateLimited},
		{"stream_interrupted", s(200), schema.ErrorInterrupted},
		{"Interrupted", nil, schema.ErrorInterrupted},
		{"timeout", s(200), schema.ErrorTimeout},
		{"read timeout", nil, schema.ErrorTimeout},
		{"client_error", s(200), schema.ErrorClient},
		{"upstream connect error", s(503), schema.ErrorServer},
		{"bad request", s(400), schema.ErrorClient},
		{"connection refused", nil, schema.ErrorServer},
	}
	for _, c := range cases {
		if got := clientErrorClass(c.msg, c.status); got != c.want {
			t.Errorf("clientErrorClass(%q, %v) = %q; want %q", c.msg, c.status, got, c.want)
		}
	}
}

// TestClientRecords checks the token and completion decisions one record at
// a time; expectations are worked out in each case's comment.
func TestClientRecords(t *testing.T) {
	const start = `"start":"1970-01-01T00:00:01Z"` // StartNs = 1e9
	cases := []struct {
		name, line string
		offsets    []int64
		tokens     []int32
		out        int64 // -1: nil
		source     string
		first, end int64 // -1: nil
		errClass   string
		completed  bool
	}{
		// role and usage chunks never count; no tokens anywhere → one per chunk.
		{"count chunks", `{` + start + `,"stream":true,"status":200,"end_ms":10,"chunks":[{"t_ms":1,"kind":"role"},{"t_ms":2,"kind":"content"},{"t_ms":3,"kind":"reasoning"},{"t_ms":9,"kind":"usage"}]}`,
			[]int64{2e6, 3e6}, nil, 2, schema.TokensCounted, 1e9 + 2e6, 1e9 + 10e6, "", true},
		// some chunks carry tokens: missing counts 1, so 4 + 1 = 5.
		{"sum tokens", `{` + start + `,"stream":true,"end_ms":10,"chunks":[{"t_ms":2,"tokens":4,"kind":"content"},{"t_ms":3,"kind":"tool_call"}]}`,
			[]int64{2e6, 3e6}, []int32{4, 1}, 5, schema.TokensCounted, 1e9 + 2e6, 1e9 + 10e6, "", true},
		// output_tokens in the record wins over the chunks.
		{"usage wins", `{` + start + `,"stream":true,"output_tokens":9,"end_ms":10,"chunks":[{"t_ms":2,"tokens":4,"kind":"content"}]}`,
			[]int64{2e6}, []int32{4}, 9, schema.TokensUsage, 1e9 + 2e6, 1e9 + 10e6, "", true},
		// a stream without end_ms was not seen to its end.
		{"no end", `{` + start + `,"stream":true,"status":200,"chunks":[{"t_ms":2,"kind":"content"}]}`,
			[]int64{2e6}, nil, 1, schema.TokensCounted, 1e9 + 2e6, -1, schema.ErrorInterrupted, false},
		// a non-stream without chunks: no token counts, completed without end_ms.
		{"non-stream", `{` + start + `,"stream":false,"status":200}`,
			nil, nil, -1, "", -1, -1, "", true},
		// an unclassified non-2xx status is a failure all the same.
		{"status 0", `{` + start + `,"status":0,"end_ms":1}`,
			nil, nil, -1, "", -1, 1e9 + 1e6, schema.ErrorServer, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &decodetest.Recorder{}
			Format{}.Decode(&decode.Input{R: strings.NewReader(c.line), Name: "x"}, rec)
			if len(rec.Events) != 1 {
				t.Fatalf("got %+v", rec)
			}
			ev := rec.Events[0].Event
			if !slices.Equal(ev.ChunkOffsetsNs, c.offsets) || !slices.Equal(ev.ChunkTokens, c.tokens) {
				t.Errorf("chunks %v %v; want %v %v", ev.ChunkOffsetsNs, ev.ChunkTokens, c.offsets, c.tokens)
			}
			if got := decodetest.Deref(ev.OutputTokens); got != c.out || ev.OutputTokensSource != c.source {
				t.Errorf("output tokens %d %q; want %d %q", got, ev.OutputTokensSource, c.out, c.source)
			}
			if decodetest.Deref(ev.FirstTokenNs) != c.first || decodetest.Deref(ev.EndNs) != c.end {
				t.Errorf("first %d end %d; want %d %d", decodetest.Deref(ev.FirstTokenNs), decodetest.Deref(ev.EndNs), c.first, c.end)
			}
			if ev.Error != c.errClass || ev.Completed == nil || *ev.Completed != c.completed {
				t.Errorf("error %q completed %v; want %q %v", ev.Error, ev.Completed, c.errClass, c.completed)
			}
		})
	}
}

func TestClientSniff(t *testing.T) {
	cases := []struct {
		head string
		want bool
	}{
		{`{"request_id":"a","start":"2026-11-23T10:00:00Z","end_ms":3}` + "\n", true},
		{`{"start": "2026-11-23T10:00:00Z", "chunks": []}`, true},
		{`{"resourceSpans":[{"resource":{}}]}` + "\n", false},
		{`{"experiments":[{"requests":[{"timestamp":1,"response_timestamps":[2]}]}]}`, false},
		{`{"start":"x","end":"y"}` + "\n", false},           // no chunks or end_ms
		{`{"payload":"{\"start\":1,\"end_ms\":2}"}`, false}, // keys inside a string
		{"127.0.0.1 - - [23/Nov/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 1\n", false},
	}
	own, err := os.ReadFile("testdata/chat.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		head string
		want bool
	}{string(own), true})
	for _, c := range cases {
		if got := (Format{}).Sniff([]byte(c.head)); got != c.want {
			t.Errorf("Sniff(%q) = %v; want %v", c.head, got, c.want)
		}
	}
}

func FuzzClientJSONL(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		rec := &decodetest.Recorder{}
		Format{}.Decode(&decode.Input{R: strings.NewReader(string(data)), Name: "fuzz"}, rec)
		lines := strings.Count(string(data), "\n")
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if rec.Total() != lines {
			t.Fatalf("%d lines, %d records reported", lines, rec.Total())
		}
		for _, e := range rec.Events {
			ev := e.Event
			if !slices.IsSorted(ev.ChunkOffsetsNs) || (ev.ChunkTokens != nil && len(ev.ChunkTokens) != len(ev.ChunkOffsetsNs)) {
				t.Fatalf("chunks %v %v", ev.ChunkOffsetsNs, ev.ChunkTokens)
			}
		}
	})
}

// BenchmarkClientJSONL decodes 2000 lines of the testdata's first record.
func BenchmarkClientJSONL(b *testing.B) {
	data, err := os.ReadFile("testdata/chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	in := strings.Repeat(first+"\n", 2000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		sink := &decodetest.CountingSink{}
		Format{}.Decode(&decode.Input{R: strings.NewReader(in)}, sink)
		if sink.Events != 2000 {
			b.Fatal(sink.Events)
		}
	}
}
