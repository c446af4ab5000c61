package analyze

import (
	"cmp"
	"math"
	"slices"
)

// weightedValue is one request's value of a token-weighted metric and its
// weight.
type weightedValue func(r *request) (v, w float64, ok bool)

// weightedCompat are the metrics summarized as guidellm summarizes a
// weighted distribution (guidellmStats) instead of from repeated samples.
var weightedCompat = map[string]weightedValue{
	"guidellm.itl":  guidellmITL,
	"guidellm.tpot": guidellmTPOT,
}

// guidellmITL is (last_token − first_token) / (T − 1) in ms with weight
// T − 1: our tpot.
func guidellmITL(r *request) (float64, float64, bool) {
	v, ok := tpot(r)
	return v, float64(r.tokens - 1), ok
}

// guidellmTPOT is (last_token − start) / T in ms with weight T; without a
// last token it ends at the request's end, as guidellm falls back to the
// request end time.
func guidellmTPOT(r *request) (float64, float64, bool) {
	last := r.last
	if !last.ok {
		last = r.end
	}
	d, ok := msBetween(r.start, last)
	if !ok || r.tokens < 1 {
		return 0, 0, false
	}
	return d / float64(r.tokens), float64(r.tokens), true
}

// weightedSamples adapts a weighted metric to metricDef.samples for the
// uses that need plain samples (time series): the value repeated by its
// weight, at most maxWeight times.
func weightedSamples(f weightedValue) func(*request, []float64) []float64 {
	return func(r *request, dst []float64) []float64 {
		v, w, ok := f(r)
		if !ok {
			return dst
		}
		return repeat(dst, v, int64(w))
	}
}

// repeat appends v to dst n times, at most maxWeight times.
func repeat(dst []float64, v float64, n int64) []float64 {
	for range min(n, maxWeight) {
		dst = append(dst, v)
	}
	return dst
}

// pair is one request's value and weight.
type pair struct{ v, w float64 }

// guidellmStats summarizes the successful requests rows of acc under f
// (which reads the request fields reads) as guidellm's
// DistributionSummary.from_values over (value, weight) pairs does
// (src/guidellm/schemas/statistics.py, from_values and
// Percentiles.from_pdf; the benchmark's metrics.py passes
// from_values_function the pairs of the successful requests): count is
// round(Σ w); equal values are merged, summing their weights; values of
// weight 0 are dropped; probabilities are w / Σw over the values in
// ascending order and the CDF their running sum (np.cumsum); mean is Σ v·p,
// std √Σ (v − mean)²·p, min and max the extreme values, and each percentile
// q the first value whose cumulative probability reaches q
// (np.searchsorted(cdf, q, side="left"): the inverted CDF, no
// interpolation). guidellm gives no confidence interval; the bounds are
// null. It returns false when no request has a value of positive weight.
func guidellmStats(acc *sourceAcc, rows []int32, f weightedValue, reads fields) (stats, bool) {
	var ps []pair
	total := 0.0
	var r request
	for _, row := range rows {
		r.resolve(acc.event(row), reads)
		if v, w, ok := f(&r); ok && w > 0 {
			ps = append(ps, pair{v, w})
			total += w
		}
	}
	if len(ps) == 0 {
		return stats{}, false
	}
	slices.SortStableFunc(ps, func(a, b pair) int { return cmp.Compare(a.v, b.v) })
	ps = mergeEqual(ps)
	s := stats{count: int64(math.Round(total)), min: ps[0].v, max: ps[len(ps)-1].v}
	cdf := make([]float64, len(ps))
	run := 0.0
	for i, p := range ps {
		s.mean += p.v * (p.w / total)
		run += p.w / total
		cdf[i] = run
	}
	variance := 0.0
	for _, p := range ps {
		variance += (p.v - s.mean) * (p.v - s.mean) * (p.w / total)
	}
	s.std = math.Sqrt(variance)
	for _, pk := range percentileKeys {
		i, _ := slices.BinarySearch(cdf, pk.q) // first cdf[i] ≥ q
		s.percentiles = append(s.percentiles, ps[min(i, len(ps)-1)].v)
		s.ciLow, s.ciHigh = append(s.ciLow, nil), append(s.ciHigh, nil)
	}
	return s, true
}

// mergeEqual merges the runs of equal values of sorted ps into one pair
// each, summing their weights, as np.unique with np.add.at does.
func mergeEqual(ps []pair) []pair {
	out := ps[:1]
	for _, p := range ps[1:] {
		if last := &out[len(out)-1]; p.v == last.v {
			last.w += p.w
			continue
		}
		out = append(out, p)
	}
	return out
}
