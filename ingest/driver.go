package ingest

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// DriverOptions are the settings of one ingest call.
type DriverOptions struct {
	// Format is the --format name; empty means sniff each input.
	Format string
	// Host is the --host name given to records that carry none; empty means
	// HostFromPath of each input.
	Host string
	// HostOf, when not nil, names the host of an input (--host PATH=NAME);
	// an empty name falls back to Host, then HostFromPath.
	HostOf func(path string) string
	// Options are handed to every format.
	Options Options
	// LogFormats holds per-format --log-format values (--log-format
	// nginx=@FILE), by format name; a format named here gets its value in
	// place of Options.LogFormat.
	LogFormats map[string]string
	// Stdin is read for the input "-"; nil makes "-" an error.
	Stdin io.Reader
	// Workers is the number of units (blocks of a large line-format input,
	// or whole inputs of other formats) decoded at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when not nil, receives a progress bar (give it a terminal).
	Progress io.Writer
	// Formats is the table to sniff and look up; nil means Formats().
	Formats []Format
	// Dataset, when set, is the dataset folder the events are streamed to:
	// each input's events go to temporary part files there as they are
	// decoded, so memory does not grow with the input, and Result.Write
	// commits them (Result.Discard removes them).
	Dataset string
	// KeepEvents keeps the events in Result.Events as well when Dataset is
	// set (run analyses them); without a Dataset they are always kept.
	KeepEvents bool
	// Known are the inputs the dataset already holds (dataset.Writer's
	// Inputs): a file whose content they hold whole is not read, one that
	// has grown is read from where they end (see incremental.go).
	Known []schema.InputStats
	// resume holds where each grown input starts; set by Run.
	resume map[string]resumePoint
	// BlockBytes is the size of the blocks a line-split input is decoded in
	// (see LineSplitter); 0 means DefaultBlockBytes. The part files depend
	// on it (each block's events go to one of writeStripes writers), not on
	// Workers.
	BlockBytes int
	// DupWindow is the number of records the duplicate check remembers; 0
	// means DupWindow (the constant), which the README documents.
	DupWindow int
}

// Result is what one ingest call read.
type Result struct {
	// Events are the request records kept, in input order then record
	// order, without duplicates (see DriverOptions.KeepEvents). Events of
	// one input may share an equal Attrs map: treat them as read-only.
	Events []schema.Event
	// Records is the number of events kept (without duplicates), whether
	// held in Events or not.
	Records int64
	// Inputs has one entry per input file, in input order.
	Inputs []schema.InputStats
	// Rejects lists every rejected record, in input order then line order.
	Rejects []schema.Reject
	// Known lists the inputs not read because the dataset holds them whole
	// (DriverOptions.Known); they are not in Inputs.
	Known []KnownInput
	// staged are the part files of DriverOptions.Dataset, stripe by stripe
	// (see collector.close).
	staged  []dataset.StagedPart
	dataset string
}

// Failed returns the inputs that could not be read at all.
func (r *Result) Failed() []schema.InputStats {
	var failed []schema.InputStats
	for _, in := range r.Inputs {
		if in.Error != nil {
			failed = append(failed, in)
		}
	}
	return failed
}

// RejectedCount returns the number of rejected records over all inputs.
func (r *Result) RejectedCount() int64 {
	var n int64
	for _, in := range r.Inputs {
		n += in.Rejected
	}
	return n
}

