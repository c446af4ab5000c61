package analyze

import (
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/analyze/reconcile"
	"github.com/ttftrace/ttftrace/schema"
)

// TestThroughput checks the whole-span figures of three client requests:
// starts at 0, 1 s and 3 s, the last ending at 4 s, so the span is 4 s.
func TestThroughput(t *testing.T) {
	evs := []schema.Event{wallEvent("client", 0), wallEvent("client", 1000), wallEvent("client", 3000)}
	tokens := []int64{10, 20, 30}
	ttft := []float64{100, 900, 200}
	for i := range evs {
		evs[i].OutputTokens = &tokens[i]
		evs[i].FirstTokenNs = at([]float64{0, 1000, 3000}[i] + ttft[i])
	}
	evs[2].EndNs = at(4000)
	evs[1].Error = schema.ErrorServer
	a := Run(evs, nil, Options{SLO: map[string]float64{"ttft": 500}})
	if len(a.Throughput) != 1 {
		t.Fatalf("%d throughputs, want 1", len(a.Throughput))
	}
	got := a.Throughput[0]
	// 3 requests / 4 s; 60 tokens / 4 s; Σ tokens² = 100+400+900; good: the
	// two successful requests have ttft 100 and 200 ≤ 500.
	if got.Seconds != 4 || got.Requests != 3 || got.Succeeded != 2 || got.RequestRate != 0.75 ||
		got.OutputTPS != 15 || got.OutputTokensSq != 1400 || *got.Good != 2 || *got.Goodput != 0.5 ||
		!near(*got.GoodShare, 2.0/3) || got.First != "2026-11-23T10:00:00Z" || got.Last != "2026-11-23T10:00:04Z" {
		t.Errorf("throughput %+v", got)
	}
	if a := Run(evs, nil, Options{}); a.Throughput[0].Good != nil || a.Throughput[0].Goodput != nil {
		t.Errorf("without SLOs goodput is %v, want null", a.Throughput[0].Goodput)
	}
}

// TestSlowestRequests lists successful client requests by client TTFT,
// slowest first, with their ids, whether or not they were joined.
func TestSlowestRequests(t *testing.T) {
	var evs []schema.Event
	for i, ms := range []float64{300, 50, 700, 700, 120} {
		e := wallEvent("client", float64(i)*1000)
		e.FirstTokenNs = at(float64(i)*1000 + ms)
		e.RequestID = []string{"a", "b", "c", "d", "e"}[i]
		evs = append(evs, e)
	}
	evs[4].Error = schema.ErrorTimeout // failed: left out whatever its TTFT
	evs = append(evs, wallEvent("server", 0))
	c, _ := eventsOf(t, evs...)
	got := slowestRequests(c, allRows(c.Rows), nil, 3)
	// c and d tie at 700 ms: the earlier event first; then a (300 ms).
	want := []struct {
		key string
		ms  float64
	}{{"c", 700}, {"d", 700}, {"a", 300}}
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Key != w.key || got[i].RequestID != w.key || !near(got[i].ClientTTFTMs, w.ms) || got[i].Reference != "" || got[i].ServerTTFTMs != nil {
			t.Errorf("slowest %d = %+v, want %s %v ms, not joined", i, got[i], w.key, w.ms)
		}
	}
	// A joined request carries its breakdown, in ms.
	reqs := []reconcile.ReconciledRequest{{Reference: "edge", ClientEvent: ptr(int64(2)), ServerTTFTNs: ptr(int64(500e6)), ReturnPathNs: ptr(int64(150e6))}}
	got = slowestRequests(c, allRows(c.Rows), reqs, 1)
	if got[0].Reference != "edge" || *got[0].ServerTTFTMs != 500 || *got[0].ReturnPathMs != 150 || got[0].ClientToProxyMs != nil {
		t.Errorf("joined slowest %+v", got[0])
	}
	if rc := (referenceCounts{"edge": 1, "b": 2, "a": 1}).list(); len(rc) != 3 || rc[0] != (ReferenceClock{"b", 2}) || rc[1] != (ReferenceClock{"a", 1}) || rc[2] != (ReferenceClock{"edge", 1}) {
		t.Errorf("reference clocks %+v", rc)
	}
}

// TestThroughputMatchesSeries checks the whole-span counts against the
// time series, an independent route over the same events: requests are the
// sum of the request_rate windows' counts, good requests the sum of the
// goodput windows' counts.
func TestThroughputMatchesSeries(t *testing.T) {
	a := Run(seriesEvents(), nil, Options{Window: 10 * time.Second, SLO: map[string]float64{"ttft": 1500}})
	for _, th := range a.Throughput {
		sums := map[string]int64{}
		for _, s := range a.Timeseries {
			if s.Source == th.Source {
				for _, p := range s.Points {
					sums[s.Metric] += p.Count
				}
			}
		}
		if th.Requests != sums["request_rate"] || th.Good == nil || *th.Good != sums["goodput"] {
			t.Errorf("%s: requests %d good %v; series %d and %d", th.Source, th.Requests, th.Good, sums["request_rate"], sums["goodput"])
		}
	}
	if len(a.Throughput) == 0 {
		t.Fatal("no throughput")
	}
}
