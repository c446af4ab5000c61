package order

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelect compares Select with the sorted slice's values at several
// positions, on random, sorted, reversed, constant, few-valued and
// organ-pipe inputs (the shapes that make a naive quickselect quadratic),
// as int64s and as float64s.
func TestSelect(t *testing.T) {
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
			orig := slices.Clone(xs)
			at := func(q float64) int { return int(q * float64(n-1)) }
			ks := []int{0, at(0.01), at(0.25), at(0.5), at(0.5), at(0.75), n - 1 - n/100, n - 1}
			slices.Sort(ks)
			checkSelect(t, name, xs, ks)
			floats := make([]float64, n)
			for i, x := range orig {
				floats[i] = float64(x) / 7
			}
			checkSelect(t, name+" (floats)", floats, ks)
		}
	}
}

// checkSelect checks Select on xs at positions ks, all at once and one at
// a time (pivotFor's sampled pivots), against sorting.
func checkSelect[T cmp.Ordered](t *testing.T, name string, xs []T, ks []int) {
	t.Helper()
	want, orig := slices.Clone(xs), slices.Clone(xs)
	slices.Sort(want)
	Select(xs, ks...)
	for _, k := range ks {
		if xs[k] != want[k] {
			t.Fatalf("%s n=%d: position %d is %v, sorting gives %v", name, len(xs), k, xs[k], want[k])
		}
	}
	slices.Sort(xs)
	if !slices.Equal(xs, want) {
		t.Fatalf("%s n=%d: Select lost or changed values", name, len(xs))
	}
	for _, k := range ks {
		one := slices.Clone(orig)
		if Select(one, k); one[k] != want[k] {
			t.Fatalf("%s n=%d alone: position %d is %v, sorting gives %v", name, len(xs), k, one[k], want[k])
		}
	}
}