// Run reads the inputs (files, folders, globs, "-"; see ExpandInputs),
// decodes them on every core and returns their counts, rejects and (see
// DriverOptions.KeepEvents) events in a deterministic order: the order of
// the inputs, then of their records. It returns an error when the inputs
// cannot be listed or the --format is unknown; an input that cannot be read
// or whose format is not recognized is reported in its InputStats.Error
// instead, and the others are still read.
//
// An input of a LineSplitter format is decoded in blocks of whole lines in
// parallel; other inputs are decoded whole, several at once. A record whose
// raw bytes repeat one of the DupWindow records before it (of the same
// format, in the call's order) is counted as a duplicate and not kept. With
// a DriverOptions.Dataset, kept events stream to part files as they are
// decoded; memory holds a few blocks and the duplicate window, not the
// input. A large input's blocks alternate between writeStripes writers, so
// a partition's rows are in input order within each part file, not across
// its part files. pipeline.go draws the stages. An input the dataset holds
// whole (DriverOptions.Known) is not read but listed in Result.Known; one
// that has grown is read from where its committed span ends, in blocks
// like any other, with its lines numbered in the file.
func Run(paths []string, opts DriverOptions) (*Result, error) {
	if opts.Formats == nil {
		opts.Formats = Formats()
	}
	if opts.Format != "" && findFormat(opts.Formats, opts.Format) == nil {
		return nil, fmt.Errorf("unknown format %q (ttftrace formats lists them)", opts.Format)
	}
	files, err := ExpandInputs(paths)
	if err != nil {
		return nil, err
	}
	if opts.Stdin == nil && containsStdin(files) {
		return nil, errors.New("standard input (-) is not available")
	}
	var known []KnownInput
	files, opts.resume, known = planInputs(files, opts.Known)
	res := &Result{Inputs: make([]schema.InputStats, len(files)), Known: known, dataset: opts.Dataset}
	keep := opts.Dataset == "" || opts.KeepEvents
	p := &pipeline{opts: opts, prog: newProgress(opts.Progress, files),
		units: make(chan *unit, unitsAhead), work: make(chan *unit), pool: newBatchPool(32, keep)}
	c := newCollector(res, opts, p.pool, keep)
	wait := p.runWorkers(workers(opts.Workers))
	go p.produce(files)
	c.run(p.units)
	wait()
	c.close()
	p.prog.wait()
	return res, nil
}

func containsStdin(files []string) bool {
	for _, f := range files {
		if f == StdinName {
			return true
		}
	}
	return false
}

// parallel calls fn(0..n-1) on up to workers goroutines (0 = GOMAXPROCS).
func parallel(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				fn(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// safeDecode runs f.Decode and turns a panic (a bug in the format) into an
// error for this input, so that one bad file cannot end the whole run.
func safeDecode(f Format, in *Input, s Sink) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("format %s failed: %v (please report this bug)", f.Name(), p)
		}
	}()
	return f.Decode(in, s)
}

// chooseFormat returns the --format when given, else the one format whose
// Sniff claims head or, when none does, whose lines fit the --log-format
// given for it (a custom nginx log_format or Envoy format string, which
// Sniff, looking for the default formats' shapes, does not know). It
// returns (nil, nil) for an empty head, and an error naming the candidates
// when none or several claim it.
func chooseFormat(opts DriverOptions, head []byte) (Format, error) {
	if opts.Format != "" {
		return findFormat(opts.Formats, opts.Format), nil
	}
	if len(head) == 0 {
		return nil, nil
	}
	claims := claimants(opts.Formats, func(f Format) bool { return f.Sniff(head) })
	if len(claims) == 0 {
		claims = claimants(opts.Formats, func(f Format) bool {
			lf, given := opts.LogFormats[f.Name()]
			return given && fitsLogFormat(f, lf, head)
		})
	}
	switch len(claims) {
	case 1:
		return claims[0], nil
	case 0:
		return nil, errors.New("unknown format (give --format NAME; ttftrace formats lists them)")
	}
	names := make([]string, len(claims))
	for i, f := range claims {
		names[i] = f.Name()
	}
	return nil, fmt.Errorf("ambiguous format: %s all claim it (give --format NAME)", strings.Join(names, ", "))
}

// claimants returns the formats of table that claim reports true for.
func claimants(table []Format, claim func(Format) bool) []Format {
	var out []Format
	for _, f := range table {
		if claim(f) {
			out = append(out, f)
		}
	}
	return out
}

func findFormat(table []Format, name string) Format {
	for _, f := range table {
		if f.Name() == name {
			return f
		}
	}
	return nil
}
