package reconcile

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortEdges checks sortEdges against slices.SortFunc with the full
// order, on edges listed as timeEdges lists them (outers in order, each
// one's by slack and inner, end-only ones after) and shuffled, with slacks
// drawn from a few values so that many are equal.
func TestSortEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 1000, 40_000} {
		var edges []timeEdge
		for o := int32(0); len(edges) < n; o++ {
			var best []timeEdge
			for k := rng.IntN(4); k > 0; k-- {
				best = append(best, timeEdge{o: o, i: rng.Int32N(500), slack: int64(rng.IntN(40)) * 1000})
			}
			slices.SortFunc(best, func(x, y timeEdge) int {
				return compareEdges(timeEdge{slack: x.slack, i: x.i}, timeEdge{slack: y.slack, i: y.i})
			})
			if rng.IntN(3) == 0 { // an end-only edge after the outer's others
				best = append(best, timeEdge{o: o, i: 500 + rng.Int32N(50), slack: int64(rng.IntN(40)) * 1000, endOnly: true})
			}
			edges = append(edges, best...)
		}
		edges = edges[:n]
		for _, order := range []string{"listed", "shuffled"} {
			if order == "shuffled" {
				rng.Shuffle(n, func(a, b int) { edges[a], edges[b] = edges[b], edges[a] })
			}
			want := slices.Clone(edges)
			slices.SortFunc(want, compareEdges)
			got := slices.Clone(edges)
			sortEdges(got)
			if !slices.Equal(got, want) {
				t.Errorf("%d edges, %s: not in the order of slack, outer, inner", n, order)
			}
		}
	}
}

// TestGroupBy checks that every item's list holds exactly the items with
// its key, in item order, on keys from a small and a wide range.
func TestGroupBy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, span := range []int32{1, 7, 1 << 30} {
		for _, n := range []int{0, 1, 300} {
			keys := make([]int32, n)
			for k := range keys {
				keys[k] = rng.Int32N(span)
			}
			g := groupBy(n, func(k int) int32 { return keys[k] })
			for item := range n {
				var want []int32
				for k, key := range keys {
					if key == keys[item] {
						want = append(want, int32(k))
					}
				}
				if got := g.list(item); !slices.Equal(got, want) {
					t.Fatalf("span %d, %d items: item %d lists %v, want %v", span, n, item, got, want)
				}
			}
		}
	}
}

// TestFirstStartFrom checks the galloping search against a binary search
// over all candidates, from every hint, on starts with repeats.
func TestFirstStartFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 9, 100} {
		ins := make([]timeCand, n)
		for k := range ins {
			ins[k].start = int64(rng.IntN(60))
		}
		slices.SortFunc(ins, func(x, y timeCand) int { return int(x.start - y.start) })
		for hint := 0; hint <= n+1; hint++ {
			for target := int64(-2); target <= 62; target++ {
				want, _ := slices.BinarySearchFunc(ins, target, func(c timeCand, t int64) int { return int(c.start - t) })
				if got := firstStartFrom(ins, hint, target); got != want {
					t.Fatalf("%d candidates, hint %d, start %d: %d, want %d", n, hint, target, got, want)
				}
			}
		}
	}
}
