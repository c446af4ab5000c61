// Package parallel is the one place analysis runs concurrently: analyze's
// independent tasks (reconciliation, each source's figures) and
// reconciliation's split loops (id lookups, clock bounds, time candidates)
// both run here. Every task or part writes only its own results, which the
// caller merges in task or part order: the output does not depend on the
// workers' scheduling or number.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// RunTasks runs tasks on up to workers goroutines (0: GOMAXPROCS), taking
// them in order, and waits for all. Running at most a few at once bounds
// the memory their working data take together: the largest tasks
// (reconciliation first) start first.
func RunTasks(tasks []func(), workers int) {
	Split{Workers: workers}.ForEach(len(tasks), func(_, i int) { tasks[i]() })
}

// WorkerCount is how many goroutines ForEach runs n calls on: Workers (0:
// GOMAXPROCS), at most n.
func (pl Split) WorkerCount(n int) int {
	workers := pl.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return min(workers, n)
}

// ForEach calls fn(w, i) for every i in [0, n), taking them in order, on
// WorkerCount(n) goroutines, and returns once all are done; w is the
// calling goroutine's number (below WorkerCount(n)), so that fn can reuse
// scratch memory of its own from call to call. fn must write only i's
// results (and w's scratch).
func (pl Split) ForEach(n int, fn func(w, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range pl.WorkerCount(n) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				fn(w, int(i))
			}
		})
	}
	wg.Wait()
}

// Split is how a loop is split: on up to Workers goroutines (0:
// GOMAXPROCS), in parts of the size its caller gives, or of Part when
// set (tests set it small, so that small inputs are split too).
type Split struct{ Workers, Part int }

// PartCount is how many parts ForParts splits n indices into given size:
// it depends on n and the sizes only, never on the workers, so that results
// merged by part are the same on any machine.
func (pl Split) PartCount(n, size int) int {
	size = pl.PartSize(size)
	return (n + size - 1) / size
}

// PartSize is the size of ForParts' parts given size: Part when set.
func (pl Split) PartSize(size int) int {
	if pl.Part > 0 {
		return pl.Part
	}
	return size
}

// ForParts calls fn(k, from, to) for every part k of [0, n) (indices from
// to to−1; PartCount(n, size) parts of consecutive indices, all of one
// size but the last), on up to pl.Workers goroutines, and returns once all
// are done. fn must write only part k's results.
func (pl Split) ForParts(n, size int, fn func(k, from, to int)) {
	parts, size := pl.PartCount(n, size), pl.PartSize(size)
	tasks := make([]func(), parts)
	for k := range tasks {
		tasks[k] = func() { fn(k, k*size, min(n, (k+1)*size)) }
	}
	if parts == 1 {
		tasks[0]()
		return
	}
	RunTasks(tasks, pl.Workers)
}
