package parallel

import "testing"

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
