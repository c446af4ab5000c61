package analyze

import (
	"math"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestCompatMetrics checks each peer's formula on one request whose
// figures are worked out by hand from the peers' code.
func TestCompatMetrics(t *testing.T) {
	// Chunks at 100, 150, 250, 270 ms (5 tokens: 1, 1, 2, 1), last token
	// logged at 260 ms (before the last chunk's arrival, as a server-side
	// figure would be), end at 300 ms (the [DONE] event).
	e := wallEvent(schema.SourceClient, 0)
	e.LastTokenNs, e.EndNs = at(260), at(300)
	e.ChunkOffsetsNs, e.ChunkTokens = offsets(100, 150, 250, 270), []int32{1, 1, 2, 1}
	run := func(compat string) *Analysis { return Run([]schema.Event{e}, nil, Options{Compat: compat}) }

	v := run("vllm")
	// vllm.itl = chunk gaps 50, 100, 20: mean 170/3, p50 50, p90 h=1.8 → 50 + 0.8·50 = 90.
	checkStats(t, metricOf(t, v, "client", "vllm.itl", nil), 3, 170.0/3, 20, 50, 90, 100)
	// vllm.tpot ends at the recorded last token: (260 − 100)/4 = 40.
	checkStats(t, metricOf(t, v, "client", "vllm.tpot", nil), 1, 40, 40, 40, 40, 40)
	// genai-perf ends at the last content response (270), not at [DONE]:
	// request_latency 270, inter_token_latency (270 − 100)/4 = 42.5.
	g := run("genai-perf")
	checkStats(t, metricOf(t, g, "client", "genai-perf.request_latency", nil), 1, 270, 270, 270, 270, 270)
	checkStats(t, metricOf(t, g, "client", "genai-perf.inter_token_latency", nil), 1, 42.5, 42.5, 42.5, 42.5, 42.5)
	// guidellm: itl = our tpot 40, weight T − 1 = 4 (count: the weights);
	// tpot = (260 − 0)/5 = 52, weight 5.
	gl := run("guidellm")
	checkStats(t, metricOf(t, gl, "client", "guidellm.itl", nil), 4, 40, 40, 40, 40, 40)
	checkStats(t, metricOf(t, gl, "client", "guidellm.tpot", nil), 5, 52, 52, 52, 52, 52)
	// llmperf: (last content chunk − start)/T = 270/5 = 54.
	checkStats(t, metricOf(t, run("llmperf"), "client", "llmperf.inter_token_latency", nil), 1, 54, 54, 54, 54, 54)
	if hasMetric(v, "client", "guidellm.itl") || hasMetric(run(""), "client", "vllm.itl") {
		t.Error("compat metrics leak into other runs")
	}
	if u := run("tgi-bench"); len(u.Notes) != 1 || hasMetric(u, "client", "llmperf.inter_token_latency") {
		t.Errorf("unknown compat: notes %q", u.Notes)
	}
}

// TestVLLMTPOTUsesRecordedLatency: vllm bench's chat client stops its clock
// at the usage chunk (150 ms), after the last content chunk (140 ms); the
// file's latency is the event's last token and end, and TPOT = (150 −
// 100)/(3 − 1) = 25, not (140 − 100)/2 = 20.
func TestVLLMTPOTUsesRecordedLatency(t *testing.T) {
	e := wallEvent(schema.SourceClient, 0)
	e.FirstTokenNs, e.LastTokenNs, e.EndNs = at(100), at(150), at(150)
	e.ChunkOffsetsNs, e.OutputTokens = offsets(100, 120, 140), ptr(int64(3))
	a := Run([]schema.Event{e}, nil, Options{Compat: "vllm"})
	checkStats(t, metricOf(t, a, "client", "vllm.tpot", nil), 1, 25, 25, 25, 25, 25)
	// Without a last token (nor chunks) latency is the end: (150 − 100)/2.
	e.LastTokenNs, e.ChunkOffsetsNs = nil, nil
	a = Run([]schema.Event{e}, nil, Options{Compat: "vllm"})
	checkStats(t, metricOf(t, a, "client", "vllm.tpot", nil), 1, 25, 25, 25, 25, 25)
}

// TestGenaiPerfITLRounds: GenAI-Perf rounds the quotient to whole ns,
// halves to even (Python's round): 3.5 → 4, 2.5 → 2; AIPerf keeps it.
func TestGenaiPerfITLRounds(t *testing.T) {
	for _, c := range []struct {
		first, last, tokens int64
		want, aiperf        float64 // ns
	}{{4, 11, 3, 4, 3.5}, {2, 7, 3, 2, 2.5}, {5, 13, 6, 2, 1.6}, {2, 13, 4, 4, 11.0 / 3}} {
		r := request{start: instant{0, true}, first: instant{c.first, true}, lastChunk: instant{c.last, true}, tokens: c.tokens}
		got, ok := genaiPerfITL(&r)
		if !ok || got != c.want/1e6 {
			t.Errorf("%+v: %g ms, want %g ns", c, got, c.want)
		}
		// AIPerf does not round.
		if got, ok := aiperfITL(&r); !ok || !near(got*1e6, c.aiperf) {
			t.Errorf("%+v: aiperf %g ms, want %g ns", c, got, c.aiperf)
		}
	}
}

// TestGuidellmPercentiles checks guidellm's summary of a weighted
// distribution against sums worked out by hand (and Python floats for the
// running sum of probabilities, as np.cumsum adds them).
func TestGuidellmPercentiles(t *testing.T) {
	// Ten requests of 2 tokens (weight 1) with ITL 1…10 ms: probabilities
	// 0.1, whose running sum reaches 0.5 at the 5th and stays below 0.9
	// (0.8999999999999999) at the 9th, so p50 = 5 and p90 = 10 where type 7
	// gives 5.5 and 9.1.
	var evs []schema.Event
	for i := range 10 {
		e := wallEvent(schema.SourceClient, 0)
		e.FirstTokenNs, e.LastTokenNs, e.OutputTokens = at(100), at(100+float64(i+1)), ptr(int64(2))
		evs = append(evs, e)
	}
	m := metricOf(t, Run(evs, nil, Options{Compat: "guidellm"}), "client", "guidellm.itl", nil)
	checkStats(t, m, 10, 5.5, 1, 5, 10, 10)
	if m.P95 != 10 || m.P99 != 10 || m.P999 != 10 || m.CI95["p50"][0] != nil {
		t.Errorf("p95 %g p99 %g p999 %g ci %v", m.P95, m.P99, m.P999, m.CI95["p50"])
	}
	// ITL 10 ms (T 2, weight 1), 20 (T 3, weight 2), 30 (T 8, weight 7):
	// count Σw = 10, mean 1 + 4 + 21 = 26, variance 25.6 + 7.2 + 11.2 = 44,
	// p50 = 30.
	evs = evs[:0]
	for _, c := range []struct{ v, t float64 }{{10, 2}, {20, 3}, {30, 8}} {
		e := wallEvent(schema.SourceClient, 0)
		e.FirstTokenNs, e.LastTokenNs, e.OutputTokens = at(100), at(100+c.v*(c.t-1)), ptr(int64(c.t))
		evs = append(evs, e)
	}
	m = metricOf(t, Run(evs, nil, Options{Compat: "guidellm"}), "client", "guidellm.itl", nil)
	checkStats(t, m, 10, 26, 10, 30, 30, 30)
	if !near(m.Std, math.Sqrt(44)) {
		t.Errorf("std %g, want √44", m.Std)
	}
}

// TestGuidellmTPOTFallsBackToEnd: without a last token guidellm's TPOT ends
// at the request's end: (300 − 0)/3 = 100, weight 3.
func TestGuidellmTPOTFallsBackToEnd(t *testing.T) {
	e := wallEvent(schema.SourceClient, 0)
	e.EndNs, e.OutputTokens = at(300), ptr(int64(3))
	m := metricOf(t, Run([]schema.Event{e}, nil, Options{Compat: "guidellm"}), "client", "guidellm.tpot", nil)
	checkStats(t, m, 3, 100, 100, 100, 100, 100)
}

// TestGuidellmMergesEqualValues: guidellm merges equal values, summing
// their weights, before the running sum. ITL 1 ms (weight 1), 4 ms twice
// (weights 1 and 7), 7 ms (weight 1): merged, the CDF is 0.1, 0.9, 1.0 and
// p90 = 4; summed request by request it would be 0.1, 0.2,
// 0.8999999999999999 and give 7 (Python floats). Count Σw = 10, mean (1 +
// 4·8 + 7)/10 = 4.
func TestGuidellmMergesEqualValues(t *testing.T) {
	var evs []schema.Event
	for _, c := range []struct{ v, t float64 }{{1, 2}, {4, 2}, {4, 8}, {7, 2}} {
		e := wallEvent(schema.SourceClient, 0)
		e.FirstTokenNs, e.LastTokenNs, e.OutputTokens = at(100), at(100+c.v*(c.t-1)), ptr(int64(c.t))
		evs = append(evs, e)
	}
	m := metricOf(t, Run(evs, nil, Options{Compat: "guidellm"}), "client", "guidellm.itl", nil)
	checkStats(t, m, 10, 4, 1, 4, 4, 7)
}
