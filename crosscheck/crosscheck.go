// Package crosscheck runs the DuckDB SQL views of `ttftrace sql` over a
// dataset and reads back their figures, so a test can compare them with
// analyze's. It is a module of its own: the DuckDB driver is cgo with
// large static libraries, kept out of the main module.
package crosscheck

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver
	"github.com/ttftrace/ttftrace/sqlviews"
)

// Summary is one row of the metric_summary view: a metric's statistics over
// the successful requests of one source, in the metric's unit.
type Summary struct {
	Source, Metric, Unit                          string
	Count                                         int64
	Mean, Std, Min, P50, P90, P95, P99, P999, Max float64
}

// ErrorCount is one row of the error_counts view.
type ErrorCount struct {
	Source, Class string
	Requests      int64
}

// Open starts an in-memory DuckDB and creates the views over the dataset
// folder dir.
func Open(ctx context.Context, dir string) (*sql.DB, error) {
	var b strings.Builder
	if err := sqlviews.Write(&b, sqlviews.Options{Dialect: "duckdb", Dataset: dir}); err != nil {
		return nil, err
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one in-memory database, one connection
	if _, err := db.ExecContext(ctx, b.String()); err != nil {
		db.Close()
		return nil, fmt.Errorf("create views: %w", err)
	}
	return db, nil
}

// Summaries returns the group {} rows of view, a view shaped like
// metric_summary (a name of letters, digits and _), by source and metric
// order.
func Summaries(ctx context.Context, db *sql.DB, view string) ([]Summary, error) {
	if strings.Trim(view, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		return nil, fmt.Errorf("view name %q", view)
	}
	rows, err := db.QueryContext(ctx, `SELECT source, metric, unit, count, mean, std, min,
		p50, p90, p95, p99, p999, max FROM `+view+` WHERE group_key = '' ORDER BY source, metric_order`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var s Summary
		if err := rows.Scan(&s.Source, &s.Metric, &s.Unit, &s.Count, &s.Mean, &s.Std, &s.Min,
			&s.P50, &s.P90, &s.P95, &s.P99, &s.P999, &s.Max); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Errors returns the group {} rows of error_counts, by source and class.
func Errors(ctx context.Context, db *sql.DB) ([]ErrorCount, error) {
	rows, err := db.QueryContext(ctx, `SELECT source, failure_class, requests FROM error_counts WHERE group_key = '' ORDER BY source, failure_class`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ErrorCount
	for rows.Next() {
		var e ErrorCount
		if err := rows.Scan(&e.Source, &e.Class, &e.Requests); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
