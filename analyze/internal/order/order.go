// Package order finds order statistics (the values sorting would put at
// given positions) by selection, reordering a slice in place instead of
// sorting it: the clock estimates' few positions of each host pair's
// bounds, and each time-series window's median and 99th percentile.
package order

import (
	"cmp"
	"math/bits"
	"slices"
)

// Select places at the positions ks (ascending, each in [0, len(xs));
// repeats allowed) the values sorting xs would put there, reordering xs:
// each is found by a three-way partition around a pivot, recursing only
// into the sides holding a wanted position (introselect: after 2·log₂ n
// levels a part is sorted instead, so crafted input costs at most a sort).
// This costs about 2n comparisons where sorting took a radix sort's passes
// or n log n comparisons. xs must hold no NaN, and for floats no −0 next
// to +0 if which of the two lands at a position matters.
func Select[T cmp.Ordered](xs []T, ks ...int) {
	selectIn(xs, 0, ks, 2*bits.Len(uint(len(xs))))
}

// selectIn places the values of the absolute positions ks, all within
// [base, base+len(xs)), where sorting would: xs is the part of the whole
// slice starting at base.
func selectIn[T cmp.Ordered](xs []T, base int, ks []int, depth int) {
	for len(ks) > 0 {
		if len(xs) <= 16 || depth == 0 {
			slices.Sort(xs)
			return
		}
		depth--
		lt, gt := partition3(xs, pivotFor(xs, ks, base))
		left := 0 // ks before base+lt
		for left < len(ks) && ks[left] < base+lt {
			left++
		}
		right := left // ks before base+gt: at the pivot's value, placed
		for right < len(ks) && ks[right] < base+gt {
			right++
		}
		selectIn(xs[:lt], base, ks[:left], depth)
		xs, base, ks = xs[gt:], base+gt, ks[right:]
	}
}

// partition3 reorders xs into values below p, equal to p and above p, and
// returns where the equal ones start and end.
func partition3[T cmp.Ordered](xs []T, p T) (lt, gt int) {
	lt, gt = 0, len(xs)
	for i := 0; i < gt; {
		switch v := xs[i]; {
		case v < p:
			xs[i], xs[lt] = xs[lt], v
			lt++
			i++
		case v > p:
			gt--
			xs[i], xs[gt] = xs[gt], v
		default:
			i++
		}
	}
	return lt, gt
}

// selectSample is how many values of a large part pivotFor looks at.
const selectSample = 64

// pivotFor returns the pivot selectIn partitions xs around (its absolute
// positions base…): for one wanted position in a large part, a value of an
// even sample of xs ranked a little on the near side of that position, so
// that the side holding it is small (the clock bounds want the 1% and 99%
// positions: a median-of-three pivot halved the part at each step, about
// 2n comparisons against n and a little); otherwise the median of three.
func pivotFor[T cmp.Ordered](xs []T, ks []int, base int) T {
	if len(ks) != 1 || len(xs) < 64*selectSample {
		return medianOf3(xs[0], xs[len(xs)/2], xs[len(xs)-1])
	}
	var sample [selectSample]T
	for j := range sample {
		sample[j] = xs[j*(len(xs)/selectSample)]
	}
	slices.Sort(sample[:])
	at := (ks[0] - base) * (selectSample - 1) / (len(xs) - 1)
	if 2*(ks[0]-base) > len(xs) {
		return sample[max(0, at-4)] // below: the wanted value is among the few above
	}
	return sample[min(selectSample-1, at+4)]
}

func medianOf3[T cmp.Ordered](a, b, c T) T {
	return max(min(a, b), min(max(a, b), c))
}
