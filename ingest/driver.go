package ingest

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
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
	// Workers is the number of inputs decoded at once; 0 means GOMAXPROCS.
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
	// staged are the part files of DriverOptions.Dataset, in input order.
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
// decodes them in parallel and returns their events in a deterministic order.
// It returns an error when the inputs cannot be listed or the --format is
// unknown; an input that cannot be read or whose format is not recognized is
// reported in its InputStats.Error instead, and the others are still read.
//
// Duplicates are resolved after decoding, in input order: an event whose raw
// record bytes repeat those of an earlier event of the same format in this
// call is counted as a duplicate, not kept. With a DriverOptions.Dataset,
// each input streams its events to its own part files (one per partition)
// while it is decoded, so a worker holds one row group per partition, not
// the input; the rare part holding a duplicate is rewritten without it.
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
	prog := newProgress(opts.Progress, files)
	sinks := make([]*inputSink, len(files))
	order := largestFirst(files)
	parallel(len(files), opts.Workers, func(j int) {
		i := order[j]
		sinks[i] = decodeInput(files[i], opts, prog)
	})
	prog.wait()
	res := merge(sinks, opts.Dataset)
	res.Known = known
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

// largestFirst returns the indices of files, largest file first (standard
// input and files that cannot be stat'ed count as empty; ties keep input
// order). Starting the big inputs first keeps one large file from being
// decoded alone at the end while the other workers idle. The results are
// stored by input index, so the order decoded in changes nothing else.
func largestFirst(files []string) []int {
	size := make([]int64, len(files))
	for i, f := range files {
		if info, err := os.Stat(f); err == nil && f != StdinName {
			size[i] = info.Size()
		}
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	return order
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

// decodeInput opens, decompresses, sniffs and decodes one input. Any failure
// to read the input at all ends up in the returned sink's stats.Error.
func decodeInput(name string, opts DriverOptions, prog *progress) *inputSink {
	host := opts.Host
	if opts.HostOf != nil && opts.HostOf(name) != "" {
		host = opts.HostOf(name)
	}
	if host == "" {
		host = HostFromPath(name)
	}
	var raw io.Reader = opts.Stdin
	size := int64(0)
	rp := opts.resume[name]
	if name != StdinName {
		f, err := os.Open(name)
		if err == nil && rp.plain {
			_, err = f.Seek(rp.start, io.SeekStart)
		}
		if err != nil {
			return failedSink(name, host, err)
		}
		defer f.Close()
		raw = f
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size() - rp.start
		}
	}
	d := decompress(prog.reader(raw))
	defer d.close()
	if !d.plain {
		size = 0
	}
	sr, err := newSpanReader(d.r, rp, rp.plain)
	if err != nil {
		return failedSink(name, host, err)
	}
	s := decodeStream(name, host, sr, size, opts)
	s.stats.Truncated = d.truncated
	if s.stats.Error == nil && opts.Dataset != "" {
		s.stats.Span = sr.result()
	}
	return s
}

// decodeStream sniffs and decodes one decompressed input of size bytes
// (0 if unknown), streaming its events to part files when opts.Dataset is
// set.
func decodeStream(name, host string, r io.Reader, size int64, opts DriverOptions) *inputSink {
	if rf := opts.resume[name].format; rf != "" && opts.Format == "" {
		opts.Format = rf // a grown input goes on in its committed format
	}
	br := bufio.NewReaderSize(r, SniffSize)
	head, _ := br.Peek(SniffSize)
	f, err := chooseFormat(opts, head)
	switch {
	case err != nil:
		return failedSink(name, host, err)
	case f == nil: // an empty input holds no records
		return &inputSink{stats: schema.InputStats{Path: name, Host: host}}
	}
	s := newInputSink(name, host, f)
	s.lineBase = opts.resume[name].startLine
	if opts.Dataset != "" {
		s.writer = dataset.NewPartWriter(opts.Dataset)
		s.keepEvents = opts.KeepEvents
	}
	fo := opts.Options
	if lf, ok := opts.LogFormats[f.Name()]; ok {
		fo.LogFormat = lf
	}
	err = safeDecode(f, &Input{R: br, Name: name, Host: host, Size: size, Opts: fo}, s)
	if s.writer != nil {
		var cerr error
		s.staged, cerr = s.writer.Close()
		err = cmp.Or(s.err, err, cerr)
	}
	if err != nil {
		msg := err.Error()
		s.stats.Error = &msg
	}
	return s
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

// failedSink is the result of an input that could not be read.
func failedSink(name, host string, err error) *inputSink {
	msg := err.Error()
	return &inputSink{stats: schema.InputStats{Path: name, Host: host, Error: &msg}}
}

// chooseFormat returns the --format when given, else the one format whose
// Sniff claims head. It returns (nil, nil) for an empty head, and an error
// naming the candidates when none or several claim it.
func chooseFormat(opts DriverOptions, head []byte) (Format, error) {
	if opts.Format != "" {
		return findFormat(opts.Formats, opts.Format), nil
	}
	if len(head) == 0 {
		return nil, nil
	}
	var claims []Format
	var names []string
	for _, f := range opts.Formats {
		if f.Sniff(head) {
			claims = append(claims, f)
			names = append(names, f.Name())
		}
	}
	switch len(claims) {
	case 1:
		return claims[0], nil
	case 0:
		return nil, errors.New("unknown format (give --format NAME; ttftrace formats lists them)")
	}
	return nil, fmt.Errorf("ambiguous format: %s all claim it (give --format NAME)", strings.Join(names, ", "))
}

func findFormat(table []Format, name string) Format {
	for _, f := range table {
		if f.Name() == name {
			return f
		}
	}
	return nil
}

// merge joins the inputs' results in input order and drops duplicates: an
// event whose raw bytes repeat an earlier event's of the same format. A
// staged part that held a duplicate is rewritten without it.
func merge(sinks []*inputSink, staging string) *Result {
	type key struct {
		format string
		sum    rawSum
	}
	seen := map[key]bool{}
	total := 0
	for _, s := range sinks {
		total += s.events.n
	}
	res := &Result{Inputs: make([]schema.InputStats, len(sinks)), Events: make([]schema.Event, 0, total), dataset: staging}
	for i, s := range sinks {
		if s.stats.Error != nil && s.writer != nil {
			// A failed input (disk full while staging…) is not written:
			// its parts may be gone, so its events are not matched to them.
			dataset.RemoveParts(s.staged)
			s.staged, s.kept = nil, nil
		}
		n := max(len(s.staged), 1) // without a dataset every event has part 0
		rows := make([]int, n)     // the next row of each staged part
		drops := make([][]int, n)
		for j, k := range s.kept {
			row := rows[k.part]
			rows[k.part]++
			if k.hasSum {
				if seen[key{s.stats.Format, k.sum}] {
					s.stats.Duplicates++
					s.stats.Records--
					drops[k.part] = append(drops[k.part], row)
					continue
				}
				seen[key{s.stats.Format, k.sum}] = true
			}
			if s.keepEvents {
				res.Events = append(res.Events, *s.events.at(j))
			}
		}
		dropRows(s, drops)
		res.Records += s.stats.Records
		res.staged = append(res.staged, s.staged...)
		res.Rejects = append(res.Rejects, s.rejects...)
		s.stats.Clock = s.clock()
		res.Inputs[i] = s.stats
		sinks[i] = nil // let the input's memory go
	}
	return res
}

// dropRows rewrites the staged parts of an input that held duplicates; a
// failure to do so fails the input.
func dropRows(s *inputSink, drops [][]int) {
	for p, rows := range drops {
		if len(rows) == 0 || p >= len(s.staged) || s.stats.Error != nil {
			continue
		}
		if err := dataset.DropRows(&s.staged[p], rows); err != nil {
			msg := err.Error()
			s.stats.Error = &msg
		}
	}
	s.staged = slices.DeleteFunc(s.staged, func(p dataset.StagedPart) bool {
		if p.Rows == 0 { // every event of the part repeated an earlier one
			dataset.RemoveParts([]dataset.StagedPart{p})
		}
		return p.Rows == 0
	})
}
