// Package radix sorts slices by unsigned integer keys, least significant
// digit first: stable, and in a few passes over the data whatever its
// order, where a comparison sort of millions of records by a random key
// (the time joins' edges by slack) makes tens of passes of unpredictable
// branches.
package radix

import "slices"

// digitBits is the width of a digit: 2,048 counts per digit stay in the
// L1 and L2 caches, and 64-bit keys take at most six passes.
const digitBits = 11

const digits = (64 + digitBits - 1) / digitBits

// SortStable sorts xs by key, ascending, keeping equal keys in their order,
// with tmp (at least as long as xs) as scratch. It counts every digit in
// one pass, then moves the records once per digit on which keys differ.
func SortStable[T any](xs, tmp []T, key func(*T) uint64) {
	if len(xs) < 2 {
		return
	}
	const mask = 1<<digitBits - 1
	var counts [digits][1 << digitBits]int
	for i := range xs {
		k := key(&xs[i])
		for d := range digits {
			counts[d][k>>(d*digitBits)&mask]++
		}
	}
	src, dst := xs, tmp[:len(xs)]
	for d := range digits {
		shift, c := uint(d*digitBits), &counts[d]
		if c[key(&src[0])>>shift&mask] == len(src) {
			continue // every key has this digit
		}
		sum := 0
		for b, n := range c {
			c[b], sum = sum, sum+n
		}
		for i := range src {
			b := key(&src[i]) >> shift & mask
			dst[c[b]] = src[i]
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &xs[0] {
		copy(xs, src)
	}
}

// SortFunc sorts xs by cmp, a total order whose first criterion is key:
// stably by key (SortStable), then each run of equal keys by cmp where it
// is not in order already. Records listed in cmp's order within equal keys
// (as the time joins' and the offset search's are) make that second step
// a check.
func SortFunc[T any](xs []T, key func(*T) uint64, cmp func(a, b T) int) {
	SortStable(xs, make([]T, len(xs)), key)
	for lo := 0; lo < len(xs); {
		k, hi := key(&xs[lo]), lo+1
		for hi < len(xs) && key(&xs[hi]) == k {
			hi++
		}
		if run := xs[lo:hi]; !slices.IsSortedFunc(run, cmp) {
			slices.SortFunc(run, cmp)
		}
		lo = hi
	}
}

// Int64 is the key of v: unsigned, in the order of the signed values.
func Int64(v int64) uint64 { return uint64(v) ^ 1<<63 }
