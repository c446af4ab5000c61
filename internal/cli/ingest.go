package cli

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
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
	dopts, err := c.inputOptions(&o.Input, o.Inputs)
	if err != nil {
		return c.fail("ingest", err)
	}
	if f, ok := c.stderr.(*os.File); ok && !o.Quiet && isTerminal(f) {
		dopts.Progress = f
	}
	w, err := c.openDataset("ingest", o.Output, o.NoWait, o.Quiet)
	if err != nil {
		return c.fail("ingest", err)
	}
	defer w.Close()
	res, status := c.ingestInto("ingest", w, o.Inputs, dopts, o.commonFlags, false)
	if status != exitOK || res == nil {
		return status
	}
	c.printWarnings("ingest", analyze.InputWarnings(res.Inputs))
	c.sayf(o.Quiet, "wrote %d events in %d files to %s\n", res.Records, res.Files, o.Output)
	return exitOK
}

// openDataset takes the writer lock of the dataset folder dir, saying on
// standard error when it waits for another writer and when it removed what
// an interrupted ingest left.
func (c *cli) openDataset(cmd, dir string, noWait, quiet bool) (*dataset.Writer, error) {
	w, err := dataset.OpenWriter(dir, dataset.WriterOptions{NoWait: noWait, Fault: c.fault, Waiting: func(lock string) {
		fmt.Fprintf(c.stderr, "ttftrace %s: another ingest is writing %s; waiting for it to finish (lock %s; --no-wait fails instead)\n", cmd, dir, lock)
	}})
	if err == nil && len(w.Removed) > 0 {
		c.sayf(quiet, "ttftrace %s: removed %d files left by an interrupted ingest in %s\n", cmd, len(w.Removed), dir)
	}
	return w, err
}

// ingestResult is what ingestInto committed: the result and the number of
// part files written.
type ingestResult struct {
	*ingest.Result
	Files int
}

// ingestInto decodes the inputs into the dataset w holds and commits them,
// printing the summary (with summaryLater, only when the ingest fails: the
// caller prints it once it knows the hosts the records carry). It returns
// the exit status, and a nil result when nothing was committed because every
// input was already in the dataset.
func (c *cli) ingestInto(cmd string, w *dataset.Writer, inputs []string, dopts ingest.DriverOptions, o commonFlags, summaryLater bool) (*ingestResult, int) {
	dopts.Dataset, dopts.Known = w.Dir(), w.Inputs()
	res, err := ingest.Run(inputs, dopts)
	if err != nil {
		return nil, c.fail(cmd, err)
	}
	if !summaryLater {
		c.summary(res.Inputs, ingest.RecordHosts(res.Events), o.Quiet)
	}
	for _, in := range res.Inputs {
		if in.Span != nil && in.Span.Start > 0 {
			c.sayf(o.Quiet, "%s: grown since the last ingest, read from byte %d (line %d)\n", in.Path, in.Span.Start, in.Span.StartLine+1)
		}
	}
	for _, k := range res.Known {
		c.sayf(o.Quiet, "%s: already in %s (its %d bytes were read as %s), nothing added\n", k.Path, w.Dir(), k.Committed.Span.End, k.Committed.Path)
	}
	status := c.checkIngest(cmd, res, o.Strict, o.Quiet)
	if status == exitOK {
		status = c.checkRecords(cmd, res, dopts)
	}
	if status != exitOK {
		if summaryLater {
			c.summary(res.Inputs, nil, o.Quiet)
		}
		res.Discard()
		return nil, status
	}
	if len(res.Inputs) == 0 {
		res.Discard()
		return nil, exitOK
	}
	files, err := res.Write(w)
	if err != nil {
		return nil, c.fail(cmd, err)
	}
	return &ingestResult{res, len(files)}, exitOK
}

// checkIngest returns exit 1 when an input could not be read and exit 3
// under --strict when a record was rejected, printing why.
func (c *cli) checkIngest(cmd string, res *ingest.Result, strict, quiet bool) int {
	if failed := res.Failed(); len(failed) > 0 {
		if quiet { // the summary, which names them, was not printed
			for _, in := range failed {
				fmt.Fprintf(c.stderr, "%s: %s\n", in.Path, *in.Error)
			}
		}
		fmt.Fprintf(c.stderr, "ttftrace %s: %d of %d inputs could not be read; nothing written\n", cmd, len(failed), len(res.Inputs))
		return exitFailure
	}
	if n := res.RejectedCount(); strict && n > 0 {
		for i, r := range res.Rejects {
			if i == maxRejectsShown {
				fmt.Fprintf(c.stderr, "…\n")
				break
			}
			fmt.Fprintf(c.stderr, "%s: %s: %s\n", rejectAt(r), r.Reason, r.Detail)
		}
		fmt.Fprintf(c.stderr, "ttftrace %s: %d records rejected under --strict; nothing written\n", cmd, n)
		return exitRejected
	}
	return exitOK
}

// rejectAt returns where r lies as "file:line:column", or "file:line"
// when its format gave no column (and in commit logs written before
// rejects carried one).
func rejectAt(r schema.Reject) string {
	return r.File + ":" + decode.Pos{Line: r.Line, Col: r.Column}.String()
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

// summary prints one row per input on standard error unless quiet, naming
// the hosts of hosts[path] where known, else the input's default host.
func (c *cli) summary(inputs []schema.InputStats, hosts map[string][]string, quiet bool) {
	if !quiet && len(inputs) > 0 {
		ingest.WriteSummary(c.stderr, inputs, hosts)
	}
}
