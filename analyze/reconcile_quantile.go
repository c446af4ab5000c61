package analyze

import (
	"math"
	"slices"
)

// deltaQuantile7 returns the q-quantile (0 ≤ q ≤ 1) of sorted xs by linear
// interpolation between closest ranks (Hyndman–Fan type 7, numpy's
// default): h = (n−1)q, x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]). xs must not be
// empty.
func deltaQuantile7(xs []float64, q float64) float64 {
	h := float64(len(xs)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[lo] + (h-float64(lo))*(xs[lo+1]-xs[lo])
}

// deltaMetric returns count, mean, population standard deviation, min, the
// type-7 percentiles and max of xs in a Metric, sorting xs; nil for none.
// CI95 is left empty.
func deltaMetric(xs []float64) *Metric {
	if len(xs) == 0 {
		return nil
	}
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return &Metric{Group: map[string]string{}, Count: int64(len(xs)), Mean: mean,
		Std: math.Sqrt(ss / float64(len(xs))), Min: xs[0], Max: xs[len(xs)-1],
		P50: deltaQuantile7(xs, 0.5), P90: deltaQuantile7(xs, 0.9), P95: deltaQuantile7(xs, 0.95),
		P99: deltaQuantile7(xs, 0.99), P999: deltaQuantile7(xs, 0.999)}
}
