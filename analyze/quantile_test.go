package analyze

import (
	"math"
	"testing"
)

func TestQuantileType7(t *testing.T) {
	five := []float64{1, 2, 3, 4, 10}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(i + 1)
	}
	// Type 7: h = (n−1)·q; value = x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]), 0-based.
	tests := []struct {
		name   string
		sorted []float64
		q      float64
		want   float64
	}{
		{"numpy.percentile([1,2,3,4,10], 90)", five, 0.9, 7.6},       // h=3.6: 4 + 0.6·6
		{"median of five", five, 0.5, 3},                             // h=2: x[2]
		{"p25 of five", five, 0.25, 2},                               // h=1: x[1]
		{"p95 of five", five, 0.95, 8.8},                             // h=3.8: 4 + 0.8·6
		{"p99 of five", five, 0.99, 9.76},                            // h=3.96: 4 + 0.96·6
		{"p99.9 of five", five, 0.999, 9.976},                        // h=3.996: 4 + 0.996·6
		{"q=0 is the minimum", five, 0, 1},                           // h=0
		{"q=1 is the maximum", five, 1, 10},                          // h=4
		{"one sample", []float64{5}, 0.99, 5},                        // h=0
		{"two samples p99.9", []float64{10, 20}, 0.999, 19.99},       // h=0.999: 10 + 0.999·10
		{"1..100 p99.9", hundred, 0.999, 99.901},                     // h=98.901: 99 + 0.901·1
		{"1..100 median", hundred, 0.5, 50.5},                        // h=49.5: 50 + 0.5·1
		{"1..100 p90", hundred, 0.9, 90.1},                           // h=89.1: 90 + 0.1·1
		{"ties", []float64{2, 2, 2, 7}, 0.75, 3.25},                  // h=2.25: 2 + 0.25·5
		{"negative values", []float64{-4, -1, 0, 3}, 0.5, -0.5},      // h=1.5: −1 + 0.5·1
		{"q beyond 1 is clamped", five, 1.5, 10},                     // q → 1
		{"q below 0 is clamped", five, -0.5, 1},                      // q → 0
		{"p50 of even count", []float64{1, 2, 3, 4, 5, 6}, 0.5, 3.5}, // h=2.5: 3 + 0.5·1
	}
	for _, tt := range tests {
		got, ok := Quantile(tt.sorted, tt.q)
		if !ok || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: Quantile(%v, %g) = %g, %v; want %g", tt.name, tt.sorted, tt.q, got, ok, tt.want)
		}
	}
	if _, ok := Quantile(nil, 0.5); ok {
		t.Error("Quantile(nil) reported a value")
	}
}

// The expected ranks come from the exact binomial distribution computed
// independently with Python's fractions and math.comb (exact rational
// arithmetic): l is the largest 1-based rank with P(B ≤ l−1) ≤ 0.025 and u
// the smallest with P(B ≥ u) ≤ 0.025, B ~ Binomial(n, q). The test takes
// 0-based ranks, l−1 and u−1.
func TestQuantileCIRanks(t *testing.T) {
	tests := []struct {
		n             int
		q             float64
		low, high     int
		lowOK, highOK bool
	}{
		// n=10, median: P(B≤1) = 11/1024 = 0.0107 ≤ 0.025 < P(B≤2) = 56/1024;
		// by symmetry P(B≥9) = 0.0107: X(2), X(9), the textbook answer.
		{10, 0.5, 1, 8, true, true},
		// n=100, median: P(B≤39) = 0.01760 ≤ 0.025 < P(B≤40) = 0.02844, and
		// P(B≥61) = 0.01760: X(40), X(61), as in standard tables.
		{100, 0.5, 39, 60, true, true},
		// n=100, p90: P(B≤83) = 0.02060 < P(B≤84) = 0.03989; P(B≥96) =
		// 0.02371 ≤ 0.025 < P(B≥95) = 0.05758: X(84), X(96).
		{100, 0.9, 83, 95, true, true},
		// n=100, p99: failures F = 100−B ~ Binomial(100, 0.01): P(F≥4) =
		// 0.01837 ≤ 0.025 < P(F≥3) = 0.07937, so X(97); P(B≥100) = 0.99^100
		// = 0.366 > 0.025, so no upper bound.
		{100, 0.99, 96, 0, true, false},
		// n=5, median: P(B=0) = P(B=5) = 1/32 = 0.03125 > 0.025: no bounds.
		{5, 0.5, 0, 0, false, false},
		// n=1000, p99: P(B≤982) = 0.01383 < P(B≤983) = 0.02639; P(B≥997) =
		// 0.01007 < P(B≥996) = 0.02869: X(983), X(997).
		{1000, 0.99, 982, 996, true, true},
		// n=500, median: P(B≤227) = 0.02203 < P(B≤228) = 0.02718: X(228), X(273).
		{500, 0.5, 227, 272, true, true},
		{0, 0.5, 0, 0, false, false},
	}
	for _, tt := range tests {
		low, lowOK, high, highOK := QuantileCIRanks(tt.n, tt.q)
		if lowOK != tt.lowOK || highOK != tt.highOK || (lowOK && low != tt.low) || (highOK && high != tt.high) {
			t.Errorf("QuantileCIRanks(%d, %g) = %d %v, %d %v; want %d %v, %d %v",
				tt.n, tt.q, low, lowOK, high, highOK, tt.low, tt.lowOK, tt.high, tt.highOK)
		}
	}
}

