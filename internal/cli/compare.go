package cli

import (
	"bytes"
	"flag"
	"math"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/report"
)

type compareOptions struct {
	commonFlags
	Base, New  string // analysis.json files
	LabelBase  string // --label-base
	LabelNew   string // --label-new
	MinChange  string // --min-change 5%[,METRIC=PCT|off…]
	Format     string // --format text|md
	FailOn     string // --fail-on regression
	minChange  float64
	minChangeF map[string]float64
}

func compareFlags(o *compareOptions) *flag.FlagSet {
	fs := newFlagSet("compare")
	o.commonFlags.register(fs, "also write the comparison page to `FILE` (compare.html)", false)
	fs.StringVar(&o.LabelBase, "label-base", "", "`LABEL` of the base analysis (default: its date range)")
	fs.StringVar(&o.LabelNew, "label-new", "", "`LABEL` of the new analysis (default: its date range)")
	fs.StringVar(&o.MinChange, "min-change", "5%", "practical threshold: a significant change is a regression or improvement only when at least this much of the base; per-metric overrides follow: `PCT[,METRIC=PCT|off…]`, e.g. 5%,ttft=10%,request_rate=off (metrics: ttft, itl, tpot…, error_rate, request_rate, output_tps, goodput, good_share)")
	fs.StringVar(&o.Format, "format", "text", "standard output `FORMAT`: text, or md for a Markdown table to paste into a document")
	fs.StringVar(&o.FailOn, "fail-on", "", "exit with status 4 when any `regression` is found (for CI gating)")
	return fs
}

func parseCompare(args []string) (*compareOptions, error) {
	o := &compareOptions{}
	pos, err := parseArgs(compareFlags(o), args)
	if err == nil {
		err = needArgs(pos, 2, 2, "BASE.json and NEW.json")
	}
	if err == nil {
		o.Base, o.New = pos[0], pos[1]
		o.minChange, o.minChangeF, err = parseMinChange(o.MinChange)
	}
	if err == nil && o.Format != "text" && o.Format != "md" {
		err = usagef("--format %q: text or md", o.Format)
	}
	if err == nil && o.FailOn != "" && o.FailOn != "regression" {
		err = usagef("--fail-on %q: the only condition is regression", o.FailOn)
	}
	return o, err
}

// parseMinChange reads "5%" or "5%,ttft=10%,request_rate=off": the default
// threshold, then per-metric ones; "off" never calls that metric's change a
// regression or improvement.
func parseMinChange(v string) (float64, map[string]float64, error) {
	parts := strings.Split(v, ",")
	def, err := parsePercent(parts[0], false)
	if err != nil {
		return 0, nil, usagef("--min-change %q: %v", v, err)
	}
	per := map[string]float64{}
	for _, p := range parts[1:] {
		name, pct, ok := strings.Cut(p, "=")
		if !ok || name == "" {
			return 0, nil, usagef("--min-change %q: %q is not METRIC=PCT", v, p)
		}
		if per[name], err = parsePercent(pct, true); err != nil {
			return 0, nil, usagef("--min-change %q: %s: %v", v, name, err)
		}
	}
	return def, per, nil
}

// parsePercent reads "5%" as 0.05, and "off" as +Inf when allowed.
func parsePercent(s string, offOK bool) (float64, error) {
	if s == "off" && offOK {
		return math.Inf(1), nil
	}
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	f, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, usagef("%q is not a percentage such as 5%%", s)
	}
	return f / 100, nil
}

// runCompare judges two analyses, prints the summary on standard output
// (unless -q), writes the page with -o, and exits 4 under --fail-on regression when any
// regression is found.
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
	cmp := analyze.Compare(base, next, analyze.CompareOptions{MinChange: o.minChange, MinChangeFor: o.minChangeF,
		BaseLabel: o.LabelBase, NewLabel: o.LabelNew})
	if o.Output != "" {
		var buf bytes.Buffer
		if err := report.Compare(&buf, cmp); err != nil {
			return c.fail("compare", err)
		}
		if err := dataset.WriteFileAtomic(o.Output, buf.Bytes()); err != nil {
			return c.fail("compare", err)
		}
	}
	if !o.Quiet {
		if err := report.CompareText(c.stdout, cmp, o.Format == "md"); err != nil {
			return c.fail("compare", err)
		}
	}
	if o.Output != "" {
		c.sayf(o.Quiet, "wrote %s\n", o.Output)
	}
	if o.FailOn == "regression" && cmp.Regressions > 0 {
		c.sayf(o.Quiet, "%d regressions: exit status %d (--fail-on regression)\n", cmp.Regressions, exitRegression)
		return exitRegression
	}
	return exitOK
}
