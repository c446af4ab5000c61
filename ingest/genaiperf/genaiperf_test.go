package genaiperf

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// The golden testdata/genai-perf/profile_export.json.golden was checked by
// hand against the table in testdata/genai-perf/README.md: e.g. request 2
// starts at T0+5 ms; its role chunk and "I" arrive together at T0+80 ms
// (offset 75 ms, 1 token); the " like" event is split between the reads at
// T0+120 and T0+135 ms, so it completes at T0+135 ms together with " dogs"
// (offset 130 ms, 2 tokens); output 1+2 = 3 counted; end T0+140 ms.

// gpRead is one response read: its time in ns and its raw text.
type gpRead struct {
	t    int64
	text string
}

// gpDoc wraps request objects into a one-experiment export.
func gpDoc(requests ...string) string {
	return `{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[` +
		strings.Join(requests, ",") + `]}],"version":"x"}`
}

// gpReq builds a request object sent at t0 with the given reads.
func gpReq(t0 int64, reads ...gpRead) string {
	r := map[string]any{"timestamp": t0, "request_inputs": map[string]string{"payload": `{"model":"m","stream":true}`}}
	ts, outs := []int64{}, []map[string]string{}
	for _, rd := range reads {
		ts = append(ts, rd.t)
		outs = append(outs, map[string]string{"response": rd.text})
	}
	r["response_timestamps"], r["response_outputs"] = ts, outs
	b, _ := json.Marshal(r)
	return string(b)
}

const (
	gpRole    = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n"
	gpTok     = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}` + "\n\n"
	gpTool    = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]},"finish_reason":null}]}` + "\n\n"
	gpStopEv  = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	gpUsage   = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":40}}` + "\n\n"
	gpDoneEv  = "data: [DONE]\n\n"
	gpTextTok = `data: {"id":"cmpl-2","object":"text_completion","model":"m","choices":[{"index":0,"text":"y","finish_reason":null}]}` + "\n\n"
)

func TestGenaiPerfStreams(t *testing.T) {
	const t0 = int64(1_000_000_000)
	cases := []struct {
		name      string
		reads     []gpRead
		offsets   []int64
		tokens    []int32
		out       int64
		source    string
		errClass  string
		completed bool
	}{
		// role and usage-only chunks are not tokens; usage gives 40 tokens.
		{"usage", []gpRead{{t0 + 10, gpRole}, {t0 + 20, gpTok}, {t0 + 30, gpTok}, {t0 + 40, gpStopEv + gpUsage + gpDoneEv}},
			[]int64{20, 30}, []int32{1, 1}, 40, schema.TokensUsage, "", true},
		// an event cut after 7 bytes and again mid-way, with CRLF line ends:
		// it is complete only at the third read (offset 300).
		{"split in three", []gpRead{{t0 + 100, gpTok[:7]}, {t0 + 200, gpTok[7:50]}, {t0 + 300, strings.ReplaceAll(gpTok[50:], "\n", "\r\n") + gpDoneEv}},
			[]int64{300}, []int32{1}, 1, schema.TokensCounted, "", true},
		// three token events in one read are one chunk of 3; "data:" without a space.
		{"three in one", []gpRead{{t0 + 5, gpRole + gpTok + strings.Replace(gpTool, "data: ", "data:", 1) + gpTextTok}, {t0 + 9, gpDoneEv}},
			[]int64{5}, []int32{3}, 3, schema.TokensCounted, "", true},
		// a finish_reason ends the stream even without [DONE].
		{"finish without done", []gpRead{{t0 + 10, gpTok}, {t0 + 20, gpStopEv}},
			[]int64{10}, []int32{1}, 1, schema.TokensCounted, "", true},
		// a last event without its "\n" is counted at the last read; no end seen.
		{"unterminated last event", []gpRead{{t0 + 10, gpTok}, {t0 + 20, strings.TrimSpace(gpTok)}},
			[]int64{10, 20}, []int32{1, 1}, 2, schema.TokensCounted, schema.ErrorInterrupted, false},
		// OpenAI error object with a string code: classified by its type.
		{"rate limited", []gpRead{{t0 + 10, `{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}`}},
			nil, nil, -1, "", schema.ErrorRateLimited, false},
		// an HTML page from a proxy is a server error.
		{"html body", []gpRead{{t0 + 10, "<html>502 Bad Gateway</html>"}},
			nil, nil, -1, "", schema.ErrorServer, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &decodetest.Recorder{}
			err := Format{}.Decode(&decode.Input{R: strings.NewReader(gpDoc(gpReq(t0, c.reads...))), Name: "x"}, rec)
			if err != nil || len(rec.Events) != 1 {
				t.Fatalf("err %v, got %+v", err, rec)
			}
			ev := rec.Events[0].Event
			if !slices.Equal(ev.ChunkOffsetsNs, c.offsets) || !slices.Equal(ev.ChunkTokens, c.tokens) {
				t.Errorf("chunks %v %v; want %v %v", ev.ChunkOffsetsNs, ev.ChunkTokens, c.offsets, c.tokens)
			}
			if got := decodetest.Deref(ev.OutputTokens); got != c.out || ev.OutputTokensSource != c.source {
				t.Errorf("output %d %q; want %d %q", got, ev.OutputTokensSource, c.out, c.source)
			}
			if ev.Error != c.errClass || *ev.Completed != c.completed {
				t.Errorf("error %q completed %v; want %q %v", ev.Error, *ev.Completed, c.errClass, c.completed)
			}
			if n := len(c.reads); decodetest.Deref(ev.EndNs) != c.reads[n-1].t {
				t.Errorf("end %d; want %d", decodetest.Deref(ev.EndNs), c.reads[n-1].t)
			}
		})
	}
}

