package reconcile

import "github.com/ttftrace/ttftrace/analyze/internal/order"

// selectInts returns the values sorting xs would put at the positions ks
// (ascending, each in [0, len(xs)); repeats allowed), reordering xs in
// place instead of sorting it (order.Select). The clock estimates need a
// few order statistics of each host pair's bounds: this costs about 2n
// comparisons where the radix sort took eight passes and a scratch copy.
func selectInts(xs []int64, ks ...int) []int64 {
	order.Select(xs, ks...)
	out := make([]int64, len(ks))
	for j, k := range ks {
		out[j] = xs[k]
	}
	return out
}
