package vllmbench

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// The goldens of testdata/vllm-bench were checked by hand:
// result_detailed.json start_times 1234.5, 1234.75, 1235.0, 1235.125 are
// rebased to 0, 250, 500 and 625 ms; request 0: ttft 0.1 s and itls 0.02,
// 0.03 give chunks at 100, 120, 150 ms, latency 0.15 s gives end 150 ms;
// request 3: start 625 ms + ttft 150 ms = first token 775 ms, end 625 + 180
// = 805 ms; request 2 ("Too Many Requests") is 429 rate_limited without
// instants after start. result_legacy.json has no start_times: start 0, end
// = ttft 0.5 + itl 0.25 = 0.75 s.

func FuzzVLLMBench(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		// A JSON object is at least one record: a request, or the document
		// as one skip or reject.
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil || obj == nil {
			return
		}
		rec := &decodetest.Recorder{}
		_ = Format{}.Decode(&decode.Input{R: strings.NewReader(string(data))}, rec)
		if rec.Total() == 0 {
			t.Fatal("no record reported for a JSON object")
		}
	})
}

func TestVLLMBenchChunks(t *testing.T) {
	// ttft 0.3 s, itls 0.1 s and 0.2 s: chunks at 300, 400 and 600 ms
	// (summed in integer ns; 0.3 + 0.1 + 0.2 in floating point is not 0.6).
	// No latencies: end is the last chunk. Third request: ttfts is shorter
	// than errors, so its ttft is missing.
	doc := `{"model_id":"m","backend":"openai","start_times":[10.0, 10.5],"ttfts":[0.3, 0.05],
		"itls":[[0.1, 0.2], []],"output_lens":[3, 1],"input_lens":[7, 8, 9],"errors":["", "", ""],
		"generated_texts":["a","b","c"],"std_itl_ms":NaN}`
	rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, doc)
	if len(rec.Events) != 2 || len(rec.Rejects) != 1 || rec.Rejects[0].Line != 3 || rec.Rejects[0].Reason != "missing ttft" {
		t.Fatalf("events %d rejects %+v", len(rec.Events), rec.Rejects)
	}
	ev := rec.Events[0].Event
	if !slices.Equal(ev.ChunkOffsetsNs, []int64{300_000_000, 400_000_000, 600_000_000}) {
		t.Errorf("chunks %v", ev.ChunkOffsetsNs)
	}
	if *ev.StartNs != 0 || *ev.FirstTokenNs != 300_000_000 || *ev.EndNs != 600_000_000 || *ev.LastTokenNs != 600_000_000 {
		t.Errorf("start %d first %d end %d", *ev.StartNs, *ev.FirstTokenNs, *ev.EndNs)
	}
	if *ev.OutputTokens != 3 || ev.OutputTokensSource != schema.TokensUsage || ev.Clock != schema.ClockRelative {
		t.Errorf("tokens %d %s clock %s", *ev.OutputTokens, ev.OutputTokensSource, ev.Clock)
	}
	// Second request: start 10.5 − 10.0 = 500 ms, one chunk at 50 ms.
	ev = rec.Events[1].Event
	if *ev.StartNs != 500_000_000 || *ev.EndNs != 550_000_000 || len(ev.ChunkOffsetsNs) != 1 {
		t.Errorf("second: start %d end %d chunks %v", *ev.StartNs, *ev.EndNs, ev.ChunkOffsetsNs)
	}
}

func TestVLLMBenchErrorClass(t *testing.T) {
	cases := []struct {
		text, class string
		status      int32 // 0: none
	}{
		{"Too Many Requests", schema.ErrorRateLimited, 429},
		{"Internal Server Error", schema.ErrorServer, 500},
		{"Bad Request", schema.ErrorClient, 400},
		{"Gateway Timeout", schema.ErrorTimeout, 504},
		{"Traceback (most recent call last):\n...\nasyncio.exceptions.TimeoutError\n", schema.ErrorTimeout, 0},
		{"aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected", schema.ErrorInterrupted, 0},
		{"Never received a valid chunk to calculate TTFT.This response will be marked as failed!", schema.ErrorServer, 0},
	}
	for _, c := range cases {
		class, status := vbenchErrorClass(c.text)
		if class != c.class || (status == nil) != (c.status == 0) || status != nil && *status != c.status {
			t.Errorf("vbenchErrorClass(%q) = %q, %v; want %q, %d", c.text, class, status, c.class, c.status)
		}
	}
}

func TestVLLMBenchNonFinite(t *testing.T) {
	in := `{"a": NaN, "b": "NaN \" Infinity", "c": -Infinity, "d": [Infinity, 1]}`
	want := `{"a": null, "b": "NaN \" Infinity", "c": null, "d": [null, 1]}`
	if got := string(vbenchNullNonFinite([]byte(in))); got != want {
		t.Errorf("got %s", got)
	}
}

func TestVLLMBenchNotJSON(t *testing.T) {
	rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, "{not json")
	if len(rec.Rejects) != 1 || rec.Rejects[0].Reason != "invalid json" || rec.Total() != 1 {
		t.Errorf("got %+v", rec)
	}
}