func TestGenaiPerfRejects(t *testing.T) {
	bad := gpReq(1e9, gpRead{1e9 + 10, `data: {"choices":[{"delta":{"content":"x"}}` + "\n\n"}, gpRead{1e9 + 20, gpDoneEv})
	noTS := `{"request_inputs":{},"response_timestamps":[],"response_outputs":[]}`
	extra := `{"timestamp":5,"response_timestamps":[6],"response_outputs":[{"response":"a"},{"response":"b"}]}`
	rec := &decodetest.Recorder{}
	err := Format{}.Decode(&decode.Input{R: strings.NewReader(gpDoc(bad, noTS, extra, `7`)), Name: "x"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rec.Rejects {
		got = append(got, r.Reason)
	}
	want := []string{"bad sse event", "missing timestamp", "bad response_timestamps", "bad request"}
	if !slices.Equal(got, want) || rec.Total() != 4 {
		t.Errorf("rejects %q; want %q", got, want)
	}
}

// TestGenaiPerfTruncated cuts the testdata export: what was read before the
// cut is kept and the cut is one reject; a cut before any request is an error.
func TestGenaiPerfTruncated(t *testing.T) {
	full, err := os.ReadFile("testdata/profile_export.json")
	if err != nil {
		t.Fatal(err)
	}
	// The second request object starts at the second `{"timestamp"`.
	i := strings.Index(string(full), `{"timestamp"`)
	j := i + 1 + strings.Index(string(full[i+1:]), `{"timestamp"`)
	for _, cut := range []int{j - 1, j + 40} { // just before and inside request 2
		rec := &decodetest.Recorder{}
		err := Format{}.Decode(&decode.Input{R: strings.NewReader(string(full[:cut])), Name: "x"}, rec)
		if err != nil || len(rec.Events) != 1 || len(rec.Rejects) != 1 || rec.Rejects[0].Line != 2 {
			t.Errorf("cut at %d: err %v, %d events, rejects %+v", cut, err, len(rec.Events), rec.Rejects)
		}
	}
	// Damage after the experiments array loses no request: no reject.
	rec := &decodetest.Recorder{}
	end := strings.LastIndex(string(full), `,"version"`)
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(string(full[:end+5])), Name: "x"}, rec); err != nil ||
		len(rec.Events) != 7 || len(rec.Rejects) != 1 {
		t.Errorf("cut after experiments: err %v, %d events, %d rejects; want 7 and the 1 of request 8", err, len(rec.Events), len(rec.Rejects))
	}
	for _, in := range []string{string(full[:40]), "not json", `[1,2]`, `{"experiments":{}}`} {
		rec := &decodetest.Recorder{}
		if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(in), Name: "x"}, rec); err == nil || rec.Total() != 0 {
			t.Errorf("%q: err %v, %d records; want an error and none", in, err, rec.Total())
		}
	}
}

