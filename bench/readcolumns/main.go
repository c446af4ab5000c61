// Command readcolumns times dataset.ReadColumns alone on a dataset, with
// the options analyze reads with: wall and CPU seconds (user + system) and
// the rows read. bench/PERF.md's reading figures come from it.
//
//	go run ./bench/readcolumns DATASET
package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/dataset"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: readcolumns DATASET")
		os.Exit(2)
	}
	snap, err := dataset.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "readcolumns:", err)
		os.Exit(1)
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c0, t0 := cpu(), time.Now()
	c, err := dataset.ReadColumns(snap.Files, analyze.ColumnsOptions(analyze.Options{}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "readcolumns:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d rows: %.3f s wall, %.3f s CPU\n", len(snap.Files), c.Rows, time.Since(t0).Seconds(), (cpu() - c0).Seconds())
}
