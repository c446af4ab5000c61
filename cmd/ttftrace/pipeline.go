package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/report"
	"github.com/ttftrace/ttftrace/samples"
	"github.com/ttftrace/ttftrace/schema"
)

// runAnalyze reads datasets and writes analysis.json.
func (c *cli) runAnalyze(args []string) int {
	o, err := parseAnalyze(args)
	if err != nil {
		return c.fail("analyze", err)
	}
	aopts, _ := o.Analysis.options() // checked by parseAnalyze
	o.Analysis.applyGC()
	events, err := readColumns(o.Datasets, analyze.ColumnsOptions(aopts))
	if err != nil {
		return c.fail("analyze", err)
	}
	inputs, err := schema.ReadManifest(o.Datasets...)
	if err != nil {
		return c.fail("analyze", err)
	}
	aopts.KeepRequests = o.RequestsOut != ""
	a := analyze.RunColumns(events, inputs, aopts)
	if err := writeAnalysis(o.Output, a); err != nil {
		return c.fail("analyze", err)
	}
	if o.RequestsOut != "" {
		if err := schema.WriteTable(o.RequestsOut, a.Requests); err != nil {
			return c.fail("analyze", err)
		}
		c.sayf(o.Quiet, "wrote %d reconciled requests to %s\n", len(a.Requests), o.RequestsOut)
	}
	c.sayf(o.Quiet, "analysed %d events from %d inputs into %s\n", events.Rows, len(inputs), o.Output)
	return exitOK
}

// readColumns reads the committed data files of the datasets into the
// columns analysis reads.
func readColumns(datasets []string, opts dataset.ColumnsOptions) (*dataset.Columns, error) {
	var files []string
	for _, d := range datasets {
		found, err := schema.DataFiles(d)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	return dataset.ReadColumns(files, opts)
}

// runReport renders analysis.json to one HTML file.
func (c *cli) runReport(args []string) int {
	o, err := parseReport(args)
	if err != nil {
		return c.fail("report", err)
	}
	a, err := readAnalysis(o.Analysis)
	if err != nil {
		return c.fail("report", err)
	}
	var buf bytes.Buffer
	if err := report.Render(&buf, a); err != nil {
		return c.fail("report", err)
	}
	if err := schema.WriteFileAtomic(o.Output, buf.Bytes()); err != nil {
		return c.fail("report", err)
	}
	c.sayf(o.Quiet, "wrote %s\n", o.Output)
	return exitOK
}

// runCompare renders two analyses side by side.
func (c *cli) runCompare(args []string) int {
	o, err := parseCompare(args)
	if err != nil {
		return c.fail("compare", err)
	}
	base, err := readAnalysis(o.Base)
	if err != nil {
		return c.fail("compare", err)
	}
	next, err := readAnalysis(o.New)
	if err != nil {
		return c.fail("compare", err)
	}
	var buf bytes.Buffer
	if err := report.Compare(&buf, base, next, o.Base, o.New); err != nil {
		return c.fail("compare", err)
	}
	if err := schema.WriteFileAtomic(o.Output, buf.Bytes()); err != nil {
		return c.fail("compare", err)
	}
	c.sayf(o.Quiet, "wrote %s\n", o.Output)
	return exitOK
}

// runRun ingests, analyses and reports in one go into OUTDIR.
func (c *cli) runRun(args []string) int {
	o, err := parseRun(args)
	if err != nil {
		return c.fail("run", err)
	}
	dopts, err := o.Input.driverOptions()
	if err != nil {
		return c.fail("run", err)
	}
	aopts, _ := o.Analysis.options() // checked by parseRun
	o.Analysis.applyGC()
	return c.pipeline("run", o.Inputs, dopts, aopts, o.commonFlags)
}

// runDemo writes the embedded sample logs to OUTDIR/logs and runs on them.
func (c *cli) runDemo(args []string) int {
	o, err := parseDemo(args)
	if err != nil {
		return c.fail("demo", err)
	}
	aopts, _ := o.Analysis.options() // checked by parseDemo
	o.Analysis.applyGC()
	logs := filepath.Join(o.Output, "logs")
	if err := os.RemoveAll(filepath.Join(o.Output, "dataset")); err != nil {
		return c.fail("demo", err)
	}
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return c.fail("demo", err)
	}
	if err := os.CopyFS(logs, samples.Demo()); err != nil && !os.IsExist(err) {
		return c.fail("demo", err)
	}
	var dopts ingest.DriverOptions
	dopts.LogFormats = map[string]string{}
	for name, file := range map[string]string{"nginx": "nginx.log_format", "envoy": "envoy.format.json"} {
		b, err := fs.ReadFile(samples.Demo(), file)
		if err != nil {
			return c.fail("demo", err)
		}
		dopts.LogFormats[name] = string(b)
	}
	inputs, _ := filepath.Glob(filepath.Join(logs, "*.gz"))
	return c.pipeline("demo", inputs, dopts, aopts, o.commonFlags)
}

