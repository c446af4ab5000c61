package analyze

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// This file is the one place analysis runs concurrently. runTasks runs
// independent tasks (reconciliation, each source's figures); forParts runs
// one loop's consecutive parts (reconciliation's id lookups, clock bounds
// and time candidates). Every task or part writes only its own results,
// which the caller merges in task or part order: the output does not
// depend on the workers' scheduling or number.

// runTasks runs tasks on up to workers goroutines (0: GOMAXPROCS), taking
// them in order, and waits for all. Running at most a few at once bounds
// the memory their working data take together: the largest tasks
// (reconciliation first) start first.
func runTasks(tasks []func(), workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(tasks)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(tasks)); i = next.Add(1) - 1 {
				tasks[i]()
			}
		})
	}
	wg.Wait()
}

// parallelism is how a loop is split: on up to workers goroutines (0:
// GOMAXPROCS), in parts of the size its caller gives, or of part when
// set (tests set it small, so that small inputs are split too).
type parallelism struct{ workers, part int }

// partCount is how many parts forParts splits n indices into given size:
// it depends on n and the sizes only, never on the workers, so that results
// merged by part are the same on any machine.
func (pl parallelism) partCount(n, size int) int {
	if pl.part > 0 {
		size = pl.part
	}
	return (n + size - 1) / size
}

// forParts calls fn(k, from, to) for every part k of [0, n) (indices from
// to to−1; partCount(n, size) parts of consecutive indices, all of one
// size but the last), on up to pl.workers goroutines, and returns once all
// are done. fn must write only part k's results.
func (pl parallelism) forParts(n, size int, fn func(k, from, to int)) {
	parts := pl.partCount(n, size)
	if pl.part > 0 {
		size = pl.part
	}
	tasks := make([]func(), parts)
	for k := range tasks {
		tasks[k] = func() { fn(k, k*size, min(n, (k+1)*size)) }
	}
	if parts == 1 {
		tasks[0]()
		return
	}
	runTasks(tasks, pl.workers)
}
