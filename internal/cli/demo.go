package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/samples"
)

// runDemo runs on the samples embedded in the binary: the demo fleet's logs
// (samples/demo, written to OUTDIR/logs) into OUTDIR's dataset, analysis
// and report, then one sample of every input format (samples/formats,
// written to OUTDIR/formats/logs) into OUTDIR/formats' (formatTour).
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
	if status := c.pipeline("demo", inputs, dopts, aopts, o.commonFlags); status != exitOK {
		return status
	}
	return c.formatTour(filepath.Join(o.Output, "formats"), o.Quiet)
}

// formatTour writes samples/formats to dir/logs and ingests each folder,
// with the flags its flags file gives, into dir/dataset, as a user would
// (one `ttftrace ingest` per folder, so that jsonl's --format applies to its
// folder only); then analyses the dataset by format and reports it. The
// samples are of unrelated systems, so they get a dataset of their own,
// apart from the demo fleet's.
func (c *cli) formatTour(dir string, quiet bool) int {
	logs, ds := filepath.Join(dir, "logs"), filepath.Join(dir, "dataset")
	for _, p := range []string{logs, ds} {
		if err := os.RemoveAll(p); err != nil {
			return c.fail("demo", err)
		}
	}
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return c.fail("demo", err)
	}
	if err := os.CopyFS(logs, samples.Formats()); err != nil {
		return c.fail("demo", err)
	}
	folders, err := os.ReadDir(logs)
	if err != nil {
		return c.fail("demo", err)
	}
	for _, f := range folders {
		if !f.IsDir() {
			continue
		}
		args, err := sampleArgs(filepath.Join(logs, f.Name()))
		if err != nil {
			return c.fail("demo", err)
		}
		if status := c.dispatch(append([]string{"ingest", "-q", "-o", ds}, args...)); status != exitOK {
			return status
		}
	}
	analysis := filepath.Join(dir, "analysis.json")
	for _, cmd := range [][]string{{"analyze", "-q", ds, "-o", analysis, "--by", "format"}, {"report", "-q", analysis, "-o", filepath.Join(dir, "report.html")}} {
		if status := c.dispatch(cmd); status != exitOK {
			return status
		}
	}
	return c.tourSummary(dir, ds, quiet)
}

// tourSummary prints the ingest summary of every sample the tour read and
// where its outputs are.
func (c *cli) tourSummary(dir, ds string, quiet bool) int {
	snap, err := dataset.Open(ds)
	if err != nil {
		return c.fail("demo", err)
	}
	c.sayf(quiet, "\none sample of each input format (samples/formats), read into a dataset of its own:\n")
	c.summary(snap.Inputs, nil, quiet)
	c.sayf(quiet, "wrote %s: dataset/, analysis.json, report.html (figures by format)\n", dir)
	return exitOK
}

// sampleFlagsFile is the file of a samples/formats folder that holds the
// flags reading its sample needs, one flag (and its value) per line.
const sampleFlagsFile = "flags"

// sampleArgs returns the ingest arguments of the sample folder dir: the
// flags of its flags file, whose @FILE values name files of dir, then its
// inputs: every file but the flags file, the files the flags name and
// README.md.
func sampleArgs(dir string) ([]string, error) {
	notInput := map[string]bool{sampleFlagsFile: true, "README.md": true}
	b, err := os.ReadFile(filepath.Join(dir, sampleFlagsFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var args []string
	for _, f := range strings.Fields(string(b)) {
		if before, file, ok := strings.Cut(f, "@"); ok {
			notInput[file] = true
			f = before + "@" + filepath.Join(dir, file)
		}
		args = append(args, f)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var inputs []string
	for _, e := range entries {
		if !e.IsDir() && !notInput[e.Name()] {
			inputs = append(inputs, filepath.Join(dir, e.Name()))
		}
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%s: no sample", dir)
	}
	return append(args, inputs...), nil
}