// For large n the exact ranks approach the normal approximation
// nq ∓ 1.96·√(nq(1−q)) (1-based): for n = 10⁶, q = 0.5, √(nq(1−q)) = 500,
// so about 499020 and 500980.
func TestQuantileCIRanksLargeN(t *testing.T) {
	low, lowOK, high, highOK := QuantileCIRanks(1_000_000, 0.5)
	if !lowOK || !highOK || math.Abs(float64(low+1)-499020) > 2 || math.Abs(float64(high+1)-500980) > 2 {
		t.Errorf("QuantileCIRanks(1e6, 0.5) = %d, %d (0-based); want about 499019, 500979", low, high)
	}
}

func TestSummarize(t *testing.T) {
	s, ok := summarize([]float64{10, 3, 1, 4, 2}) // unsorted on purpose
	if !ok {
		t.Fatal("summarize reported no samples")
	}
	// mean = 20/5 = 4; population variance = (9+4+1+0+36)/5 = 10.
	want := []float64{4, math.Sqrt(10), 1, 10}
	got := []float64{s.mean, s.std, s.min, s.max}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("mean/std/min/max[%d] = %g, want %g", i, got[i], want[i])
		}
	}
	// p50 = 3, p90 = 7.6, p95 = 8.8, p99 = 9.76, p99.9 = 9.976 (see TestQuantileType7).
	for i, w := range []float64{3, 7.6, 8.8, 9.76, 9.976} {
		if math.Abs(s.percentiles[i]-w) > 1e-9 {
			t.Errorf("%s = %g, want %g", percentileKeys[i].key, s.percentiles[i], w)
		}
	}
	// n = 5, B ~ Binomial(5, q) samples below the true quantile. Median:
	// P(B=0) = P(B=5) = 1/32 > 0.025, no bound. Upper bounds: P(B=5) = q⁵ >
	// 0.025 for q ≥ 0.9, none. Lower bounds, largest l with P(B ≤ l−1) ≤ 0.025:
	// p90: P(B≤2) = 0.00856, P(B≤3) = 0.0815 → X(3) = 3;
	// p95: P(B≤3) = 10·0.95³·0.05² + P(B≤2) = 0.02143 + 0.00116 = 0.02259,
	//      P(B≤4) = 1 − 0.95⁵ = 0.226 → X(4) = 4;
	// p99: P(B≤3) ≈ 0.00098, P(B≤4) = 1 − 0.99⁵ = 0.049 → X(4) = 4;
	// p99.9: P(B≤4) = 1 − 0.999⁵ = 0.00499 → X(5) = 10.
	wantLow := []any{"nil", 3.0, 4.0, 4.0, 10.0}
	for i := range percentileKeys {
		if deref(s.ciLow[i]) != wantLow[i] || s.ciHigh[i] != nil {
			t.Errorf("%s CI = %v, %v; want %v, nil", percentileKeys[i].key, deref(s.ciLow[i]), deref(s.ciHigh[i]), wantLow[i])
		}
	}
	if _, ok := summarize(nil); ok {
		t.Error("summarize(nil) reported statistics")
	}
}

func TestSummarizeCIValues(t *testing.T) {
	// Samples 1…100 in reverse: the median's CI is X(40), X(61) (1-based),
	// so [40, 61]; p99's lower bound X(97) = 97, no upper bound.
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i)
	}
	s, _ := summarize(xs)
	if s.ciLow[0] == nil || *s.ciLow[0] != 40 || s.ciHigh[0] == nil || *s.ciHigh[0] != 61 {
		t.Errorf("p50 CI = %v, %v; want 40, 61", deref(s.ciLow[0]), deref(s.ciHigh[0]))
	}
	if s.ciLow[3] == nil || *s.ciLow[3] != 97 || s.ciHigh[3] != nil {
		t.Errorf("p99 CI = %v, %v; want 97, none", deref(s.ciLow[3]), deref(s.ciHigh[3]))
	}
}

// deref formats an optional value for error messages.
func deref(p *float64) any {
	if p == nil {
		return "nil"
	}
	return *p
}
