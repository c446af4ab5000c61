package sqlviews

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

// dialectNotes is the part of the header that differs by dialect: how to
// point the views at a dataset.
var dialectNotes = map[string]string{
	"duckdb": `-- DuckDB (1.3 or later): the views read %[1]s
-- directly. Run this file (duckdb my.db < views.sql, or .read views.sql),
-- then e.g. SELECT * FROM metric_summary ORDER BY source, metric_order;
`,
	"trino": `-- Trino: the views read the table %[1]s. Define it over the dataset's
-- files with the Hive connector (partition columns last), then load the
-- partitions:
%[2]s`,
	"spark": `-- Spark SQL (3.4 or later): the views read the table %[1]s. Define it
-- over the dataset folder (Spark discovers the source= and date= partitions
-- and skips the _manifest and _rejects files):
--   CREATE TABLE %[1]s USING parquet LOCATION '/path/to/dataset';
-- then run this file (spark-sql -f views.sql) and query the views, e.g.
-- SELECT * FROM metric_summary ORDER BY source, group_key, metric_order;
-- Spark expands a view wherever a query names it, and the breakdown names
-- the id join four times (an out-of-memory plan on a 2 GB driver): so
-- id_joins and clock_bounds are Parquet tables in the warehouse, written
-- once when this file runs (DROP TABLE, CREATE TABLE … AS). They are a
-- snapshot: run the file again after an ingest.
`,
}

// percentileNotes say what the percentiles are, exact or --approx.
var percentileNotes = map[string][2]string{
	"duckdb": {"exact type 7 (quantile_cont), from every sample of a group",
		"approx_quantile (t-digest: mergeable, one pass; rank error typically well under 1%, not bounded)"},
	"trino": {"exact type 7, from a sort per group with window functions (Trino's approx_percentile is approximate)",
		"approx_percentile with weights (t-digest: mergeable, one pass; rank error typically well under 1%, not bounded)"},
	"spark": {"exact type 7, from a sort per group with window functions (sorts spill to disk; percentile() would hold a group in one task's memory)",
		"percentile_approx(value, p, 10000) (Greenwald-Khanna: mergeable; rank error at most 1/10000 of a group's samples)"},
}

// writeHeader writes the comment at the top of the output: what the views
// are, where they read, what they cover, and the dialect's caveats.
func writeHeader(b *strings.Builder, opts Options, rel source, win time.Duration) {
	fmt.Fprintf(b, "-- ttftrace SQL views (%s), event schema version %d.\n", opts.Dialect, schema.Version)
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
	by := []string{"{} (all requests)"}
	for _, keys := range breakdowns(opts.By) {
		by = append(by, strings.Join(keys, "+"))
	}
	writeWrapped(b, "-- Groups (--by): "+strings.Join(by, ", ")+". Time-series window: "+
		formatWindow(win)+" (--window).", 78)
	p := percentileNotes[opts.Dialect]
	note := p[0]
	if opts.Approx {
		note = p[1]
	}
	writeWrapped(b, "-- Percentiles: "+note+".", 78)
	writeWrapped(b, "-- Not in SQL (analyze only): time-window and chain matching of requests without a shared trace or "+
		"request id, and the clock offsets and breakdown bands they add (ttft_breakdown covers the id-joined requests only); "+
		"goodput (it needs the SLO limits of analyze --slo); confidence intervals, histograms, ITL by token position. "+
		"Instants are read as logged: analyze reads an instant its format truncates (nginx's and Envoy's ms starts) "+
		"half its error range later, so on such proxies client_to_proxy here is that much (0.5 ms) lower and "+
		"proxy_to_server higher.", 78)
	b.WriteString("--\n")
	fmt.Fprintf(b, dialectNotes[opts.Dialect], rel.dataset, trinoDDL(rel.dataset))
	b.WriteString("\n")
}

// formatWindow writes a window width as --window takes it: 1m, 10s, 2h.
func formatWindow(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return d.String()
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
