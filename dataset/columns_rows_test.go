package dataset

import (
	"math/rand/v2"
	"testing"
)

// TestAddValues appends row groups of every alignment, with words all
// present, all null and mixed, through addValues, and compares each row,
// and the column's words, with the same rows appended one at a time.
func TestAddValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var got, want ColumnsNullable[int64]
	for group := range 200 {
		n := rng.IntN(300)
		present := []float64{0, 1, 0.5, 0.97}[group%4] // a word of 64 rows all present or all null, and mixed
		var vals []int64
		at := make([]int32, n)
		for r := range at {
			at[r] = -1
			if rng.Float64() < present {
				at[r] = int32(len(vals))
				vals = append(vals, rng.Int64())
			}
		}
		addValues(&got, vals, at)
		for _, k := range at {
			want.addAt(vals, k)
		}
	}
	if got.rows != want.rows || len(got.Values) != len(want.Values) || len(got.present) != len(want.present) {
		t.Fatalf("rows %d, values %d, words %d; want %d, %d, %d", got.rows, len(got.Values), len(got.present),
			want.rows, len(want.Values), len(want.present))
	}
	for w := range want.present {
		if got.present[w] != want.present[w] || got.rank[w] != want.rank[w] {
			t.Fatalf("word %d: %x rank %d, want %x rank %d", w, got.present[w], got.rank[w], want.present[w], want.rank[w])
		}
	}
	for i := range want.rows {
		g, gok := got.Get(i)
		w, wok := want.Get(i)
		if g != w || gok != wok {
			t.Fatalf("row %d: %d %v, want %d %v", i, g, gok, w, wok)
		}
	}
}
