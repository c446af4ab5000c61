package report

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
)

func ci(lo, hi *float64) analyze.Interval { return analyze.Interval{lo, hi} }

// metricWith builds a metric whose p50, p90 and p99 all equal v with the
// interval [lo, hi], so one call describes one comparison.
func metricWith(source, metric, unit string, v float64, lo, hi *float64) analyze.Metric {
	iv := ci(lo, hi)
	return analyze.Metric{Source: source, Metric: metric, Unit: unit, Group: map[string]string{}, Count: 1000,
		P50: v, P90: v, P99: v, CI95: map[string]analyze.Interval{"p50": iv, "p90": iv, "p99": iv}}
}

func TestCompareRows(t *testing.T) {
	base := &analyze.Analysis{Metrics: []analyze.Metric{
		metricWith("client", "ttft", "ms", 400, fp(390), fp(410)),
		metricWith("server", "ttft", "ms", 1000, fp(950), fp(1100)),
		metricWith("client", "tps_user", "tokens/s", 40, fp(39), fp(41)),
		metricWith("client", "e2e", "ms", 5000, nil, fp(5100)),
		metricWith("proxy", "ttft", "ms", 300, fp(290), fp(310)),
	}}
	next := &analyze.Analysis{Metrics: []analyze.Metric{
		metricWith("client", "ttft", "ms", 450, fp(440), fp(460)),        // [390,410] vs [440,460]: disjoint, up: regression
		metricWith("server", "ttft", "ms", 1050, fp(1000), fp(1150)),     // [950,1100] vs [1000,1150]: overlap: noise
		metricWith("client", "tps_user", "tokens/s", 44, fp(43), fp(45)), // rate up, disjoint: improvement
		metricWith("client", "e2e", "ms", 6000, fp(5500), nil),           // (−∞,5100] vs [5500,∞): disjoint: regression
		metricWith("client", "itl", "ms", 20, fp(19), fp(21)),            // only in next
	}}
	v := buildCompare(base, next, "a", "b", &chartSet{})
	// 4 shared metrics × 3 percentiles = 12 rows: 2 regressions × 3, 1
	// improvement × 3, 1 within noise × 3.
	if len(v.Rows) != 12 || v.Regressions != 6 || v.Improvements != 3 || v.Unchanged != 3 {
		t.Fatalf("rows %d, regressions %d, improvements %d, unchanged %d; want 12, 6, 3, 3",
			len(v.Rows), v.Regressions, v.Improvements, v.Unchanged)
	}
	// Regressions first, largest relative change first: e2e +1000/5000 = +20%
	// before ttft +50/400 = +12.5%.
	want := []struct{ metric, delta, pct, verdict string }{
		{"e2e", "+1,000", "+20.0%", "regression"},
		{"ttft", "+50.0", "+12.5%", "regression"},
	}
	for i, w := range want {
		r := v.Rows[i*3]
		if r.Metric != w.metric || r.Delta != w.delta || r.Pct != w.pct || r.Verdict != w.verdict {
			t.Errorf("row %d = %s %s %s %s, want %+v", i*3, r.Metric, r.Delta, r.Pct, r.Verdict, w)
		}
	}
	// tps_user 40 → 44: +4 = +10.0%, an improvement for a rate.
	if r := v.Rows[6]; r.Metric != "tps_user" || r.Pct != "+10.0%" || r.Verdict != "improvement" {
		t.Errorf("row 6 = %+v, want tps_user +10.0%% improvement", r)
	}
	// server ttft 1000 → 1050: +5.00%, intervals overlap on [1000, 1100].
	if r := v.Rows[9]; r.Source != "server" || r.Pct != "+5.00%" || r.Verdict != "within noise" {
		t.Errorf("row 9 = %+v, want server ttft +5.00%% within noise", r)
	}
	if strings.Join(v.OnlyBase, ";") != "proxy ttft (all requests)" || strings.Join(v.OnlyNext, ";") != "client itl (all requests)" {
		t.Errorf("only base %v, only next %v", v.OnlyBase, v.OnlyNext)
	}
}

func TestCompareMatchesGroups(t *testing.T) {
	m := func(model string, v float64) analyze.Metric {
		x := metricWith("client", "ttft", "ms", v, fp(v-1), fp(v+1))
		x.Group = map[string]string{"model": model}
		return x
	}
	base := &analyze.Analysis{Metrics: []analyze.Metric{m("a", 100), m("b", 200)}}
	next := &analyze.Analysis{Metrics: []analyze.Metric{m("b", 200), m("a", 150)}}
	v := buildCompare(base, next, "x", "y", &chartSet{})
	// model=a 100 → 150 is a regression of +50%; model=b is unchanged: the
	// metrics are paired by group, not by position.
	if v.Rows[0].Group != "model=a" || v.Rows[0].Pct != "+50.0%" || v.Regressions != 3 || v.Unchanged != 3 {
		t.Errorf("first row %+v, regressions %d, unchanged %d", v.Rows[0], v.Regressions, v.Unchanged)
	}
}

func TestSeparated(t *testing.T) {
	for _, c := range []struct {
		a, b analyze.Interval
		want bool
	}{
		{ci(fp(1), fp(2)), ci(fp(3), fp(4)), true},
		{ci(fp(3), fp(4)), ci(fp(1), fp(2)), true},
		{ci(fp(1), fp(3)), ci(fp(2), fp(4)), false},
		{ci(fp(1), fp(2)), ci(fp(2), fp(3)), false}, // touching intervals overlap
		{ci(fp(1), nil), ci(fp(3), fp(4)), false},   // unbounded above reaches b
		{ci(nil, fp(2)), ci(fp(3), nil), true},
	} {
		if got := separated(c.a, c.b); got != c.want {
			t.Errorf("separated(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
