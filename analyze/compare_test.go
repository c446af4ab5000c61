package analyze

import (
	"math"
	"testing"
)

func fptr(v float64) *float64 { return &v }

// pctMetric is a metric whose p50, p90 and p99 all equal v with the interval
// [lo, hi] (nil: unbounded), so one call describes one comparison.
func pctMetric(source, metric, unit string, v float64, lo, hi *float64) Metric {
	iv := Interval{lo, hi}
	return Metric{Source: source, Metric: metric, Unit: unit, Group: map[string]string{}, Count: 1000,
		Mean: v, P50: v, P90: v, P99: v, Max: v, CI95: map[string]Interval{"p50": iv, "p90": iv, "p99": iv}}
}

func findChange(t *testing.T, c *Comparison, source, metric, stat string) Change {
	t.Helper()
	for _, ch := range c.Changes {
		if ch.Source == source && ch.Metric == metric && ch.Stat == stat && len(ch.Group) == 0 {
			return ch
		}
	}
	t.Fatalf("no change %s %s %s in %d changes", source, metric, stat, len(c.Changes))
	return Change{}
}

func TestCompareLatencyVerdicts(t *testing.T) {
	base := &Analysis{Metrics: []Metric{
		pctMetric("server", "ttft", "ms", 1000, fptr(980), fptr(1020)),
		pctMetric("client", "ttft", "ms", 400, fptr(399), fptr(401)),
		pctMetric("client", "e2e", "ms", 5000, fptr(4000), fptr(6000)),
		pctMetric("client", "tpot", "ms", 20, nil, fptr(21)),
		pctMetric("client", "tps_user", "tokens/s", 50, fptr(49), fptr(51)),
	}}
	next := &Analysis{Metrics: []Metric{
		pctMetric("server", "ttft", "ms", 1148, fptr(1120), fptr(1170)),     // disjoint, +14.8%: regression
		pctMetric("client", "ttft", "ms", 401.2, fptr(401.1), fptr(401.5)),  // disjoint, +0.3%: below threshold
		pctMetric("client", "e2e", "ms", 5500, fptr(4500), fptr(6500)),      // overlap, +10%: within noise
		pctMetric("client", "tpot", "ms", 30, fptr(25), nil),                // (−∞,21] vs [25,∞): disjoint, +50%
		pctMetric("client", "tps_user", "tokens/s", 40, fptr(39), fptr(41)), // rate down 20%: regression
	}}
	c := Compare(base, next, CompareOptions{MinChange: DefaultMinChange})
	for _, w := range []struct {
		source, metric, verdict string
		delta, rel              float64
	}{
		{"server", "ttft", VerdictRegression, 148, 0.148},
		{"client", "ttft", VerdictSmall, 1.2, 1.2 / 400},
		{"client", "e2e", VerdictNoise, 500, 0.1},
		{"client", "tpot", VerdictRegression, 10, 0.5},
		{"client", "tps_user", VerdictRegression, -10, -0.2},
	} {
		ch := findChange(t, c, w.source, w.metric, "p90")
		if ch.Verdict != w.verdict || !near(ch.Delta, w.delta) || ch.Relative == nil || !near(*ch.Relative, w.rel) || ch.Base.N != 1000 {
			t.Errorf("%s %s: verdict %q delta %v rel %v n %d; want %q %v %v 1000", w.source, w.metric, ch.Verdict, ch.Delta, ch.Relative, ch.Base.N, w.verdict, w.delta, w.rel)
		}
	}
	// 3 regressing metrics × 3 percentiles.
	if c.Regressions != 9 || c.Improvements != 0 {
		t.Errorf("regressions %d improvements %d, want 9 and 0", c.Regressions, c.Improvements)
	}
	// Regressions first, grouped by source and group, the group with the
	// largest change first: client (tpot +50%, tps_user −20%) before server
	// (+14.8%).
	want := []string{"tpot", "tpot", "tpot", "tps_user", "tps_user", "tps_user", "ttft"}
	for i, m := range want {
		if c.Changes[i].Metric != m || c.Changes[i].Verdict != VerdictRegression {
			t.Fatalf("change %d = %s %s %s, want %s regression", i, c.Changes[i].Source, c.Changes[i].Metric, c.Changes[i].Verdict, m)
		}
	}
	if c.Changes[6].Source != "server" {
		t.Errorf("change 6 from %s, want server", c.Changes[6].Source)
	}
}

