package cli

import (
	"flag"
	"slices"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/sqlviews"
)

// Each command has an options struct, a function that declares its flags on
// a new flag set, and a parse function that reorders and checks its
// arguments. Help output is built from the same flag sets.

type ingestOptions struct {
	commonFlags
	Input  inputFlags
	NoWait bool     // --no-wait: fail instead of waiting for another writer
	Inputs []string // files, folders, globs, "-"
}

func ingestFlags(o *ingestOptions) *flag.FlagSet {
	fs := newFlagSet("ingest")
	o.commonFlags.register(fs, "dataset `DIR` to append to (created when missing)", true)
	o.Input.register(fs)
	fs.BoolVar(&o.NoWait, "no-wait", false, "fail (exit 1) instead of waiting when another ingest is writing the dataset")
	return fs
}

func parseIngest(args []string) (*ingestOptions, error) {
	o := &ingestOptions{}
	pos, err := parseArgs(ingestFlags(o), args)
	if err == nil {
		err = needArgs(pos, 1, -1, "INPUT")
	}
	if err == nil {
		err = needOutput(o.Output)
	}
	o.Inputs = pos
	return o, err
}

type analyzeOptions struct {
	commonFlags
	Analysis    analysisFlags
	RequestsOut string // --requests-out: the reconciled per-request table
	Datasets    []string
}

func analyzeFlags(o *analyzeOptions) *flag.FlagSet {
	fs := newFlagSet("analyze")
	o.commonFlags.register(fs, "analysis `FILE` to write (analysis.json)", true)
	o.Analysis.register(fs)
	fs.StringVar(&o.RequestsOut, "requests-out", "", "also write the reconciled per-request table (each observer's instants on the reference clock, join methods, TTFT breakdown) to `FILE` (Parquet)")
	return fs
}

func parseAnalyze(args []string) (*analyzeOptions, error) {
	o := &analyzeOptions{}
	pos, err := parseArgs(analyzeFlags(o), args)
	if err == nil {
		err = needArgs(pos, 1, -1, "DATASET")
	}
	if err == nil {
		err = needOutput(o.Output)
	}
	if err == nil {
		_, err = o.Analysis.options()
	}
	o.Datasets = pos
	return o, err
}

type reportOptions struct {
	commonFlags
	Analysis string // analysis.json
}

func reportFlags(o *reportOptions) *flag.FlagSet {
	fs := newFlagSet("report")
	o.commonFlags.register(fs, "report `FILE` to write (report.html)", false)
	return fs
}

func parseReport(args []string) (*reportOptions, error) {
	o := &reportOptions{}
	pos, err := parseArgs(reportFlags(o), args)
	if err == nil {
		err = needArgs(pos, 1, 1, "analysis.json")
	}
	if err == nil {
		err = needOutput(o.Output)
		o.Analysis = pos[0]
	}
	return o, err
}

type runOptions struct {
	commonFlags
	Input    inputFlags
	Analysis analysisFlags
	Inputs   []string
}

func runFlags(o *runOptions) *flag.FlagSet {
	fs := newFlagSet("run")
	o.commonFlags.register(fs, "output `DIR` (gets dataset/, analysis.json, report.html)", true)
	o.Input.register(fs)
	o.Analysis.register(fs)
	return fs
}

func parseRun(args []string) (*runOptions, error) {
	o := &runOptions{}
	pos, err := parseArgs(runFlags(o), args)
	if err == nil {
		err = needArgs(pos, 1, -1, "INPUT")
	}
	if err == nil {
		err = needOutput(o.Output)
	}
	if err == nil {
		_, err = o.Analysis.options()
	}
	o.Inputs = pos
	return o, err
}

type demoOptions struct {
	commonFlags
	Analysis analysisFlags
}

// demoOutput is the folder demo writes to without -o.
const demoOutput = "ttftrace-demo"

func demoFlags(o *demoOptions) *flag.FlagSet {
	fs := newFlagSet("demo")
	o.commonFlags.register(fs, "output `DIR` (default "+demoOutput+")", false)
	o.Analysis.register(fs)
	return fs
}

func parseDemo(args []string) (*demoOptions, error) {
	o := &demoOptions{}
	pos, err := parseArgs(demoFlags(o), args)
	if err == nil {
		err = needArgs(pos, 0, 0, "")
	}
	if err == nil {
		_, err = o.Analysis.options()
	}
	if o.Output == "" {
		o.Output = demoOutput
	}
	return o, err
}

type sqlOptions struct {
	Output  string // file to write, "" for standard output
	Dialect string
	// Dataset is the dataset folder (duckdb) or table name (trino, spark)
	// the views read; "" means the sqlviews default.
	Dataset string
	By      stringList    // --by KEY[+KEY], repeatable, as analyze takes it
	Window  time.Duration // --window; 0 means the sqlviews default
	Approx  bool          // --approx: each engine's approximate percentiles
}

func sqlFlags(o *sqlOptions) *flag.FlagSet {
	fs := newFlagSet("sql")
	fs.StringVar(&o.Output, "o", "", "write the SQL to `FILE` instead of standard output")
	fs.StringVar(&o.Dialect, "dialect", "duckdb", "SQL `DIALECT`: duckdb, trino or spark")
	fs.StringVar(&o.Dataset, "dataset", "", "`DATASET` the views read: the folder for duckdb (default dataset), the table for trino and spark (default ttftrace_events)")
	fs.Var(&o.By, "by", "breakdown `KEY` as analyze takes it (model, endpoint, host, status, format or an attribute; model+host crosses; repeatable)")
	fs.DurationVar(&o.Window, "window", 0, "time-series window `DURATION` (default 1m; pass analyze's to compare)")
	fs.BoolVar(&o.Approx, "approx", false, "approximate, mergeable percentiles (Spark percentile_approx, Trino approx_percentile, DuckDB approx_quantile) instead of exact type 7")
	return fs
}

func parseSQL(args []string) (*sqlOptions, error) {
	o := &sqlOptions{}
	pos, err := parseArgs(sqlFlags(o), args)
	if err == nil {
		err = needArgs(pos, 0, 0, "")
	}
	if err == nil && !slices.Contains(sqlviews.Dialects, o.Dialect) {
		err = usagef("--dialect %q: one of %s", o.Dialect, strings.Join(sqlviews.Dialects, ", "))
	}
	return o, err
}

// viewOptions returns the sqlviews options of o.
func (o *sqlOptions) viewOptions() sqlviews.Options {
	v := sqlviews.Options{Dialect: o.Dialect, Dataset: o.Dataset, Window: o.Window, Approx: o.Approx}
	for _, by := range o.By {
		v.By = append(v.By, strings.Split(by, "+"))
	}
	return v
}

// noFlags is the flag set of commands without flags (formats, schema).
func noFlags(name string) *flag.FlagSet { return newFlagSet(name) }
