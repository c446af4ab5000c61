package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/report"
)

// runAnalyze reads datasets and writes analysis.json.
func (c *cli) runAnalyze(args []string) int {
	o, err := parseAnalyze(args)
	if err != nil {
		return c.fail("analyze", err)
	}
	aopts, _ := o.Analysis.options() // checked by parseAnalyze
	o.Analysis.applyGC()
	snap, err := dataset.Open(o.Datasets...) // each dataset once; a folder that is none is an error
	if err != nil {
		return c.fail("analyze", err)
	}
	events, err := dataset.ReadColumns(snap.Files, analyze.ColumnsOptions(aopts))
	if err != nil {
		return c.fail("analyze", err)
	}
	inputs := snap.Inputs
	aopts.KeepRequests = o.RequestsOut != ""
	a := analyze.RunColumns(events, inputs, aopts)
	if err := writeAnalysis(o.Output, a); err != nil {
		return c.fail("analyze", err)
	}
	if o.RequestsOut != "" {
		if err := dataset.WriteTable(o.RequestsOut, a.Requests); err != nil {
			return c.fail("analyze", err)
		}
		c.sayf(o.Quiet, "wrote %d reconciled requests to %s\n", len(a.Requests), o.RequestsOut)
	}
	c.printWarnings("analyze", a.Warnings)
	c.sayf(o.Quiet, "analysed %d events from %d inputs into %s; hosts: %s\n", events.Rows, len(inputs), o.Output, sourceHosts(a.Sources))
	return exitOK
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
	if err := dataset.WriteFileAtomic(o.Output, buf.Bytes()); err != nil {
		return c.fail("report", err)
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
	dopts, err := c.inputOptions(&o.Input, o.Inputs)
	if err != nil {
		return c.fail("run", err)
	}
	aopts, _ := o.Analysis.options() // checked by parseRun
	o.Analysis.applyGC()
	return c.pipeline("run", o.Inputs, dopts, aopts, o.commonFlags)
}

// pipeline is run's and demo's body: ingest into OUTDIR/dataset, analyse
// the events read, write OUTDIR/analysis.json and OUTDIR/report.html.
func (c *cli) pipeline(cmd string, inputs []string, dopts ingest.DriverOptions, aopts analyze.Options, o commonFlags) int {
	dsDir := filepath.Join(o.Output, "dataset")
	held := fmt.Errorf("%s already holds a dataset: remove it, or append with ttftrace ingest and run ttftrace analyze", dsDir)
	if entries, err := os.ReadDir(dsDir); err == nil && len(entries) > 0 {
		return c.fail(cmd, held)
	}
	dopts.Stdin, dopts.Formats = c.stdin, c.formatTable()
	if f, ok := c.stderr.(*os.File); ok && !o.Quiet && isTerminal(f) {
		dopts.Progress = f
	}
	w, err := c.openDataset(cmd, dsDir, false, o.Quiet)
	if err != nil {
		return c.fail(cmd, err)
	}
	defer w.Close()
	if w.Commits() > 0 { // another run wrote it while this one waited
		return c.fail(cmd, held)
	}
	gc := debug.SetGCPercent(100) // ingest at Go's default; the analysis's target after
	res, status := c.ingestInto(cmd, w, inputs, dopts, o, true)
	debug.SetGCPercent(gc)
	if status != exitOK {
		return status
	}
	if res == nil {
		return c.fail(cmd, errors.New("no input to read"))
	}
	w.Close()
	// Analysis reads the committed columns back, as analyze does, instead
	// of keeping ingest's events: a schema.Event costs kilobytes where a
	// column row costs ~100 bytes (bench/run.sh 20000's whole run: 677 MB
	// peak keeping events).
	runtime.GC()
	snap, err := dataset.Open(dsDir)
	if err != nil {
		return c.fail(cmd, err)
	}
	cols, err := dataset.ReadColumns(snap.Files, analyze.ColumnsOptions(aopts))
	if err != nil {
		return c.fail(cmd, err)
	}
	c.summary(res.Inputs, cols.HostsByInput(), o.Quiet)
	a := analyze.RunColumns(cols, res.Inputs, aopts)
	if err := writeAnalysis(filepath.Join(o.Output, "analysis.json"), a); err != nil {
		return c.fail(cmd, err)
	}
	var buf bytes.Buffer
	if err := report.Render(&buf, a); err != nil {
		return c.fail(cmd, err)
	}
	if err := dataset.WriteFileAtomic(filepath.Join(o.Output, "report.html"), buf.Bytes()); err != nil {
		return c.fail(cmd, err)
	}
	c.printWarnings(cmd, a.Warnings)
	c.sayf(o.Quiet, "wrote %s: dataset/ (%d events), analysis.json, report.html\n", o.Output, cols.Rows)
	return exitOK
}

// sourceHosts names the hosts the analysis uses per source: "client
// web-1,web-2; server gpu-1".
func sourceHosts(sources []analyze.SourceSummary) string {
	var parts []string
	for _, s := range sources {
		parts = append(parts, s.Source+" "+strings.Join(s.Hosts, ","))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// writeAnalysis writes a as analysis.json, atomically.
func writeAnalysis(path string, a *analyze.Analysis) error {
	b, err := analyze.Encode(a)
	if err != nil {
		return err
	}
	return dataset.WriteFileAtomic(path, b)
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
