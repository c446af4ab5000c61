package analyze

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

func TestHistogram(t *testing.T) {
	tests := []struct {
		name   string
		sorted []float64
		bins   int
		edges  []float64
		counts []int64
	}{
		// Log-spaced: edges 1, √8 = 2.828…, 8; 1 and 2 below √8, 4 and 8
		// above (the last bin is closed).
		{"log", []float64{1, 2, 4, 8}, 2, []float64{1, math.Sqrt(8), 8}, []int64{2, 2}},
		// A zero minimum forces linear edges 0, 5, 10; 5 opens the second bin.
		{"linear", []float64{0, 5, 10}, 2, []float64{0, 5, 10}, []int64{1, 2}},
		{"equal", []float64{3, 3, 3}, 40, []float64{3, 3}, []int64{3}},
	}
	for _, tt := range tests {
		edges, counts := histogram(tt.sorted, tt.bins)
		if len(edges) != len(tt.edges) || fmt.Sprint(counts) != fmt.Sprint(tt.counts) {
			t.Errorf("%s: edges %v counts %v; want %v %v", tt.name, edges, counts, tt.edges, tt.counts)
			continue
		}
		for i := range edges {
			if !near(edges[i], tt.edges[i]) {
				t.Errorf("%s: edge %d = %g, want %g", tt.name, i, edges[i], tt.edges[i])
			}
		}
	}
}

func TestCDF(t *testing.T) {
	// n = 4 ≤ 5 points: every sample, fractions 1/4…4/4.
	if got := fmt.Sprint(cdf([]float64{1, 2, 3, 4}, 5)); got != "[[1 0.25] [2 0.5] [3 0.75] [4 1]]" {
		t.Errorf("small cdf %s", got)
	}
	// n = 5, 2 points: ranks ⌈5/2⌉ = 3 and ⌈10/2⌉ = 5.
	if got := fmt.Sprint(cdf([]float64{1, 2, 3, 4, 5}, 2)); got != "[[3 0.6] [5 1]]" {
		t.Errorf("thinned cdf %s", got)
	}
}