func TestGenaiPerfSniff(t *testing.T) {
	export, _ := os.ReadFile("testdata/profile_export.json")
	client, _ := os.ReadFile("../client/testdata/chat.jsonl")
	pretty := "{\n  \"experiments\": [\n    {\n      \"experiment\": {\"mode\": \"concurrency\", \"value\": 1},\n      \"requests\": [\n        {\n          \"timestamp\": 1,\n          \"request_inputs\": {\n"
	// keys sorted (jq -S, sort_keys=True): the first request's timestamp
	// comes after 100 KB of outputs, beyond the head.
	sorted := []byte(`{"endpoint":"v1/chat/completions","experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[` +
		`{"request_inputs":{"payload":"{}"},"response_outputs":[{"response":"` + strings.Repeat("data: [DONE]\\n\\n", 8000) + `"}]`)[:64<<10]
	cases := []struct {
		name string
		head []byte
		want bool
	}{
		{"export", export, true},
		{"pretty", []byte(pretty), true},
		{"keys sorted", sorted, true},
		{"client jsonl", client, false},
		{"otlp", []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"requests","startTimeUnixNano":"1"}]}]}]}`), false},
		{"aiperf jsonl", []byte(`{"metadata":{"x_request_id":"a","request_start_ns":1},"metrics":{"request_latency":{"value":1}}}`), false},
	}
	for _, c := range cases {
		if got := (Format{}).Sniff(c.head); got != c.want {
			t.Errorf("%s: Sniff = %v; want %v", c.name, got, c.want)
		}
	}
}

func FuzzGenaiPerf(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Add([]byte(gpDoc(gpReq(1e9, gpRead{1e9 + 1, gpRole + gpTok[:20]}, gpRead{1e9 + 2, gpTok[20:] + gpDoneEv}))))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		rec := &decodetest.Recorder{}
		_ = Format{}.Decode(&decode.Input{R: strings.NewReader(string(data)), Name: "fuzz"}, rec)
		var lines []int64
		for _, e := range rec.Events {
			lines = append(lines, e.Line)
			ev := e.Event
			if !slices.IsSorted(ev.ChunkOffsetsNs) || len(ev.ChunkTokens) != len(ev.ChunkOffsetsNs) ||
				(len(ev.ChunkOffsetsNs) > 0 && ev.ChunkOffsetsNs[0] < 0) {
				t.Fatalf("chunks %v %v", ev.ChunkOffsetsNs, ev.ChunkTokens)
			}
		}
		for _, r := range rec.Rejects {
			lines = append(lines, r.Line)
		}
		slices.Sort(lines)
		for i, l := range lines { // every request index reported exactly once
			if l != int64(i+1) {
				t.Fatalf("record indices %v", lines)
			}
		}
	})
}

// TestGenaiPerfHeaderAndTriton checks a top-level endpoint written before
// the experiments and Triton text outputs (one token per non-empty output).
func TestGenaiPerfHeaderAndTriton(t *testing.T) {
	doc := `{"service_kind":"triton","endpoint":"v2/models/llama/generate_stream","experiments":[{"experiment":{"mode":"concurrency","value":4},` +
		`"requests":[{"timestamp":100,"sequence_id":3,"request_inputs":{"text_input":"hi","max_tokens":8,"stream":true},` +
		`"response_timestamps":[150,170,190],"response_outputs":[{"text_output":"I"},{"text_output":""},{"text_output":" am"}]}]}],"version":"x"}`
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(doc), Name: "x"}, rec); err != nil || len(rec.Events) != 1 {
		t.Fatalf("err %v, %+v", err, rec)
	}
	ev := rec.Events[0].Event
	// offsets 150−100 = 50 and 190−100 = 90; the empty output is no token.
	if ev.Endpoint != "/v2/models/llama/generate_stream" || !slices.Equal(ev.ChunkOffsetsNs, []int64{50, 90}) ||
		decodetest.Deref(ev.OutputTokens) != 2 || *ev.EndNs != 190 || !*ev.Completed || ev.Attrs["experiment"] != "concurrency=4" {
		t.Errorf("got %+v", ev)
	}
}

// BenchmarkGenaiPerf decodes an export of 500 requests of 64 streamed chunks.
func BenchmarkGenaiPerf(b *testing.B) {
	reads := []gpRead{{1e9 + 1, gpRole}}
	for i := range 64 {
		reads = append(reads, gpRead{int64(1e9 + 10 + i), gpTok})
	}
	reads = append(reads, gpRead{1e9 + 100, gpStopEv + gpUsage + gpDoneEv})
	reqs := make([]string, 500)
	for i := range reqs {
		reqs[i] = gpReq(1e9, reads...)
	}
	doc := gpDoc(reqs...)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		sink := &decodetest.CountingSink{}
		if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(doc)}, sink); err != nil || sink.Events != 500 {
			b.Fatal(err, sink.Events)
		}
	}
}

// TestGenaiPerfRealStream replays a real OpenAI stream (testdata/sse) cut
// into reads of 37 bytes, read 1 µs apart, as perf_analyzer would see it
// arrive. `grep -c '"delta":{"content":"[^"]'` counts 48 content events.
func TestGenaiPerfRealStream(t *testing.T) {
	body, err := os.ReadFile("testdata/sse/openai_chat_streaming.sse")
	if err != nil {
		t.Fatal(err)
	}
	const t0, step, size = int64(1e9), int64(1000), 37
	var reads []gpRead
	for i := 0; i*size < len(body); i++ {
		reads = append(reads, gpRead{t0 + int64(i+1)*step, string(body[i*size : min((i+1)*size, len(body))])})
	}
	// The first token event ("Hi") is complete when its line's "\n" arrives.
	hi := strings.Index(string(body), `"delta":{"content":"Hi"}`)
	nl := hi + strings.IndexByte(string(body[hi:]), '\n')
	wantFirst := int64(nl/size+1) * step
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(gpDoc(gpReq(t0, reads...))), Name: "x"}, rec); err != nil || len(rec.Events) != 1 {
		t.Fatalf("err %v, %+v", err, rec)
	}
	ev := rec.Events[0].Event
	var sum int32
	for _, k := range ev.ChunkTokens {
		sum += k
	}
	if sum != 48 || decodetest.Deref(ev.OutputTokens) != 48 || ev.ChunkOffsetsNs[0] != wantFirst || !*ev.Completed ||
		ev.ResponseID != "chatcmpl-C4HqHBe4xca0k0EzsCnf1t6V3YFXp" || ev.Model != "gpt-5-nano-2025-08-07" {
		t.Errorf("tokens %d/%d, first offset %d (want %d), completed %v, id %q, model %q",
			sum, decodetest.Deref(ev.OutputTokens), ev.ChunkOffsetsNs[0], wantFirst, *ev.Completed, ev.ResponseID, ev.Model)
	}
}
