package analyze

import (
	"math"
)

// percentileKeys are the percentiles every Metric reports, with their
// analysis.json keys, in the order they appear in the document.
var percentileKeys = []struct {
	key string
	q   float64
}{
	{"p50", 0.50}, {"p90", 0.90}, {"p95", 0.95}, {"p99", 0.99}, {"p999", 0.999},
}

// ciTail is the probability mass left outside a confidence interval on each
// side: 0.025 on each side gives (at least) 95% coverage.
const ciTail = 0.025

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of sorted, an ascending slice,
// by linear interpolation between closest ranks (Hyndman–Fan type 7, numpy's
// default): with h = (n−1)·q, it is sorted[⌊h⌋] + (h−⌊h⌋)·(sorted[⌊h⌋+1] −
// sorted[⌊h⌋]). It returns false for an empty slice.
func Quantile(sorted []float64, q float64) (float64, bool) {
	n := len(sorted)
	if n == 0 || math.IsNaN(q) {
		return 0, false
	}
	q = min(max(q, 0), 1)
	lo, hi := quantileRanks(n, q)
	if lo == hi {
		return sorted[lo], true
	}
	frac := float64(n-1)*q - float64(lo)
	return sorted[lo] + frac*(sorted[hi]-sorted[lo]), true
}

// quantileRanks returns the two positions of n sorted samples Quantile
// reads for q in [0, 1] (equal at the top).
func quantileRanks(n int, q float64) (lo, hi int) {
	lo = int(math.Floor(float64(n-1) * q))
	if lo >= n-1 {
		return n - 1, n - 1
	}
	return lo, lo + 1
}

// QuantileCIRanks returns the 0-based ranks [low, high] of the order
// statistics that bound the q-quantile of a sample of n with at least 95%
// confidence, whatever the distribution (binomial order statistics). With B
// ~ Binomial(n, q) the number of samples below the true quantile, the 1-based
// order statistics X(l), X(u) cover it with probability P(l ≤ B ≤ u−1); l is
// the largest rank with P(B ≤ l−1) ≤ 2.5% and u the smallest with P(B ≥ u) ≤
// 2.5%, both from the exact binomial distribution. A side whose rank falls
// outside the sample (too few samples) is reported as false.
func QuantileCIRanks(n int, q float64) (low int, lowOK bool, high int, highOK bool) {
	if n <= 0 || !(q > 0 && q < 1) {
		return 0, false, 0, false
	}
	cdf := binomialCDF(n, q)
	// l−1 = the largest k with P(B ≤ k) ≤ tail (k = −1 always qualifies,
	// and so does every k below the table, where P(B ≤ k) = 0).
	l := cdf.lo
	for k := cdf.lo; k <= n && cdf.at(k) <= ciTail; k++ {
		l = k + 1
	}
	// u = the smallest u with P(B ≥ u) = 1 − P(B ≤ u−1) ≤ tail (u = n+1
	// always qualifies, and so does every u above the table's top, where
	// P(B ≤ u−1) = 1).
	u, k := n+1, n-1
	if top := cdf.lo + len(cdf.cdf) - 1; top < n {
		u, k = top+1, top-1
	}
	for ; k >= 0 && 1-cdf.at(k) <= ciTail; k-- {
		u = k + 1
	}
	return l - 1, l >= 1, u - 1, u <= n
}

// binomialTable is P(B ≤ k) for k = lo…lo+len(cdf)−1; below lo it is 0
// and above the table 1 (the mass left out is under 1e-30).
type binomialTable struct {
	lo  int
	cdf []float64
}

// at returns P(B ≤ k).
func (t binomialTable) at(k int) float64 {
	switch {
	case k < t.lo:
		return 0
	case k-t.lo >= len(t.cdf):
		return 1
	}
	return t.cdf[k-t.lo]
}

// binomialCDF tabulates the distribution function of B ~ Binomial(n, q). It
// evaluates the probability mass at the mode with log-gamma, walks outward
// with the ratio recurrence for ~12 standard deviations (plus 30 ranks for
// small variances), and sums, so it costs O(√n) rather than O(n).
func binomialCDF(n int, q float64) binomialTable {
	fn := float64(n)
	mode := min(max(int(math.Floor((fn+1)*q)), 0), n)
	reach := int(12*math.Sqrt(fn*q*(1-q))) + 30
	lo, hi := max(0, mode-reach), min(n, mode+reach)
	pmf := make([]float64, hi-lo+1)
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	km := float64(mode)
	pmf[mode-lo] = math.Exp(lg(fn+1) - lg(km+1) - lg(fn-km+1) +
		km*math.Log(q) + (fn-km)*math.Log1p(-q))
	for k := mode; k < hi; k++ { // pmf(k+1) = pmf(k)·(n−k)/(k+1)·q/(1−q)
		pmf[k+1-lo] = pmf[k-lo] * float64(n-k) / float64(k+1) * q / (1 - q)
	}
	for k := mode; k > lo; k-- { // pmf(k−1) = pmf(k)·k/(n−k+1)·(1−q)/q
		pmf[k-1-lo] = pmf[k-lo] * float64(k) / float64(n-k+1) * (1 - q) / q
	}
	total := 0.0
	for _, p := range pmf {
		total += p
	}
	run := 0.0
	for i, p := range pmf {
		run += p
		pmf[i] = min(run/total, 1) // normalized: rounding in the mode's mass cancels
	}
	return binomialTable{lo: lo, cdf: pmf}
}

// stats is the summary of one sample: the figures of a Metric.
type stats struct {
	count               int64
	mean, std, min, max float64
	percentiles         []float64 // in percentileKeys order
	ciLow, ciHigh       []*float64
}

// summarize sorts samples in place and returns their statistics: mean,
// population standard deviation (two-pass), min, max, type 7 percentiles
// and their 95% confidence intervals. It returns false for no samples.
func summarize(samples []float64) (stats, bool) {
	n := len(samples)
	if n == 0 {
		return stats{}, false
	}
	sortFloats(samples)
	return summarizeSorted(samples), true
}

// summarizeSorted returns the statistics of sorted, an ascending non-empty
// slice.
func summarizeSorted(samples []float64) stats {
	n := len(samples)
	s := stats{count: int64(n), min: samples[0], max: samples[n-1]}
	sum := 0.0
	for _, v := range samples {
		sum += v
	}
	s.mean = sum / float64(n)
	ss := 0.0
	for _, v := range samples {
		d := v - s.mean
		ss += d * d
	}
	s.std = math.Sqrt(ss / float64(n))
	for _, pk := range percentileKeys {
		v, _ := Quantile(samples, pk.q)
		s.percentiles = append(s.percentiles, v)
		l, lok, h, hok := QuantileCIRanks(n, pk.q)
		s.ciLow = append(s.ciLow, valueAt(samples, l, lok))
		s.ciHigh = append(s.ciHigh, valueAt(samples, h, hok))
	}
	return s
}

// valueAt returns a pointer to sorted[i], or nil when ok is false.
func valueAt(sorted []float64, i int, ok bool) *float64 {
	if !ok {
		return nil
	}
	v := sorted[i]
	return &v
}
