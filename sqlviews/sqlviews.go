// Package sqlviews writes SQL views that compute ttftrace's analysis over an
// event dataset, for DuckDB, Trino and Spark SQL, so the same analysis runs
// on an engine of the user's choice: the metrics and errors of every --by
// group (SPEC §2), time series, the trace and request id joins, clock-offset
// bounds and the TTFT breakdown of id-joined requests (SPEC §4).
//
// The views follow analyze's definitions: the same success rule, the same
// fallbacks (first and last token from the chunk offsets, output tokens from
// the chunk token counts), the same pooled ITL, type 7 percentiles (or each
// engine's mergeable approximation with Options.Approx), the same id
// normalization. Instants stay int64 nanoseconds on the
// observer's clock until a difference is taken; latencies are milliseconds.
package sqlviews

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/ttftrace/ttftrace/dataset"
)

// Dialects are the SQL dialects Write can produce, in the order the command
// line lists them.
var Dialects = []string{"duckdb", "trino", "spark"}

// Views are the views every dialect defines, in definition order.
var Views = []string{
	"ttft_events", "grouped_events", "request_instants", "request_metrics",
	"chunk_gaps", "itl_samples", "metric_samples", "metric_summary",
	"error_counts", "timeseries_latency", "timeseries_requests", "timeseries_errors",
	"token_windows", "busy_windows", "throughput", "timeseries_throughput",
	"join_events", "join_ids", "id_join_candidates", "id_joins", "id_matching",
	"clock_bounds", "ttft_breakdown_requests", "ttft_breakdown",
}

// DefaultTable is the table name the Trino and Spark views read when
// Options.Dataset is empty.
const DefaultTable = "ttftrace_events"

// DefaultDir is the dataset folder the DuckDB views read when
// Options.Dataset is empty: the one `ttftrace run -o .` writes.
const DefaultDir = "dataset"

// DefaultWindow is the time-series window when Options.Window is 0.
const DefaultWindow = time.Minute

// Options say which SQL to write.
type Options struct {
	// Dialect is one of Dialects.
	Dialect string
	// Dataset is, for DuckDB, the dataset folder (its **/*.parquet files are
	// read with hive partitioning); for Trino and Spark, the table (name,
	// schema.name or catalog.schema.name) defined over the dataset's files.
	// Empty means DefaultDir or DefaultTable.
	Dataset string
	// By lists the breakdowns, as analyze.Options.By: each is one key or
	// several crossed keys (model, endpoint, host, status, format or an
	// attribute name).
	By [][]string
	// Window is the width of the time-series windows; 0 means
	// DefaultWindow. The views cannot choose it from the data as analyze
	// does: pass analyze's (analysis.json options.window) to compare.
	Window time.Duration
	// Approx makes the percentiles each engine's mergeable approximation
	// instead of exact type 7.
	Approx bool
}

//go:embed *.sql
var files embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"weighted": newWeighted,
	"last":     func(i int, l []level) bool { return i == len(l)-1 },
	"create":   create,
}).ParseFS(files, "*.sql"))

// level is one percentile the views report: its name suffix (p50 → "50")
// and its fraction.
type level struct{ Name, Q string }

var levels = []level{{"50", "0.5"}, {"90", "0.9"}, {"95", "0.95"}, {"99", "0.99"}, {"999", "0.999"}}

// weighted is the argument of the "weighted" template: the partition
// columns and the FROM clause of the weighted samples.
type weighted struct {
	Part, From string
	Levels     []level
}

func newWeighted(part, from string) weighted { return weighted{part, from, levels} }

// tableName is a table name Trino and Spark accept unquoted, with up to
// two qualifiers.
var tableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$`)

// viewData is what the dialect templates read.
type viewData struct {
	Relation      string // the FROM expression of ttft_events
	Groups        string // the body of grouped_events
	WindowNs      int64
	Window        string // e.g. "1m0s"
	WindowSeconds string // SQL double literal
	Approx        bool
	Str           string // the dialect's string type
	NormID        string // analyze's normalizeID over the column stripped
	StrippedID    string // its first steps over the column raw
	OtherIDs      string // the rows of join_events' other_ids
	Materialize   bool   // id_joins and clock_bounds are tables (Spark)
}

// create returns the statement that defines name: a view, or with table a
// Parquet table written when the script runs (dropped first, as Spark's
// session catalog cannot replace a table from a query).
func create(name string, table bool) string {
	if table {
		return "DROP TABLE IF EXISTS " + name + ";\nCREATE TABLE " + name + " USING parquet AS"
	}
	return "CREATE OR REPLACE VIEW " + name + " AS"
}

// Write writes the header comment and the CREATE VIEW statements of
// opts.Dialect to w. It fails for an unknown dialect, a table name that is
// not a plain (optionally qualified) identifier, a --by key that is empty
// or holds +, or a window under 1 ms.
func Write(w io.Writer, opts Options) error {
	rel, err := relation(opts)
	if err != nil {
		return err
	}
	groups, err := groupsSQL(syntaxes[opts.Dialect], opts.By)
	if err != nil {
		return err
	}
	win := opts.Window
	if win == 0 {
		win = DefaultWindow
	}
	if win < time.Millisecond {
		return fmt.Errorf("window %s: want 1ms or more", win)
	}
	var b strings.Builder
	writeHeader(&b, opts, rel, win)
	data := viewData{Relation: rel.expr, Groups: groups, WindowNs: int64(win), Window: win.String(),
		WindowSeconds: strconv.FormatFloat(win.Seconds(), 'f', -1, 64) + "E0", Approx: opts.Approx,
		Materialize: opts.Dialect == "spark"}
	syn := syntaxes[opts.Dialect]
	data.Str, data.NormID, data.StrippedID, data.OtherIDs = syn.str, syn.normIDSQL(), strippedIDSQL, syn.otherIDs
	if err := templates.ExecuteTemplate(&b, opts.Dialect+".sql", data); err != nil {
		return err
	}
	_, err = io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// source is what the first view reads: the SQL expression and the dataset
// location as the user gave it.
type source struct {
	expr, dataset string
}

// relation returns the FROM expression of the ttft_events view.
func relation(opts Options) (source, error) {
	switch opts.Dialect {
	case "duckdb":
		dir := opts.Dataset
		if dir == "" {
			dir = DefaultDir
		}
		// A dataset that exists is read through its committed file list, so
		// DuckDB never sees a part an interrupted ingest left; a folder that
		// does not exist yet (the views written ahead) is read by glob.
		files, err := dataset.Files(dir)
		if errors.Is(err, fs.ErrNotExist) {
			glob := path.Join(strings.ReplaceAll(dir, `\`, "/"), "**", "*.parquet")
			return source{"read_parquet(" + quote(glob) + ", hive_partitioning = true)", dir}, nil
		}
		if err != nil {
			return source{}, err
		}
		quoted := make([]string, len(files))
		for i, f := range files {
			quoted[i] = quote(filepath.ToSlash(f))
		}
		return source{"read_parquet([" + strings.Join(quoted, ", ") + "], hive_partitioning = true)", dir}, nil
	case "trino", "spark":
		table := opts.Dataset
		if table == "" {
			table = DefaultTable
		}
		if !tableName.MatchString(table) {
			return source{}, fmt.Errorf("table %q: want NAME, SCHEMA.NAME or CATALOG.SCHEMA.NAME of letters, digits and _", table)
		}
		return source{table, table}, nil
	}
	return source{}, fmt.Errorf("unknown SQL dialect %q (one of %s)", opts.Dialect, strings.Join(Dialects, ", "))
}

// quote returns s as a SQL string literal.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
