package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForParts checks that ForParts visits every index once, in parts of
// the given size, whatever the workers.
func TestForParts(t *testing.T) {
	for _, c := range []struct{ n, size, workers, part, parts int }{
		{0, 4, 2, 0, 0}, {1, 4, 2, 0, 1}, {10, 4, 3, 0, 3}, {12, 4, 1, 0, 3}, {10, 4, 2, 1, 10}, {10, 1, 8, 3, 4},
	} {
		pl := Split{c.workers, c.part}
		if got := pl.PartCount(c.n, c.size); got != c.parts {
			t.Errorf("%+v: %d parts, want %d", c, got, c.parts)
		}
		seen := make([]int, c.n)
		bounds := make([][2]int, c.parts)
		pl.ForParts(c.n, c.size, func(k, from, to int) {
			bounds[k] = [2]int{from, to}
			for i := from; i < to; i++ {
				seen[i]++
			}
		})
		for i, v := range seen {
			if v != 1 {
				t.Errorf("%+v: index %d visited %d times", c, i, v)
			}
		}
		for k := 1; k < c.parts; k++ {
			if bounds[k][0] != bounds[k-1][1] {
				t.Errorf("%+v: part %d starts at %d, part %d ended at %d", c, k, bounds[k][0], k-1, bounds[k-1][1])
			}
		}
	}
}

// TestForEach checks that ForEach calls every index once, and that no two
// calls running at once are given the same worker number.
func TestForEach(t *testing.T) {
	for _, c := range []struct{ n, workers, count int }{{0, 2, 0}, {1, 4, 1}, {5, 2, 2}, {100, 3, 3}, {7, 16, 7}} {
		pl := Split{Workers: c.workers}
		if got := pl.WorkerCount(c.n); got != c.count {
			t.Errorf("%+v: %d workers, want %d", c, got, c.count)
		}
		seen := make([]atomic.Int32, c.n)
		busy := make([]atomic.Int32, max(c.count, 1))
		pl.ForEach(c.n, func(w, i int) {
			if w < 0 || w >= c.count {
				t.Errorf("%+v: worker %d", c, w)
				return
			}
			if busy[w].Add(1) != 1 {
				t.Errorf("%+v: worker %d runs two calls at once", c, w)
			}
			seen[i].Add(1)
			runtime.Gosched()
			busy[w].Add(-1)
		})
		for i := range seen {
			if v := seen[i].Load(); v != 1 {
				t.Errorf("%+v: index %d called %d times", c, i, v)
			}
		}
	}
}
