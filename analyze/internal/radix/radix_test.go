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

// TestSortFunc sorts records by a signed key, then a second field, listed
// in the second field's order and shuffled, against slices.SortFunc.
func TestSortFunc(t *testing.T) {
	type rec struct{ key, tie int64 }
	order := func(a, b rec) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.tie, b.tie)) }
	rng := rand.New(rand.NewPCG(5, 9))
	for _, n := range []int{0, 1, 2, 1000, 30_000} {
		xs := make([]rec, n)
		for i := range xs {
			xs[i] = rec{int64(rng.IntN(200) - 100), int64(i)}
		}
		for _, listed := range []bool{true, false} {
			if !listed {
				rng.Shuffle(n, func(a, b int) { xs[a], xs[b] = xs[b], xs[a] })
			}
			want := slices.Clone(xs)
			slices.SortFunc(want, order)
			got := slices.Clone(xs)
			SortFunc(got, func(r *rec) uint64 { return Int64(r.key) }, order)
			if !slices.Equal(got, want) {
				t.Errorf("%d records, listed in order %v: not sorted as slices.SortFunc sorts", n, listed)
			}
		}
	}
}
