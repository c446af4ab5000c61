package parallel

import (
	"runtime"
	"slices"
)

// sortMin is the length below which SortFunc sorts in one piece: the
// merge's copy would cost more than the second core saves.
const sortMin = 1 << 15

// SortFunc sorts xs by cmp, which must be a total order (no two distinct
// elements compare equal), on up to workers goroutines (0: GOMAXPROCS): it
// sorts as many runs in parallel, then merges them pairwise, each merge of a
// level on its own goroutine, through a scratch copy of xs. With a total
// order the result is the one slices.SortFunc gives. The time joins sort
// their candidates and edges (a 5M-request week: 1.4M and 1.6M of them)
// while the other core is often idle.
func SortFunc[E any](xs []E, cmp func(a, b E) int, workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	runs := 1
	for runs < workers && len(xs)/(2*runs) >= sortMin {
		runs *= 2
	}
	if runs == 1 {
		slices.SortFunc(xs, cmp)
		return
	}
	bound := func(k int) int { return k * len(xs) / runs }
	tasks := make([]func(), runs)
	for k := range tasks {
		tasks[k] = func() { slices.SortFunc(xs[bound(k):bound(k+1)], cmp) }
	}
	RunTasks(tasks, workers)
	src, dst := xs, make([]E, len(xs))
	for width := 1; width < runs; width *= 2 {
		tasks = tasks[:0]
		for k := 0; k < runs; k += 2 * width {
			lo, mid, hi := bound(k), bound(min(k+width, runs)), bound(min(k+2*width, runs))
			tasks = append(tasks, func() { merge(dst[lo:hi], src[lo:mid], src[mid:hi], cmp) })
		}
		RunTasks(tasks, workers)
		src, dst = dst, src
	}
	if &src[0] != &xs[0] {
		copy(xs, src)
	}
}

// merge writes the sorted a and b, merged, to dst (len(a)+len(b) long).
func merge[E any](dst, a, b []E, cmp func(a, b E) int) {
	i, j := 0, 0
	for k := range dst {
		if j == len(b) || i < len(a) && cmp(a[i], b[j]) <= 0 {
			dst[k] = a[i]
			i++
		} else {
			dst[k] = b[j]
			j++
		}
	}
}
