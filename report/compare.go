package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// Compare writes an HTML page setting two analyses side by side: for every
// metric both hold (matched by source, metric and group), each headline
// percentile in both, its delta, and whether the 95% confidence intervals
// separate, regressions first. baseName and nextName label the two sides.
func Compare(w io.Writer, base, next *analyze.Analysis, baseName, nextName string) error {
	if base == nil || next == nil {
		return fmt.Errorf("report: compare needs two analyses")
	}
	cs := &chartSet{}
	v := buildCompare(base, next, baseName, nextName, cs)
	p := &page{Title: "ttftrace comparison", Subtitle: baseName + " → " + nextName,
		Nav:     []navItem{{"changes", "Changes"}, {"sources", "Sources"}, {"unmatched", "Unmatched"}, {"method", "Method"}},
		Compare: v}
	return renderPage(w, p, cs)
}

// comparePercentiles are the percentiles compared; each has a CI in analysis.json.
var comparePercentiles = []string{"p50", "p90", "p99"}

type compareView struct {
	BaseName, NextName string
	Regressions        int
	Improvements       int
	Unchanged          int
	Rows               []compareRow
	Chart              *chartRef
	Sources            []compareSource
	OnlyBase, OnlyNext []string
	Empty              string
}

// compareRow is one percentile of one metric in both analyses.
type compareRow struct {
	Source, Metric, Group, Unit, Percentile string
	Base, BaseCI, Next, NextCI, Delta, Pct  string
	Verdict, Class                          string
	rank                                    int
	pct                                     float64
}

type compareSource struct {
	Source, BaseEvents, NextEvents, BaseFailed, NextFailed string
}

// metricKey identifies a metric across analyses: source, metric and group.
func metricKey(m analyze.Metric) string {
	return m.Source + "\x00" + m.Metric + "\x00" + groupLabel(m.Group)
}

func metricName(m analyze.Metric) string {
	return m.Source + " " + m.Metric + " (" + groupLabel(m.Group) + ")"
}

func buildCompare(base, next *analyze.Analysis, baseName, nextName string, cs *chartSet) *compareView {
	v := &compareView{BaseName: baseName, NextName: nextName}
	nextBy := map[string]analyze.Metric{}
	for _, m := range next.Metrics {
		nextBy[metricKey(m)] = m
	}
	seen := map[string]bool{}
	for _, b := range sortedMetrics(base.Metrics) {
		n, ok := nextBy[metricKey(b)]
		seen[metricKey(b)] = true
		if !ok {
			v.OnlyBase = append(v.OnlyBase, metricName(b))
			continue
		}
		for _, p := range comparePercentiles {
			v.Rows = append(v.Rows, compareRowOf(b, n, p))
		}
	}
	for _, n := range sortedMetrics(next.Metrics) {
		if !seen[metricKey(n)] {
			v.OnlyNext = append(v.OnlyNext, metricName(n))
		}
	}
	sortCompareRows(v.Rows)
	for _, r := range v.Rows {
		switch r.rank {
		case 0:
			v.Regressions++
		case 1:
			v.Improvements++
		default:
			v.Unchanged++
		}
	}
	if len(v.Rows) == 0 {
		v.Empty = "The two analyses share no metric (same source, metric and group), so there is nothing to compare."
	} else if ref, ok := compareChart(cs, v.Rows); ok {
		v.Chart = &ref
	}
	v.Sources = compareSources(base.Sources, next.Sources)
	return v
}

// percentileOf reads one percentile of m and its interval.
func percentileOf(m analyze.Metric, p string) (float64, analyze.Interval, bool) {
	iv, ok := m.CI95[p]
	switch p {
	case "p50":
		return m.P50, iv, ok
	case "p90":
		return m.P90, iv, ok
	case "p95":
		return m.P95, iv, ok
	case "p99":
		return m.P99, iv, ok
	}
	return m.P999, iv, ok
}

// separated reports whether two intervals are disjoint; a nil bound is
// unbounded on its side, so it never separates there.
func separated(a, b analyze.Interval) bool {
	return a[1] != nil && b[0] != nil && *a[1] < *b[0] || b[1] != nil && a[0] != nil && *b[1] < *a[0]
}

// higherIsBetter is true for rates (tokens/s, requests/s), false for latencies.
func higherIsBetter(m analyze.Metric) bool {
	return strings.HasSuffix(m.Unit, "/s") || m.Metric == "tps_user" || m.Metric == "goodput"
}

func compareRowOf(b, n analyze.Metric, p string) compareRow {
	bv, biv, bok := percentileOf(b, p)
	nv, niv, nok := percentileOf(n, p)
	r := compareRow{Source: b.Source, Metric: b.Metric, Group: groupLabel(b.Group), Unit: b.Unit,
		Percentile: p, Base: fmtValue(bv), BaseCI: fmtInterval(biv, bok), Next: fmtValue(nv),
		NextCI: fmtInterval(niv, nok), Delta: fmtSigned(nv - bv), Pct: "n/a", pct: math.NaN()}
	if bv != 0 {
		r.pct = (nv - bv) / math.Abs(bv)
		r.Pct = fmtSigned(r.pct*100) + "%"
	}
	worse := nv > bv
	if higherIsBetter(b) {
		worse = nv < bv
	}
	switch {
	case !bok || !nok:
		r.Verdict, r.Class, r.rank = "no interval", "na", 3
	case !separated(biv, niv) || nv == bv:
		r.Verdict, r.Class, r.rank = "within noise", "noise", 2
	case worse:
		r.Verdict, r.Class, r.rank = "regression", "worse", 0
	default:
		r.Verdict, r.Class, r.rank = "improvement", "better", 1
	}
	return r
}

// sortCompareRows puts regressions first, then improvements, each largest
// relative change first; rows within noise keep the metric order.
func sortCompareRows(rows []compareRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.rank <= 1 {
			return magnitude(a.pct) > magnitude(b.pct)
		}
		return false
	})
}

func magnitude(f float64) float64 {
	if math.IsNaN(f) {
		return math.Inf(1)
	}
	return math.Abs(f)
}

func compareSources(base, next []analyze.SourceSummary) []compareSource {
	find := func(ss []analyze.SourceSummary, s string) (analyze.SourceSummary, bool) {
		for _, x := range ss {
			if x.Source == s {
				return x, true
			}
		}
		return analyze.SourceSummary{}, false
	}
	var names []string
	for _, s := range append(append([]analyze.SourceSummary(nil), base...), next...) {
		if !contains(names, s.Source) {
			names = append(names, s.Source)
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return lessSourceMetric(names[i], "", names[j], "") })
	var out []compareSource
	for _, n := range names {
		r := compareSource{Source: n, BaseEvents: "—", NextEvents: "—"}
		if b, ok := find(base, n); ok {
			r.BaseEvents, r.BaseFailed = fmtCount(b.Events), failedShare(b)
		}
		if x, ok := find(next, n); ok {
			r.NextEvents, r.NextFailed = fmtCount(x.Events), failedShare(x)
		}
		out = append(out, r)
	}
	return out
}

func failedShare(s analyze.SourceSummary) string {
	if s.Events == 0 {
		return ""
	}
	return fmtCount(s.Failed) + " (" + fmtPct(float64(s.Failed)/float64(s.Events)) + ")"
}