func TestCompareNoInterval(t *testing.T) {
	base := &Analysis{Metrics: []Metric{pctMetric("client", "ttft", "ms", 100, nil, nil)}}
	next := &Analysis{Metrics: []Metric{pctMetric("client", "ttft", "ms", 300, fptr(200), nil)}}
	if ch := findChange(t, Compare(base, next, CompareOptions{MinChange: 0.05}), "client", "ttft", "p99"); ch.Verdict != VerdictNoInterval {
		t.Errorf("verdict %q, want %q", ch.Verdict, VerdictNoInterval)
	}
}

func TestCompareThresholdOverride(t *testing.T) {
	base := &Analysis{Metrics: []Metric{pctMetric("server", "ttft", "ms", 1000, fptr(980), fptr(1020))}}
	next := &Analysis{Metrics: []Metric{pctMetric("server", "ttft", "ms", 1148, fptr(1120), fptr(1170))}}
	// +14.8% is below a 20% threshold for ttft, so not a regression.
	c := Compare(base, next, CompareOptions{MinChange: 0.05, MinChangeFor: map[string]float64{"ttft": 0.2}})
	if ch := findChange(t, c, "server", "ttft", "p50"); ch.Verdict != VerdictSmall || ch.Threshold != 0.2 || c.Regressions != 0 {
		t.Errorf("verdict %q threshold %v regressions %d, want below threshold 0.2 0", ch.Verdict, ch.Threshold, c.Regressions)
	}
	c = Compare(base, next, CompareOptions{MinChange: 0.05, MinChangeFor: map[string]float64{"ttft": math.Inf(1)}})
	if c.Regressions != 0 {
		t.Errorf("ttft=off: %d regressions, want 0", c.Regressions)
	}
}

func TestCompareFoldsDuplicates(t *testing.T) {
	itl := pctMetric("client", "itl", "ms", 20, fptr(19), fptr(21))
	gap := itl
	gap.Metric = "chunk_gap"
	itl2 := pctMetric("client", "itl", "ms", 25, fptr(24), fptr(26))
	gap2 := itl2
	gap2.Metric = "chunk_gap"
	base := &Analysis{Metrics: []Metric{itl, gap}}
	c := Compare(base, &Analysis{Metrics: []Metric{itl2, gap2}}, CompareOptions{MinChange: 0.05})
	if len(c.Changes) != 3 || c.Changes[0].Metric != "itl" || len(c.Folded) != 1 || c.Folded[0].Metric != "chunk_gap" || c.Folded[0].Into != "itl" {
		t.Errorf("changes %d (first %s), folded %+v; want 3 itl rows and chunk_gap folded into itl", len(c.Changes), c.Changes[0].Metric, c.Folded)
	}
	// Equal in the base only: not a duplicate, both compared.
	gap2.P90 = 27
	c = Compare(base, &Analysis{Metrics: []Metric{itl2, gap2}}, CompareOptions{MinChange: 0.05})
	if len(c.Changes) != 6 || len(c.Folded) != 0 {
		t.Errorf("changes %d folded %d, want 6 and 0", len(c.Changes), len(c.Folded))
	}
}

func TestCompareErrorRates(t *testing.T) {
	mk := func(failed, limited int64) *Analysis {
		return &Analysis{
			Sources: []SourceSummary{{Source: "client", Events: 10000, Failed: failed}},
			Errors: []ErrorCount{{Source: "client", Group: map[string]string{}, Class: "rate_limited", Count: limited},
				{Source: "client", Group: map[string]string{"model": "m"}, Class: "rate_limited", Count: 9999}},
		}
	}
	// 283/10000 → 347/10000: pooled p = 630/20000, z = 0.0064 /
	// √(p(1−p)·2/10000) = 2.590955 (numpy by hand); +22.6%: a regression.
	c := Compare(mk(283, 200), mk(347, 205), CompareOptions{MinChange: 0.05})
	ch := findChange(t, c, "client", "error_rate", "any")
	if ch.Z == nil || !near(*ch.Z, 2.590955098759256) || ch.Verdict != VerdictRegression || ch.Base.N != 10000 {
		t.Errorf("any: z %v verdict %q n %d, want 2.590955 regression 10000", ch.Z, ch.Verdict, ch.Base.N)
	}
	// Wilson 95% interval of 283/10000: [0.0252265, 0.0317357].
	if !near(*ch.Base.Low, 0.025226531864319626) || !near(*ch.Base.High, 0.03173573219857667) {
		t.Errorf("wilson [%v, %v]", *ch.Base.Low, *ch.Base.High)
	}
	// 200 → 205 rate limited: z ≈ 0.25, not significant; group rows ignored.
	if ch := findChange(t, c, "client", "error_rate", "rate_limited"); ch.Verdict != VerdictNoise || !near(ch.Base.Value, 0.02) {
		t.Errorf("rate_limited: verdict %q base %v", ch.Verdict, ch.Base.Value)
	}
	if c.Changes[0].Stat != "any" {
		t.Errorf("first change %s %s, want the error-rate regression", c.Changes[0].Metric, c.Changes[0].Stat)
	}
}

