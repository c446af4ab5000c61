package reconcile

import (
	"math/rand/v2"
	"slices"
	"testing"
)

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
			want, orig := slices.Clone(xs), slices.Clone(xs)
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
			for _, k := range ks { // one position at a time: pivotFor's sampled pivots
				if got := selectInts(slices.Clone(orig), k)[0]; got != want[k] {
					t.Fatalf("%s n=%d alone: position %d is %d, sorting gives %d", name, n, k, got, want[k])
				}
			}
		}
	}
}
