package analyze

import "math"

// MinSamples is the fewest samples a percentile q (0.5 for p50) computed over
// one time window or one token position needs to be shown as a figure rather
// than a hint: ten, and at least one sample beyond the percentile
// (n ≥ 1/(1−q)). So p50 and p90 need 10 samples, p99 100 and p99.9 1,000;
// below that a p99 is the window's maximum, and a few slow requests look
// like a spike.
func MinSamples(q float64) int64 {
	if !(q > 0 && q < 1) {
		return 10
	}
	return max(10, int64(math.Ceil(1/(1-q)-1e-9)))
}
