package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// blockLog returns the lines of requests from..to of the blocks format,
// request i on the line "ok i day=0" except every 97th, "garbage i" (a
// reject); after the "#blocks" line a file starts with, request i is on
// line i+1.
func blockLog(from, to int) []byte {
	var b strings.Builder
	for i := from; i <= to; i++ {
		if i%97 == 0 {
			fmt.Fprintf(&b, "garbage %d\n", i)
		} else {
			fmt.Fprintf(&b, "ok %d day=0\n", i)
		}
	}
	return []byte(b.String())
}

// TestResumeInBlocks ingests a log into a dataset in 256-byte blocks,
// appends to it, and reads it again with the dataset's inputs as Known on
// 1 to 3 workers, plain and as a gzip file grown by a second member. Only
// the appended lines may be read, cut into blocks from where the commit
// stopped: the events, rejects and span must be those a decode of the
// whole grown file gives for those lines, lines numbered in the file
// (request i on line i+1, garbage i rejected on line i+1). Once committed,
// the grown file must be known whole.
func TestResumeInBlocks(t *testing.T) {
	first := append([]byte("#blocks\n"), blockLog(1, 3000)...)
	second := blockLog(3001, 6000)
	for _, gz := range []bool{false, true} {
		enc := func(b []byte) []byte { return b }
		if gz {
			enc = func(b []byte) []byte { return gzipBytes(t, b) }
		}
		dir := t.TempDir()
		path := writeFile(t, filepath.Join(dir, "a.log"), enc(first))
		ds := filepath.Join(dir, "ds")
		opts := DriverOptions{Formats: blockFormats, BlockBytes: 256, Dataset: ds, KeepEvents: true}
		commitRun(t, path, opts)
		appendFile(t, path, enc(second))
		wholeOpts := opts
		wholeOpts.Dataset, wholeOpts.BlockBytes = filepath.Join(dir, "whole"), 1<<30
		whole, err := Run([]string{path}, wholeOpts)
		if err != nil {
			t.Fatal(err)
		}
		whole.Discard()
		for _, workers := range []int{1, 2, 3} {
			w := openWriter(t, ds)
			opts.Workers, opts.Known = workers, w.Inputs()
			res, err := Run([]string{path}, opts)
			if err != nil {
				t.Fatal(err)
			}
			res.Discard()
			w.Close()
			checkAccounting(t, res)
			checkResumed(t, fmt.Sprintf("gzip %v, %d workers", gz, workers), res, whole, int64(len(first)))
		}
		commitRun(t, path, opts)
		w := openWriter(t, ds)
		opts.Known = w.Inputs()
		res, err := Run([]string{path}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Known) != 1 || len(res.Inputs) != 0 {
			t.Errorf("gzip %v: after the resumed commit, %d inputs known whole and %d read; want 1 and 0", gz, len(res.Known), len(res.Inputs))
		}
	}
}

// checkResumed compares res, a read of the grown file from byte start (line
// 3002 on), with whole, the whole file's.
func checkResumed(t *testing.T, name string, res, whole *Result, start int64) {
	t.Helper()
	if len(res.Inputs) != 1 || res.Inputs[0].Error != nil || res.Inputs[0].Span == nil {
		t.Fatalf("%s: inputs %+v", name, res.Inputs)
	}
	in, sp, wsp := res.Inputs[0], *res.Inputs[0].Span, *whole.Inputs[0].Span
	if in.Read != 3000 || in.Rejected != 31 || in.Records != 2969 { // 97·31 .. 97·61
		t.Errorf("%s: read %d, rejected %d, records %d; want 3000, 31, 2969", name, in.Read, in.Rejected, in.Records)
	}
	wantSpan := wsp
	wantSpan.Start, wantSpan.StartLine = start, 3001
	if sp != wantSpan || sp.End != wsp.End || sp.EndLine != 6001 {
		t.Errorf("%s: span %+v\nwant %+v", name, sp, wantSpan)
	}
	var events []schema.Event
	for _, e := range whole.Events {
		if e.InputLine > 3001 {
			events = append(events, e)
		}
	}
	if !reflect.DeepEqual(res.Events, events) {
		t.Errorf("%s: %d events differ from the whole file's %d after line 3001", name, len(res.Events), len(events))
	}
	for _, e := range res.Events {
		if e.RequestID != fmt.Sprint(e.InputLine-1) {
			t.Fatalf("%s: request %s on line %d", name, e.RequestID, e.InputLine)
		}
	}
	var lines []int64
	for i := 3001; i <= 6000; i++ {
		if i%97 == 0 {
			lines = append(lines, int64(i+1))
		}
	}
	checkRejectLines(t, res, lines)
}

// commitRun runs opts over path and commits the result to opts.Dataset,
// with the dataset's inputs as Known.
func commitRun(t *testing.T, path string, opts DriverOptions) {
	t.Helper()
	w := openWriter(t, opts.Dataset)
	defer w.Close()
	opts.Known = w.Inputs()
	res, err := Run([]string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed()) > 0 {
		t.Fatalf("%s failed: %s", path, *res.Failed()[0].Error)
	}
	if _, err := res.Write(w); err != nil {
		t.Fatal(err)
	}
}

// appendFile appends data to the file path.
func appendFile(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