func TestCompareThroughput(t *testing.T) {
	mk := func(requests int64, good int64) *Analysis {
		sec := 3600.0
		return &Analysis{Throughput: []Throughput{{Source: "client", Seconds: sec, Requests: requests,
			OutputTokens: float64(requests) * 100, OutputTokensSq: float64(requests) * 100 * 100,
			RequestRate: float64(requests) / sec, OutputTPS: float64(requests) * 100 / sec,
			Good: &good, Goodput: fptr(float64(good) / sec), GoodShare: fptr(float64(good) / float64(requests))}}}
	}
	// 10/s → 9/s: z = −1/√(36000/3600² + 32400/3600²) = −13.7649; −10%.
	c := Compare(mk(36000, 30000), mk(32400, 27000), CompareOptions{MinChange: 0.05})
	ch := findChange(t, c, "client", "request_rate", "rate")
	if ch.Z == nil || !near(*ch.Z, -13.764944032233705) || ch.Verdict != VerdictRegression {
		t.Errorf("request_rate: z %v verdict %q", ch.Z, ch.Verdict)
	}
	// Every request carries 100 tokens: the same test on 100× the counts
	// with 100²× the variance gives the same z.
	if ch := findChange(t, c, "client", "output_tps", "rate"); ch.Z == nil || !near(*ch.Z, -13.764944032233705) {
		t.Errorf("output_tps: z %v", ch.Z)
	}
	// Good share 30000/36000 = 27000/32400: no change.
	if ch := findChange(t, c, "client", "good_share", "share"); ch.Verdict != VerdictNoise || !near(ch.Delta, 0) {
		t.Errorf("good_share: verdict %q delta %v", ch.Verdict, ch.Delta)
	}
	if ch := findChange(t, c, "client", "goodput", "rate"); ch.Verdict != VerdictRegression {
		t.Errorf("goodput: verdict %q", ch.Verdict)
	}
}

func TestCompareLabels(t *testing.T) {
	week := func(first, last string) *Analysis {
		return &Analysis{Sources: []SourceSummary{{Source: "client", First: first, Last: last}}}
	}
	c := Compare(week("2026-11-16T00:00:03Z", "2026-11-22T23:59:58Z"), week("2026-11-23T00:01:00Z", "2026-11-29T23:58:00Z"), CompareOptions{})
	if c.Base.Label != "2026-11-16 → 2026-11-22" || c.New.Label != "2026-11-23 → 2026-11-29" {
		t.Errorf("labels %q, %q", c.Base.Label, c.New.Label)
	}
	c = Compare(week("2026-11-16T10:00:00Z", "2026-11-16T11:00:00Z"), week("2026-11-16T12:00:00Z", "2026-11-16T13:00:00Z"), CompareOptions{NewLabel: ""})
	if c.Base.Label != "2026-11-16 10:00 → 2026-11-16 11:00" || c.New.Label != "2026-11-16 12:00 → 2026-11-16 13:00" {
		t.Errorf("same-day labels %q, %q", c.Base.Label, c.New.Label)
	}
	c = Compare(&Analysis{}, &Analysis{}, CompareOptions{BaseLabel: "week 47"})
	if c.Base.Label != "week 47" || c.New.Label != "new" {
		t.Errorf("labels %q, %q", c.Base.Label, c.New.Label)
	}
}
