package analyze

import "math"

// zCritical is the two-sided 5% critical value of the standard normal.
const zCritical = 1.959963984540054

// addErrors adds, per source present in both analyses, the rate of every
// failure class either holds and of failures of any class, over all the
// source's requests (group {}; groups have no request count to divide by).
func (c *Comparison) addErrors(base, next *Analysis) {
	for _, bs := range base.Sources {
		ns, ok := sourceSummary(next, bs.Source)
		if !ok || bs.Events == 0 || ns.Events == 0 {
			continue
		}
		c.Changes = append(c.Changes, proportionChange("error_rate", bs.Source, "error_rate", "any",
			bs.Failed, bs.Events, ns.Failed, ns.Events, true))
		for _, class := range errorClasses(base, next, bs.Source) {
			c.Changes = append(c.Changes, proportionChange("error_rate", bs.Source, "error_rate", class,
				errorCount(base, bs.Source, class), bs.Events, errorCount(next, bs.Source, class), ns.Events, true))
		}
	}
}

func sourceSummary(a *Analysis, src string) (SourceSummary, bool) {
	for _, s := range a.Sources {
		if s.Source == src {
			return s, true
		}
	}
	return SourceSummary{}, false
}

// errorClasses returns the classes failed at src, group {}, in either
// analysis, in classOrder then by name.
func errorClasses(base, next *Analysis, src string) []string {
	set := map[string]bool{}
	for _, a := range []*Analysis{base, next} {
		for _, e := range a.Errors {
			if e.Source == src && len(e.Group) == 0 {
				set[e.Class] = true
			}
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	return orderedKeys(keys, classOrder)
}

func errorCount(a *Analysis, src, class string) int64 {
	var n int64
	for _, e := range a.Errors {
		if e.Source == src && e.Class == class && len(e.Group) == 0 {
			n += e.Count
		}
	}
	return n
}

// proportionChange judges x1/n1 → x2/n2 with the pooled two-proportion z
// test; each side's interval is Wilson's 95% score interval.
func proportionChange(kind, src, metric, stat string, x1, n1, x2, n2 int64, higherIsBad bool) Change {
	ch := newChange(kind, src, metric, nil, stat, "fraction", wilson(x1, n1), wilson(x2, n2), higherIsBad)
	ch.Test = "two-proportion z"
	p := float64(x1+x2) / float64(n1+n2)
	se := math.Sqrt(p * (1 - p) * (1/float64(n1) + 1/float64(n2)))
	if se > 0 {
		z := ch.Delta / se
		ch.Z = &z
		ch.Significant = math.Abs(z) >= zCritical
	}
	return ch
}

// wilson is x/n with its Wilson score 95% interval.
func wilson(x, n int64) Estimate {
	p, fn := float64(x)/float64(n), float64(n)
	z2 := zCritical * zCritical
	centre := (p + z2/(2*fn)) / (1 + z2/fn)
	half := zCritical / (1 + z2/fn) * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn))
	return Estimate{Value: p, N: n, Low: ptr(max(centre-half, 0)), High: ptr(min(centre+half, 1))}
}

// addThroughput adds, per source with a throughput in both analyses, its
// request rate, output tokens/s and, when both ran with SLOs, goodput and
// the share of requests meeting every SLO. Lower is worse for all four.
func (c *Comparison) addThroughput(base, next *Analysis) {
	for _, b := range base.Throughput {
		n, ok := throughputOfSource(next, b.Source)
		if !ok {
			continue
		}
		c.Changes = append(c.Changes,
			rateChange(b.Source, "request_rate", "requests/s", b, n, float64(b.Requests), float64(n.Requests), b.RequestRate, n.RequestRate),
			rateChange(b.Source, "output_tps", "tokens/s", b, n, b.OutputTokensSq, n.OutputTokensSq, b.OutputTPS, n.OutputTPS))
		if b.Good != nil && n.Good != nil {
			c.Changes = append(c.Changes,
				rateChange(b.Source, "goodput", "requests/s", b, n, float64(*b.Good), float64(*n.Good), *b.Goodput, *n.Goodput),
				proportionChange("throughput", b.Source, "good_share", "share", *b.Good, b.Requests, *n.Good, n.Requests, false))
		}
	}
}

func throughputOfSource(a *Analysis, src string) (Throughput, bool) {
	for _, t := range a.Throughput {
		if t.Source == src {
			return t, true
		}
	}
	return Throughput{}, false
}

// rateChange judges a rate r = count/seconds of each side whose count has
// variance v (a compound Poisson count: Σ of each request's contribution
// squared) with a z test: z = (r2 − r1) / √(v1/s1² + v2/s2²). Each side's
// interval is r ± 1.96·√v/s.
func rateChange(src, metric, unit string, b, n Throughput, v1, v2, r1, r2 float64) Change {
	est := func(t Throughput, v, r float64) Estimate {
		h := zCritical * math.Sqrt(v) / t.Seconds
		return Estimate{Value: r, N: t.Requests, Low: ptr(max(r-h, 0)), High: ptr(r + h)}
	}
	ch := newChange("throughput", src, metric, nil, "rate", unit, est(b, v1, r1), est(n, v2, r2), false)
	ch.Test = "poisson z"
	se := math.Sqrt(v1/(b.Seconds*b.Seconds) + v2/(n.Seconds*n.Seconds))
	if se > 0 {
		z := ch.Delta / se
		ch.Z = &z
		ch.Significant = math.Abs(z) >= zCritical
	}
	return ch
}
