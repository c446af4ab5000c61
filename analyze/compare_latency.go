package analyze

import "slices"

// comparedPercentiles are the latency percentiles Compare judges.
var comparedPercentiles = []string{"p50", "p90", "p99"}

// metricID identifies a metric across analyses: source, group and name.
type metricID struct{ source, group, metric string }

func idOf(m *Metric) metricID { return metricID{m.Source, groupString(m.Group), m.Metric} }

// addLatency adds the percentiles of every metric both analyses hold,
// leaving out duplicates (see Fold), and lists the metrics only one holds.
func (c *Comparison) addLatency(base, next *Analysis) {
	nextBy := map[metricID]*Metric{}
	for i := range next.Metrics {
		nextBy[idOf(&next.Metrics[i])] = &next.Metrics[i]
	}
	baseBy := map[metricID]bool{}
	var kept []*Metric // shared metrics kept so far, to fold duplicates into
	for i := range base.Metrics {
		b := &base.Metrics[i]
		baseBy[idOf(b)] = true
		n, ok := nextBy[idOf(b)]
		if !ok {
			c.OnlyBase = append(c.OnlyBase, metricLabel(b))
			continue
		}
		if into := duplicateOf(b, n, kept, nextBy); into != "" {
			c.Folded = append(c.Folded, Fold{Source: b.Source, Group: b.Group, Metric: b.Metric, Into: into})
			continue
		}
		kept = append(kept, b)
		for _, p := range comparedPercentiles {
			c.Changes = append(c.Changes, latencyChange(b, n, p))
		}
	}
	for i := range next.Metrics {
		if n := &next.Metrics[i]; !baseBy[idOf(n)] {
			c.OnlyNew = append(c.OnlyNew, metricLabel(n))
		}
	}
}

// metricLabel names a metric for the lists of unmatched metrics.
func metricLabel(m *Metric) string {
	g := groupString(m.Group)
	if g == "" {
		g = "all requests"
	}
	return m.Source + " " + m.Metric + " (" + g + ")"
}

// duplicateOf returns the name of a kept metric of the same source and
// group whose figures equal b's in the base and n's in the new analysis,
// or "".
func duplicateOf(b, n *Metric, kept []*Metric, nextBy map[metricID]*Metric) string {
	for _, k := range kept {
		if k.Source != b.Source || groupString(k.Group) != groupString(b.Group) || !sameFigures(k, b) {
			continue
		}
		if kn := nextBy[idOf(k)]; kn != nil && sameFigures(kn, n) {
			return k.Metric
		}
	}
	return ""
}

// sameFigures reports whether two metrics have the same unit, count and
// statistics, so they were computed from the same samples.
func sameFigures(a, b *Metric) bool {
	return a.Unit == b.Unit && a.Count == b.Count && slices.Equal(
		[]float64{a.Mean, a.Std, a.Min, a.P50, a.P90, a.P95, a.P99, a.P999, a.Max},
		[]float64{b.Mean, b.Std, b.Min, b.P50, b.P90, b.P95, b.P99, b.P999, b.Max})
}

// percentile returns m's percentile p and its interval.
func percentile(m *Metric, p string) Estimate {
	v := map[string]float64{"p50": m.P50, "p90": m.P90, "p95": m.P95, "p99": m.P99, "p999": m.P999}[p]
	iv := m.CI95[p]
	return Estimate{Value: v, N: m.Count, Low: iv[0], High: iv[1]}
}

// latencyChange judges percentile p of one metric: significant when the two
// 95% intervals are disjoint (a missing bound never separates). Latencies
// are worse higher; rates (tps_user, any unit per second) worse lower.
func latencyChange(b, n *Metric, p string) Change {
	be, ne := percentile(b, p), percentile(n, p)
	ch := newChange("latency", b.Source, b.Metric, b.Group, p, b.Unit, be, ne, !isRate(b.Unit))
	ch.Test = "ci95"
	ch.Significant = disjoint(be, ne)
	return ch
}

// isRate reports whether a unit is per second (higher is better).
func isRate(unit string) bool { return len(unit) > 2 && unit[len(unit)-2:] == "/s" }

// disjoint reports whether two estimates' intervals do not overlap;
// touching intervals overlap.
func disjoint(a, b Estimate) bool {
	return a.High != nil && b.Low != nil && *a.High < *b.Low || b.High != nil && a.Low != nil && *b.High < *a.Low
}
