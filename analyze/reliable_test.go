package analyze

import "testing"

func TestMinSamples(t *testing.T) {
	// 1/(1−q): p50 2, p90 10, p99 100, p99.9 1000; never below 10.
	for _, c := range []struct {
		q    float64
		want int64
	}{{0.5, 10}, {0.9, 10}, {0.95, 20}, {0.99, 100}, {0.999, 1000}, {0, 10}, {1, 10}} {
		if got := MinSamples(c.q); got != c.want {
			t.Errorf("MinSamples(%v) = %d, want %d", c.q, got, c.want)
		}
	}
}
