package analyze

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortFloatsMatchesSlicesSort compares sortFloats with slices.Sort bit
// for bit on shapes analysis sees (latencies in ms, wide ranges, negatives,
// repeats, infinities) and on the NaN and −0 inputs it hands to slices.Sort.
func TestSortFloatsMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	gens := map[string]func() float64{
		"latency ms": func() float64 { return 20 + rng.ExpFloat64()*200 },
		"wide":       func() float64 { return math.Ldexp(rng.Float64(), rng.IntN(200)-100) },
		"signed":     func() float64 { return rng.NormFloat64() * 1e3 },
		"repeats":    func() float64 { return float64(rng.IntN(5)) },
		"inf":        func() float64 { return []float64{math.Inf(1), math.Inf(-1), 1, -1, 0}[rng.IntN(5)] },
		"nan":        func() float64 { return []float64{math.NaN(), 2, -3}[rng.IntN(3)] },
		"neg zero":   func() float64 { return []float64{math.Copysign(0, -1), 0, 1}[rng.IntN(3)] },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, radixMin - 1, radixMin, 5000, msdMin, 200_000} {
			got := make([]float64, n)
			for i := range got {
				got[i] = gen()
			}
			want := slices.Clone(got)
			slices.Sort(want)
			sortFloats(got)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s n=%d: [%d] = %v, slices.Sort gives %v", name, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSelectInts compares selectInts with the sorted slice's values at
// several positions, on random, sorted, reversed, constant, few-valued and
// organ-pipe inputs (the shapes that make a naive quickselect quadratic).
func TestSelectInts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := map[string]func(i, n int) int64{
		"random":     func(int, int) int64 { return int64(rng.Uint64()) >> uint(rng.IntN(64)) },
		"sorted":     func(i, _ int) int64 { return int64(i) },
		"reversed":   func(i, n int) int64 { return int64(n - i) },
		"constant":   func(int, int) int64 { return -7 },
		"few":        func(int, int) int64 { return int64(rng.IntN(3)) - 1 },
		"organ pipe": func(i, n int) int64 { return int64(min(i, n-i)) },
	}
	for name, gen := range shapes {
		for _, n := range []int{1, 2, 17, 100, 1000, 100_000} {
			xs := make([]int64, n)
			for i := range xs {
				xs[i] = gen(i, n)
			}
			want := slices.Clone(xs)
			slices.Sort(want)
			at := func(q float64) int { return int(q * float64(n-1)) }
			ks := []int{0, at(0.01), at(0.25), at(0.5), at(0.5), at(0.75), n - 1 - n/100, n - 1}
			slices.Sort(ks)
			got := selectInts(xs, ks...)
			for j, k := range ks {
				if got[j] != want[k] {
					t.Fatalf("%s n=%d: position %d is %d, sorting gives %d", name, n, k, got[j], want[k])
				}
			}
			slices.Sort(xs)
			if !slices.Equal(xs, want) {
				t.Fatalf("%s n=%d: selectInts lost or changed values", name, n)
			}
		}
	}
}