func TestITLByPosition(t *testing.T) {
	// clientEvents: A chunks of 1, 1, 2, 1 tokens with gaps 50, 100, 20 ms:
	// token 2 after 50, tokens 3 and 4 after 100/2 = 50 each, token 5 after
	// 20. B (tokens unknown, one per chunk) gaps 30, 60: token 2 after 30,
	// token 3 after 60. Position 2: {30, 50}; 3: {50, 60}; 4: {50}; 5: {20}.
	// DDSketch returns the sample at rank ⌊q·(n−1)⌋ (within 1%): for two
	// samples both p50 and p90 are the lower one.
	a := Run(clientEvents(), nil, Options{})
	if len(a.ITLByPosition) != 1 {
		t.Fatalf("ITLByPosition = %+v", a.ITLByPosition)
	}
	want := []PositionPoint{{2, 2, 30, 30}, {3, 2, 50, 50}, {4, 1, 50, 50}, {5, 1, 20, 20}}
	got := a.ITLByPosition[0].Points
	if len(got) != len(want) {
		t.Fatalf("points %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.Position != w.Position || g.Count != w.Count ||
			math.Abs(g.P50-w.P50) > 0.01*w.P50 || math.Abs(g.P90-w.P90) > 0.01*w.P90 {
			t.Errorf("position %d: %+v, want %+v (±1%%)", w.Position, g, w)
		}
	}
}

func TestTTFTByPrompt(t *testing.T) {
	// 5000 requests, prompt i, ttft 2i ms, given in reverse: sorted, then
	// the points at ranks ⌊j·5000/2000⌋ = ⌊2.5 j⌋ are kept: 0, 2, 5, 7, 10…
	var evs []schema.Event
	for i := 4999; i >= 0; i-- {
		e := wallEvent("client", 0)
		e.PromptTokens, e.FirstTokenNs = ptr(int64(i)), at(float64(2*i))
		evs = append(evs, e)
	}
	c, _ := eventsOf(t, evs...)
	sc, ok := ttftByPrompt(c, "client", allRows(c.Rows))
	if !ok || len(sc.Points) != 2000 {
		t.Fatalf("%d points", len(sc.Points))
	}
	if got := fmt.Sprint(sc.Points[:4]); got != "[[0 0] [2 4] [5 10] [7 14]]" {
		t.Errorf("first points %s", got)
	}
	// j = 1999: ⌊1999·2.5⌋ = 4997.
	if got := sc.Points[1999]; got != [2]float64{4997, 9994} {
		t.Errorf("last point %v", got)
	}
}

func TestRunDocument(t *testing.T) {
	inputs := []schema.InputStats{
		{Path: "a.log", RejectsByReason: map[string]int64{"invalid json": 2, "bad timestamp": 1}},
		{Path: "b.log", RejectsByReason: map[string]int64{"invalid json": 3}},
	}
	evs := append(clientEvents(), groupEvents()...)
	first := Run(evs, inputs, Options{By: [][]string{{"model"}}})
	if first.RejectsByReason["invalid json"] != 5 || first.RejectsByReason["bad timestamp"] != 1 {
		t.Errorf("rejects_by_reason %v", first.RejectsByReason)
	}
	b1, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	// Reversing the events changes no figure (CDF, scatter and groups are
	// sorted), so the document is byte-identical.
	rev := make([]schema.Event, len(evs))
	for i := range evs {
		rev[len(evs)-1-i] = evs[i]
	}
	b2, _ := json.Marshal(Run(rev, inputs, Options{By: [][]string{{"model"}}}))
	if string(b1) != string(b2) {
		t.Error("analysis depends on event order")
	}
	for _, key := range []string{`"matching":[]`, `"clock_offsets":[]`, `"ttft_breakdown":[]`, `"examples":[]`,
		`"ttft_client_minus_server":null`, `"schema_version":1`} {
		if !strings.Contains(string(b1), key) {
			t.Errorf("document lacks %s", key)
		}
	}
	empty, _ := json.Marshal(Run(nil, nil, Options{}))
	for _, key := range []string{`"metrics":[]`, `"errors":[]`, `"timeseries":[]`, `"notes":[]`, `"rejects_by_reason":{}`, `"inputs":[]`} {
		if !strings.Contains(string(empty), key) {
			t.Errorf("empty document lacks %s: %s", key, empty)
		}
	}
}

// TestRunArbitraryEvents runs Run over events with random missing,
// negative and out-of-order fields: it must not panic, and the document
// must marshal (no NaN or infinity).
func TestRunArbitraryEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	maybe := func(v int64) *int64 {
		if rng.IntN(3) == 0 {
			return nil
		}
		return ptr(v)
	}
	evs := make([]schema.Event, 3000)
	for i := range evs {
		base := t0 + rng.Int64N(1e12) - 5e11
		e := schema.Event{
			Source:  []string{"client", "proxy", "server", "edge"}[rng.IntN(4)],
			Clock:   []string{schema.ClockWall, schema.ClockSteady, schema.ClockRelative}[rng.IntN(3)],
			StartNs: maybe(base), FirstTokenNs: maybe(base + rng.Int64N(2e9) - 1e8),
			LastTokenNs: maybe(base + rng.Int64N(9e9)), EndNs: maybe(base + rng.Int64N(1e10) - 1e9),
			OutputTokens: maybe(rng.Int64N(5) - 1), PromptTokens: maybe(rng.Int64N(100)),
			QueueNs: maybe(rng.Int64N(1e8)),
		}
		if rng.IntN(2) == 0 {
			e.Status = ptr(int32(100 + rng.IntN(500)))
		}
		for range rng.IntN(6) {
			e.ChunkOffsetsNs = append(e.ChunkOffsetsNs, rng.Int64N(3e9)-1e8)
			if rng.IntN(2) == 0 {
				e.ChunkTokens = append(e.ChunkTokens, int32(rng.IntN(4)-1))
			}
		}
		evs[i] = e
	}
	a := Run(evs, nil, Options{By: [][]string{{"status"}, {"host", "region"}}, SLO: map[string]float64{"itl": 30, "tps_user": 5, "nope": 1}, Compat: "vllm"})
	if _, err := json.Marshal(a); err != nil {
		t.Fatal(err)
	}
	if len(a.Metrics) == 0 || len(a.Timeseries) == 0 {
		t.Errorf("%d metrics, %d series", len(a.Metrics), len(a.Timeseries))
	}
}
