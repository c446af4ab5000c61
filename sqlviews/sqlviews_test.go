package sqlviews

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// createView finds the views a script defines, in order (Spark's
// materialized ones are tables).
var createView = regexp.MustCompile(`(?m)^(?:CREATE OR REPLACE VIEW (\w+) AS|CREATE TABLE (\w+) USING parquet AS)$`)

// TestGolden writes every dialect's views with its default dataset and
// compares them with testdata/<dialect>.sql.golden (-update rewrites them).
// Each script must define exactly Views, in order, read the default
// dataset, and leave no template action behind. The DuckDB script is run
// against analyze by the crosscheck module (crosscheck/run.sh); the Trino
// and Spark ones are checked here only for shape.
func TestGolden(t *testing.T) {
	for _, d := range Dialects {
		t.Run(d, func(t *testing.T) {
			var b strings.Builder
			if err := Write(&b, Options{Dialect: d}); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			var views []string
			for _, m := range createView.FindAllStringSubmatch(got, -1) {
				views = append(views, m[1]+m[2])
			}
			if !slices.Equal(views, Views) {
				t.Errorf("views %v, want %v", views, Views)
			}
			from := map[string]string{"duckdb": "FROM read_parquet('dataset/**/*.parquet', hive_partitioning = true);"}[d]
			if from == "" {
				from = "FROM ttftrace_events;"
			}
			if !strings.Contains(got, from) || strings.Contains(got, "{{") || strings.Contains(got, "%!") {
				t.Errorf("script lacks %q or has a template or format leftover", from)
			}
			golden := filepath.Join("testdata", d+".sql.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil || string(want) != got {
				t.Errorf("output differs from %s (err %v); rerun with -update and review the diff", golden, err)
			}
		})
	}
}

// metricRow finds the metric_order, metric and unit of each branch of
// metric_samples.
var metricRow = regexp.MustCompile(`window_ns,\s+(\d+)(?: AS metric_order)?, '(\w+)'(?: AS metric)?, '([^']+)'`)

// TestMetricNames checks that metric_samples names the metrics analyze
// reports, with their units, in analyze's order (analyze/metrics.go
// coreMetrics), and that metric_summary reports every figure of
// analysis.json's metrics.
func TestMetricNames(t *testing.T) {
	want := "[1 ttft ms] [2 time_to_headers ms] [3 e2e ms] [4 tpot ms] [5 itl ms] [6 chunk_gap ms] " +
		"[7 tps_user tokens/s] [8 queue ms] [9 prefill ms] [10 decode ms]"
	for _, d := range Dialects {
		var b strings.Builder
		if err := Write(&b, Options{Dialect: d}); err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, m := range metricRow.FindAllStringSubmatch(b.String(), -1) {
			rows = append(rows, "["+strings.Join(m[1:], " ")+"]")
		}
		if got := strings.Join(rows, " "); got != want {
			t.Errorf("%s: metric_samples rows\n%s\nwant\n%s", d, got, want)
		}
		summary := b.String()[strings.Index(b.String(), "VIEW metric_summary"):]
		for _, f := range []string{"count", "mean", "std", "min", "p50", "p90", "p95", "p99", "p999", "max"} {
			if !regexp.MustCompile(`AS ` + f + `\b`).MatchString(summary) {
				t.Errorf("%s: metric_summary lacks %s", d, f)
			}
		}
	}
}

// TestOptions checks dataset locations: a DuckDB folder with a quote and a
// trailing slash, qualified table names, and the names refused.
func TestOptions(t *testing.T) {
	cases := []struct {
		opts Options
		want string // "" = refused
	}{
		{Options{Dialect: "duckdb", Dataset: "/data/o'brien/ds/"}, "read_parquet('/data/o''brien/ds/**/*.parquet', hive_partitioning = true)"},
		{Options{Dialect: "trino", Dataset: "hive.ttftrace.events"}, "FROM hive.ttftrace.events;"},
		{Options{Dialect: "spark", Dataset: "events_2026"}, "FROM events_2026;"},
		{Options{Dialect: "trino", Dataset: "a.b.c.d"}, ""},
		{Options{Dialect: "spark", Dataset: "x; DROP TABLE y"}, ""},
		{Options{Dialect: "spark", Dataset: "1abc"}, ""},
		{Options{Dialect: "oracle"}, ""},
		{Options{}, ""},
	}
	for _, c := range cases {
		var b strings.Builder
		err := Write(&b, c.opts)
		if c.want == "" {
			if err == nil {
				t.Errorf("%+v: no error", c.opts)
			}
			continue
		}
		if err != nil || !strings.Contains(b.String(), c.want) {
			t.Errorf("%+v: err %v, output lacks %q", c.opts, err, c.want)
		}
	}
}

// TestTrinoDDL checks the commented CREATE TABLE of the Trino header: every
// schema column once, partition columns last, types mapped.
func TestTrinoDDL(t *testing.T) {
	ddl := trinoDDL("hive.tt.events")
	for _, c := range schema.Columns() {
		if n := strings.Count(ddl, "--     "+c.Name+" "); n != 1 {
			t.Errorf("column %s appears %d times", c.Name, n)
		}
	}
	for _, s := range []string{"chunk_offsets_ns array(bigint),", "chunk_tokens array(integer),",
		"attrs map(varchar, varchar),", "status integer,", "stream boolean,",
		"source varchar,\n--     \"date\" varchar\n", "sync_partition_metadata('tt', 'events', 'ADD')"} {
		if !strings.Contains(ddl, s) {
			t.Errorf("DDL lacks %q:\n%s", s, ddl)
		}
	}
}

// TestSparkTables checks that the Spark script writes id_joins and
// clock_bounds once as tables, each dropped first and defined after the
// views it reads, and that the other dialects keep them views.
func TestSparkTables(t *testing.T) {
	for _, d := range Dialects {
		var b strings.Builder
		if err := Write(&b, Options{Dialect: d}); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		for _, name := range []string{"id_joins", "clock_bounds"} {
			table := "DROP TABLE IF EXISTS " + name + ";\nCREATE TABLE " + name + " USING parquet AS\n"
			view := "CREATE OR REPLACE VIEW " + name + " AS\n"
			want, not := view, table
			if d == "spark" {
				want, not = table, view
			}
			if strings.Count(got, want) != 1 || strings.Contains(got, not) {
				t.Errorf("%s: %s is not defined once by %q", d, name, want)
			}
		}
	}
}
