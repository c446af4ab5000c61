package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// checkMap decodes an empty input as the generic jsonl format with the
// --map value, so that a mapping the format refuses is a usage error
// (exit 2) before anything is read, not every input's failure.
func checkMap(m string) error {
	if m == "" {
		return nil
	}
	f, ok := ingest.Lookup("jsonl")
	if !ok {
		return nil
	}
	if err := f.Decode(&ingest.Input{R: strings.NewReader(""), Name: "--map", Opts: ingest.Options{Map: m}}, nopSink{}); err != nil {
		if strings.Contains(err.Error(), "--map") {
			return usagef("%v", err)
		}
		return usagef("--map: %v", err)
	}
	return nil
}

// nopSink is a Sink for checkMap's empty input, which gives no record.
type nopSink struct{}

func (nopSink) Event(int64, []byte, *schema.Event) {}
func (nopSink) Skip(int64, string)                 {}
func (nopSink) Reject(decode.Pos, string, string)  {}

// checkStdin refuses "-" when standard input is a terminal: ttftrace would
// wait, silently, for a log typed by hand.
func (c *cli) checkStdin(inputs []string) error {
	if !slices.Contains(inputs, ingest.StdinName) || !c.stdinIsTerminal() {
		return nil
	}
	return usagef("- reads standard input, which is a terminal: pipe a log into it (zcat access.log.gz | ttftrace … -) or name the files")
}

// stdinIsTerminal reports whether standard input is a terminal: a character
// device other than /dev/null. Tests set c.terminal instead.
func (c *cli) stdinIsTerminal() bool {
	if c.terminal != nil {
		return c.terminal()
	}
	f, ok := c.stdin.(*os.File)
	if !ok || !isTerminal(f) {
		return false
	}
	in, err1 := f.Stat()
	null, err2 := os.Stat(os.DevNull)
	return err1 != nil || err2 != nil || !os.SameFile(in, null)
}

// checkRecords fails (exit 1) an ingest whose result would be empty or
// meaningless: an input with lines but no record kept (a forced --format
// that does not fit, a log of another kind), or no record at all over
// every input (empty files, empty standard input). It prints why. An input
// read from where the last ingest stopped (a grown log) may well have
// nothing new but skips: it is never a failure.
func (c *cli) checkRecords(cmd string, res *ingest.Result, dopts ingest.DriverOptions) int {
	bad, resumed := 0, false
	for _, in := range res.Inputs {
		if in.Span != nil && in.Span.Start > 0 {
			resumed = true
			continue
		}
		if in.Error == nil && in.Records == 0 && in.Duplicates == 0 && (in.Read > 0 || spanBytes(in) > 0) {
			fmt.Fprintf(c.stderr, "%s\n", noRecordReason(in, dopts))
			bad++
		}
	}
	if bad > 0 {
		fmt.Fprintf(c.stderr, "ttftrace %s: %d of %d inputs gave no request record; nothing written\n", cmd, bad, len(res.Inputs))
		return exitFailure
	}
	if res.Records == 0 && len(res.Inputs) > 0 && allDuplicates(res.Inputs) == 0 && !resumed {
		fmt.Fprintf(c.stderr, "ttftrace %s: no request record in %s; nothing written\n", cmd, inputNames(res.Inputs))
		return exitFailure
	}
	return exitOK
}

// spanBytes is the number of bytes of the input read, 0 when unknown.
func spanBytes(in schema.InputStats) int64 {
	if in.Span == nil {
		return 0
	}
	return in.Span.End - in.Span.Start
}

// noRecordReason says why an input with lines gave no record and what to
// do.
func noRecordReason(in schema.InputStats, dopts ingest.DriverOptions) string {
	format := dopts.Format
	what := fmt.Sprintf("%s records rejected (%s)", analyze.Grouped(in.Rejected), analyze.TopReasons(in.RejectsByReason, 5))
	switch {
	case in.Read == 0:
		what = fmt.Sprintf("%s bytes, no record found", analyze.Grouped(spanBytes(in)))
	case in.Rejected == 0:
		what = fmt.Sprintf("%s lines skipped as no request record", analyze.Grouped(in.Skipped))
	}
	if format != "" {
		return fmt.Sprintf("%s: --format %s fits none of it (%s): leave --format out to sniff the format, or name the right one (ttftrace formats)",
			in.Path, format, what)
	}
	return fmt.Sprintf("%s: read as %s, no request record kept (%s): check it is a request log, give --format or --log-format",
		in.Path, in.Format, what)
}

func allDuplicates(inputs []schema.InputStats) int64 {
	var n int64
	for _, in := range inputs {
		n += in.Duplicates
	}
	return n
}

// inputNames names the inputs, "standard input" for "-", at most 3.
func inputNames(inputs []schema.InputStats) string {
	var names []string
	for i, in := range inputs {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(inputs)-3))
			break
		}
		name := in.Path
		if name == ingest.StdinName {
			name = "standard input"
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}

// inputOptions turns the input flags into the driver's options for the
// inputs, checking what can be checked before reading: --format names a
// format, --map and --host are valid, "-" is not a terminal.
func (c *cli) inputOptions(f *inputFlags, inputs []string) (ingest.DriverOptions, error) {
	dopts, err := f.driverOptions(inputs)
	if err != nil {
		return dopts, err
	}
	dopts.Stdin, dopts.Formats = c.stdin, c.formatTable()
	if f.Format != "" && !hasFormat(dopts.Formats, f.Format) {
		return dopts, usagef("unknown --format %q (ttftrace formats lists them)", f.Format)
	}
	return dopts, c.checkStdin(inputs)
}

// printWarnings prints the warnings on standard error, also under -q.
func (c *cli) printWarnings(cmd string, ws []analyze.Warning) {
	for _, w := range ws {
		fmt.Fprintf(c.stderr, "ttftrace %s: warning: %s\n", cmd, w.Message)
	}
}