// pipeline is run's and demo's body: ingest into OUTDIR/dataset, analyse
// the events read, write OUTDIR/analysis.json and OUTDIR/report.html.
func (c *cli) pipeline(cmd string, inputs []string, dopts ingest.DriverOptions, aopts analyze.Options, o commonFlags) int {
	dataset := filepath.Join(o.Output, "dataset")
	if entries, err := os.ReadDir(dataset); err == nil && len(entries) > 0 {
		return c.fail(cmd, fmt.Errorf("%s already holds a dataset: remove it, or append with ttftrace ingest and run ttftrace analyze", dataset))
	}
	dopts.Stdin, dopts.Formats = c.stdin, c.formatTable()
	if f, ok := c.stderr.(*os.File); ok && !o.Quiet && isTerminal(f) {
		dopts.Progress = f
	}
	dopts.Dataset, dopts.KeepEvents = dataset, true
	gc := debug.SetGCPercent(100) // ingest at Go's default; the analysis's target after
	res, err := ingest.Run(inputs, dopts)
	debug.SetGCPercent(gc)
	if err != nil {
		return c.fail(cmd, err)
	}
	if !o.Quiet {
		ingest.WriteSummary(c.stderr, res.Inputs)
	}
	if status := c.checkIngest(res, o.Strict, o.Quiet); status != exitOK {
		res.Discard()
		return status
	}
	if _, err := res.Write(dataset); err != nil {
		return c.fail(cmd, err)
	}
	// Collect ingest's garbage before analysis: analysis then grows the heap
	// from the events alone, not from a goal set while the decoders' and
	// writers' buffers were live (peak memory of the 20k-request benchmark's
	// run: about 40 MB less, at no measurable cost).
	runtime.GC()
	a := analyze.Run(res.Events, res.Inputs, aopts)
	if err := writeAnalysis(filepath.Join(o.Output, "analysis.json"), a); err != nil {
		return c.fail(cmd, err)
	}
	var buf bytes.Buffer
	if err := report.Render(&buf, a); err != nil {
		return c.fail(cmd, err)
	}
	if err := schema.WriteFileAtomic(filepath.Join(o.Output, "report.html"), buf.Bytes()); err != nil {
		return c.fail(cmd, err)
	}
	c.sayf(o.Quiet, "wrote %s: dataset/ (%d events), analysis.json, report.html\n", o.Output, len(res.Events))
	return exitOK
}

// writeAnalysis writes a as analysis.json, atomically.
func writeAnalysis(path string, a *analyze.Analysis) error {
	b, err := analyze.Encode(a)
	if err != nil {
		return err
	}
	return schema.WriteFileAtomic(path, b)
}

// readAnalysis reads an analysis.json written by analyze or run.
func readAnalysis(path string) (*analyze.Analysis, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a, err := analyze.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// sayf prints a progress line to standard error unless quiet.
func (c *cli) sayf(quiet bool, format string, args ...any) {
	if !quiet {
		fmt.Fprintf(c.stderr, format, args...)
	}
}
