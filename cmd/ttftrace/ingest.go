package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"

	"github.com/ttftrace/ttftrace/ingest"
)

// maxRejectsShown is how many rejects --strict prints before giving up.
const maxRejectsShown = 10

// ingestMemoryLimit is the soft memory limit, in bytes, `ttftrace ingest`
// runs under unless GOMEMLIMIT sets one. Ingest's live memory is bounded by
// design (blocks in flight, the duplicate window, the open part files:
// ~150 MB whatever the input); the limit keeps Go's collector from letting
// garbage double it (peak RSS 434 -> 218 MB on a 1 GB nginx log, CPU +6%).
// It is soft: a run that needs more still gets it.
const ingestMemoryLimit = 200 << 20

// softMemoryLimit sets limit unless one is set (GOMEMLIMIT), and returns
// how to restore the previous one.
func softMemoryLimit(limit int64) (restore func()) {
	old := debug.SetMemoryLimit(-1)
	if old != math.MaxInt64 {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// runIngest decodes the inputs and appends them to the dataset named by -o.
// Nothing is written when an input cannot be read (exit 1) or, under
// --strict, when any record was rejected (exit 3).
func (c *cli) runIngest(args []string) int {
	o, err := parseIngest(args)
	if err != nil {
		return c.fail("ingest", err)
	}
	defer softMemoryLimit(ingestMemoryLimit)()
	dopts, err := o.Input.driverOptions()
	if err != nil {
		return c.fail("ingest", err)
	}
	dopts.Stdin, dopts.Formats = c.stdin, c.formatTable()
	if o.Input.Format != "" && !hasFormat(dopts.Formats, o.Input.Format) {
		return c.fail("ingest", usagef("unknown --format %q (ttftrace formats lists them)", o.Input.Format))
	}
	if f, ok := c.stderr.(*os.File); ok && !o.Quiet && isTerminal(f) {
		dopts.Progress = f
	}
	dopts.Dataset = o.Output
	res, err := ingest.Run(o.Inputs, dopts)
	if err != nil {
		return c.fail("ingest", err)
	}
	if !o.Quiet {
		ingest.WriteSummary(c.stderr, res.Inputs)
	}
	if status := c.checkIngest(res, o.Strict, o.Quiet); status != exitOK {
		res.Discard()
		return status
	}
	files, err := res.Write(o.Output)
	if err != nil {
		return c.fail("ingest", err)
	}
	if !o.Quiet {
		fmt.Fprintf(c.stderr, "wrote %d events in %d files to %s\n", res.Records, len(files), o.Output)
	}
	return exitOK
}

// checkIngest returns exit 1 when an input could not be read and exit 3
// under --strict when a record was rejected, printing why.
func (c *cli) checkIngest(res *ingest.Result, strict, quiet bool) int {
	if failed := res.Failed(); len(failed) > 0 {
		if quiet { // the summary, which names them, was not printed
			for _, in := range failed {
				fmt.Fprintf(c.stderr, "%s: %s\n", in.Path, *in.Error)
			}
		}
		fmt.Fprintf(c.stderr, "ttftrace ingest: %d of %d inputs could not be read; nothing written\n", len(failed), len(res.Inputs))
		return exitFailure
	}
	if n := res.RejectedCount(); strict && n > 0 {
		for i, r := range res.Rejects {
			if i == maxRejectsShown {
				fmt.Fprintf(c.stderr, "…\n")
				break
			}
			fmt.Fprintf(c.stderr, "%s:%d: %s: %s\n", r.File, r.Line, r.Reason, r.Detail)
		}
		fmt.Fprintf(c.stderr, "ttftrace ingest: %d records rejected under --strict; nothing written\n", n)
		return exitRejected
	}
	return exitOK
}

// isTerminal reports whether f is a terminal (a character device); progress
// bars are drawn only there.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func hasFormat(table []ingest.Format, name string) bool {
	for _, f := range table {
		if f.Name() == name {
			return true
		}
	}
	return false
}
