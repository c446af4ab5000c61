package radix

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortStable sorts records by keys of several widths (one digit
// shared by all, few distinct values, full 64 bits) against
// slices.SortStableFunc, which must give the same order, equal keys
// included.
func TestSortStable(t *testing.T) {
	type rec struct {
		key uint64
		at  int
	}
	rng := rand.New(rand.NewPCG(7, 11))
	keys := map[string]func() uint64{
		"full":      rng.Uint64,
		"few":       func() uint64 { return uint64(rng.IntN(5)) << 40 },
		"low bits":  func() uint64 { return uint64(rng.IntN(3000)) },
		"one value": func() uint64 { return 1 << 63 },
		"spread":    func() uint64 { return rng.Uint64() >> rng.IntN(64) },
	}
	for name, gen := range keys {
		for _, n := range []int{0, 1, 2, 17, 3000, 50_000} {
			xs := make([]rec, n)
			for i := range xs {
				xs[i] = rec{gen(), i}
			}
			want := slices.Clone(xs)
			slices.SortStableFunc(want, func(a, b rec) int { return cmp.Compare(a.key, b.key) })
			SortStable(xs, make([]rec, n), func(r *rec) uint64 { return r.key })
			if !slices.Equal(xs, want) {
				t.Errorf("%s, %d records: not the stable order", name, n)
			}
		}
	}
}
