// Command arrowread measures reading a ttftrace dataset with arrow-go/v18's
// pqarrow against ttftrace's own reader (parquet-go pages), the comparison
// issue 5 asked for before choosing a Parquet reader for analysis. It lives
// in its own module so the main module does not depend on arrow-go.
//
//	go run . DATASET [ROUNDS]
//
// It prints, for each reader, the best wall time of ROUNDS (default 5) full
// reads of every data file (all columns, one file after another on one
// goroutine) and the rows read.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/ttftrace/ttftrace/dataset"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: arrowread DATASET [ROUNDS]")
		os.Exit(2)
	}
	rounds := 5
	if len(os.Args) > 2 {
		rounds, _ = strconv.Atoi(os.Args[2])
	}
	files, err := dataset.DataFiles(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bytes := int64(0)
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			bytes += st.Size()
		}
	}
	fmt.Printf("%d files, %.1f MB of Parquet\n", len(files), float64(bytes)/1e6)
	report("ttftrace (parquet-go pages)", rounds, func() (int64, error) { return readOwn(files) })
	report("arrow-go/v18 pqarrow", rounds, func() (int64, error) { return readArrow(files) })
}

// report prints the best wall and CPU time (user + system, all threads)
// of rounds runs of read; on a busy machine the CPU time is the steadier.
func report(name string, rounds int, read func() (int64, error)) {
	best, bestCPU := time.Duration(1<<63-1), time.Duration(1<<63-1)
	var rows int64
	for range rounds {
		runtime.GC()
		t0, c0 := time.Now(), cpuTime()
		n, err := read()
		if err != nil {
			fmt.Fprintln(os.Stderr, name+":", err)
			os.Exit(1)
		}
		best, bestCPU, rows = min(best, time.Since(t0)), min(bestCPU, cpuTime()-c0), n
	}
	fmt.Printf("%-30s wall %8.1f ms  cpu %8.1f ms  %d rows\n", name,
		float64(best.Microseconds())/1000, float64(bestCPU.Microseconds())/1000, rows)
}

// cpuTime returns the process's user + system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readOwn reads the files one by one with ttftrace's reader, into Events.
func readOwn(files []string) (int64, error) {
	var rows int64
	for _, f := range files {
		evs, err := dataset.ReadEvents(f)
		if err != nil {
			return 0, err
		}
		rows += int64(len(evs))
	}
	return rows, nil
}

// readArrow reads the files one by one into Arrow tables (every column).
func readArrow(files []string) (int64, error) {
	var rows int64
	for _, f := range files {
		r, err := file.OpenParquetFile(filepath.Clean(f), false)
		if err != nil {
			return 0, err
		}
		fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{Parallel: false, BatchSize: 64 << 10}, memory.DefaultAllocator)
		if err != nil {
			r.Close()
			return 0, err
		}
		tbl, err := fr.ReadTable(context.Background())
		if err != nil {
			r.Close()
			return 0, err
		}
		rows += tbl.NumRows()
		tbl.Release()
		r.Close()
	}
	return rows, nil
}
