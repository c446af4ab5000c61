// Package sqlviews writes SQL views that compute ttftrace's core per-source
// metrics (SPEC §2) over an event dataset, for DuckDB, Trino and Spark SQL,
// so the same analysis runs on an engine of the user's choice.
//
// The views follow analyze's definitions: the same success rule, the same
// fallbacks (first and last token from the chunk offsets, output tokens from
// the chunk token counts), the same pooled ITL and type 7 percentiles where
// the engine has exact ones. Instants stay int64 nanoseconds on the
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
	"strings"
	"text/template"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Dialects are the SQL dialects Write can produce, in the order the command
// line lists them.
var Dialects = []string{"duckdb", "trino", "spark"}

// Views are the views every dialect defines, in definition order.
var Views = []string{
	"ttft_events", "request_instants", "request_metrics", "chunk_gaps",
	"itl_samples", "metric_samples", "metric_percentiles", "metric_summary",
	"error_counts",
}

// DefaultTable is the table name the Trino and Spark views read when
// Options.Dataset is empty.
const DefaultTable = "ttftrace_events"

// DefaultDir is the dataset folder the DuckDB views read when
// Options.Dataset is empty: the one `ttftrace run -o .` writes.
const DefaultDir = "dataset"

// Options say which SQL to write.
type Options struct {
	// Dialect is one of Dialects.
	Dialect string
	// Dataset is, for DuckDB, the dataset folder (its **/*.parquet files are
	// read with hive partitioning); for Trino and Spark, the table (name,
	// schema.name or catalog.schema.name) defined over the dataset's files.
	// Empty means DefaultDir or DefaultTable.
	Dataset string
}

//go:embed *.sql
var files embed.FS

var templates = template.Must(template.New("").ParseFS(files, "*.sql"))

// tableName is a table name Trino and Spark accept unquoted, with up to
// two qualifiers.
var tableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$`)

// Write writes the header comment and the CREATE VIEW statements of
// opts.Dialect to w. It fails for an unknown dialect or a table name that is
// not a plain (optionally qualified) identifier.
func Write(w io.Writer, opts Options) error {
	rel, err := relation(opts)
	if err != nil {
		return err
	}
	var b strings.Builder
	writeHeader(&b, opts.Dialect, rel)
	data := struct{ Relation string }{rel.expr}
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

// dialectNotes is the part of the header that differs by dialect: how to
// point the views at a dataset, and what the percentiles are.
var dialectNotes = map[string]string{
	"duckdb": `-- DuckDB (1.3 or later): the views read %[1]s
-- directly. Run this file (duckdb my.db < views.sql, or .read views.sql),
-- then e.g. SELECT * FROM metric_summary ORDER BY source, metric_order;
-- Percentiles are exact type 7 (quantile_cont).
`,
	"trino": `-- Trino: the views read the table %[1]s. Define it over the dataset's
-- files with the Hive connector (partition columns last), then load the
-- partitions:
%[2]s--
-- Trino has no exact quantile_cont (approx_percentile is an approximate
-- sketch), so the exact type 7 percentiles are computed by ranking the
-- samples with window functions (metric_percentiles).
`,
	"spark": `-- Spark SQL (3.3 or later): the views read the table %[1]s. Define it
-- over the dataset folder (Spark discovers the source= and date= partitions):
--   CREATE TABLE %[1]s USING parquet LOCATION '/path/to/dataset';
--   MSCK REPAIR TABLE %[1]s;
-- Percentiles are exact type 7 (percentile, linear interpolation).
`,
}

// writeHeader writes the comment at the top of the output: what the views
// are, where they read, and the dialect's caveats.
func writeHeader(b *strings.Builder, dialect string, rel source) {
	fmt.Fprintf(b, "-- ttftrace SQL views (%s), event schema version %d.\n", dialect, schema.Version)
	b.WriteString(`--
-- One row of the dataset is one request as seen by one observer (source:
-- client, proxy or server). Instants are int64 ns on that observer's clock;
-- latencies below are ms, tps_user tokens/s. A metric never mixes sources:
-- group by source. Latency metrics cover successful requests only (success:
-- no error class, status 2xx or not logged, stream completed or not known).
--
`)
	writeWrapped(b, "-- Views: "+strings.Join(Views, ", ")+".", 78)
	b.WriteString("--\n")
	fmt.Fprintf(b, dialectNotes[dialect], rel.dataset, trinoDDL(rel.dataset))
	b.WriteString("\n")
}

// writeWrapped writes text as comment lines of at most width bytes, breaking
// at spaces; continuation lines start with "--   ".
func writeWrapped(b *strings.Builder, text string, width int) {
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = "--  "
		}
		if line == "" {
			line = word
		} else {
			line += " " + word
		}
	}
	b.WriteString(line + "\n")
}

// trinoDDL returns the commented CREATE TABLE statement of the dataset for
// Trino's Hive connector, with every column of the event schema.
func trinoDDL(table string) string {
	schemaName, name := "your_schema", table
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		schemaName, name = table[:i], table[i+1:]
		if j := strings.LastIndexByte(schemaName, '.'); j >= 0 {
			schemaName = schemaName[j+1:]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--   CREATE TABLE %s (\n", table)
	for _, c := range schema.Columns() {
		if c.Name != "source" {
			fmt.Fprintf(&b, "--     %s %s,\n", c.Name, trinoType(c.Type))
		}
	}
	b.WriteString("--     source varchar,\n--     \"date\" varchar\n--   ) WITH (format = 'PARQUET',\n")
	b.WriteString("--     external_location = 's3://bucket/path/to/dataset',\n")
	b.WriteString("--     partitioned_by = ARRAY['source', 'date']);\n")
	fmt.Fprintf(&b, "--   CALL system.sync_partition_metadata('%s', '%s', 'ADD');\n", schemaName, name)
	return b.String()
}

// trinoType maps a schema.Column type (STRING, INT64, LIST<INT64>,
// MAP<STRING,STRING>…) to Trino's type name.
func trinoType(t string) string {
	if inner, ok := strings.CutPrefix(t, "LIST<"); ok {
		return "array(" + trinoType(strings.TrimSuffix(inner, ">")) + ")"
	}
	if inner, ok := strings.CutPrefix(t, "MAP<"); ok {
		k, v, _ := strings.Cut(strings.TrimSuffix(inner, ">"), ",")
		return "map(" + trinoType(k) + ", " + trinoType(v) + ")"
	}
	switch t {
	case "STRING":
		return "varchar"
	case "INT64":
		return "bigint"
	case "INT32":
		return "integer"
	case "BOOLEAN":
		return "boolean"
	}
	return strings.ToLower(t)
}
