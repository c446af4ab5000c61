package crosscheck

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/schema"
	"github.com/ttftrace/ttftrace/sqlviews"
)

// TestViewsMatchAnalyze ingests a simulated fleet's client and proxy logs
// plus hand-made events that exercise every fallback and failure class,
// writes them as a dataset, and checks that DuckDB running the views gives
// analyze's group {} figures: counts exactly, every other figure within 1e-6
// relative.
func TestViewsMatchAnalyze(t *testing.T) {
	dir := t.TempDir()
	events := append(fleetEvents(t, filepath.Join(dir, "logs")), edgeEvents()...)
	ds := filepath.Join(dir, "dataset")
	if _, err := dataset.WriteDataset(ds, events); err != nil {
		t.Fatal(err)
	}
	stored, err := dataset.ReadEvents(ds)
	if err != nil {
		t.Fatal(err)
	}
	a := analyze.Run(stored, nil, analyze.Options{})

	ctx := context.Background()
	db, err := Open(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM request_metrics WHERE group_key = ''").Scan(&rows); err != nil || rows != len(stored) {
		t.Fatalf("request_metrics has %d rows (%v), the dataset %d events", rows, err, len(stored))
	}
	sums, err := Summaries(ctx, db, "metric_summary")
	if err != nil {
		t.Fatal(err)
	}
	compareSummaries(t, a.Metrics, sums)
	// Trino's and Spark's metric_summary compute exact percentiles from
	// weighted samples with window functions (standard SQL): run Trino's
	// text here too.
	if err := createFrom(ctx, db, "trino", "metric_summary", "trino_metric_summary"); err != nil {
		t.Fatal(err)
	}
	if sums, err = Summaries(ctx, db, "trino_metric_summary"); err != nil {
		t.Fatal(err)
	}
	compareSummaries(t, a.Metrics, sums)
	errs, err := Errors(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	compareErrors(t, a.Errors, errs)
}

// fleetEvents writes a 300-request fleet's logs into dir and ingests those
// whose formats this build decodes (ttftrace-client, genai-perf, envoy).
func fleetEvents(t *testing.T, dir string) []schema.Event {
	t.Helper()
	files, err := fleet.Generate(fleet.DefaultConfig(300)).WriteAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		if _, ok := ingest.Lookup(f.Format); ok {
			paths = append(paths, filepath.Join(dir, f.Name))
		}
	}
	if len(paths) < 4 {
		t.Fatalf("only %d fleet logs have a format in this build: %v", len(paths), files)
	}
	res, err := ingest.Run(paths, ingest.DriverOptions{
		LogFormats: map[string]string{"envoy": fleet.EnvoyLogFormat},
		Workers:    1,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range res.Inputs {
		if in.Error != nil || in.Rejected > 0 {
			t.Fatalf("ingest %s: error %v, %d rejected", in.Path, in.Error, in.Rejected)
		}
	}
	return res.Events
}

// createFrom creates view as, in db, from the statement that defines view
// in dialect's script; it suits views written in standard SQL only.
func createFrom(ctx context.Context, db *sql.DB, dialect, view, as string) error {
	var b strings.Builder
	if err := sqlviews.Write(&b, sqlviews.Options{Dialect: dialect}); err != nil {
		return err
	}
	head := "CREATE OR REPLACE VIEW " + view + " AS\n"
	_, stmt, ok := strings.Cut(b.String(), head)
	stmt, _, semi := strings.Cut(stmt, ";")
	if !ok || !semi {
		return fmt.Errorf("%s script has no view %s", dialect, view)
	}
	_, err := db.ExecContext(ctx, "CREATE VIEW "+as+" AS\n"+stmt)
	return err
}

// key names one (source, metric) or (source, class) figure.
func key(source, name string) string { return source + "/" + name }

// compareSummaries checks that the views give exactly the metrics of group
// {} that analyze gives, with the same figures.
func compareSummaries(t *testing.T, want []analyze.Metric, got []Summary) {
	t.Helper()
	byKey := map[string]Summary{}
	for _, s := range got {
		byKey[key(s.Source, s.Metric)] = s
	}
	var seen []string
	worst := 0.0
	for _, m := range want {
		if len(m.Group) > 0 {
			continue
		}
		k := key(m.Source, m.Metric)
		seen = append(seen, fmt.Sprintf("%s:%d", k, m.Count))
		s, ok := byKey[k]
		if !ok {
			t.Errorf("%s: in analyze (count %d), not in metric_summary", k, m.Count)
			continue
		}
		delete(byKey, k)
		if s.Count != m.Count || s.Unit != m.Unit {
			t.Errorf("%s: count %d %s, analyze %d %s", k, s.Count, s.Unit, m.Count, m.Unit)
		}
		pairs := []struct {
			name      string
			sql, want float64
		}{{"mean", s.Mean, m.Mean}, {"std", s.Std, m.Std}, {"min", s.Min, m.Min},
			{"p50", s.P50, m.P50}, {"p90", s.P90, m.P90}, {"p95", s.P95, m.P95},
			{"p99", s.P99, m.P99}, {"p999", s.P999, m.P999}, {"max", s.Max, m.Max}}
		for _, p := range pairs {
			worst = max(worst, relDiff(p.sql, p.want))
			if !close(p.sql, p.want) {
				t.Errorf("%s %s: sql %.12g, analyze %.12g", k, p.name, p.sql, p.want)
			}
		}
	}
	for k, s := range byKey {
		t.Errorf("%s: in metric_summary (count %d), not in analyze", k, s.Count)
	}
	t.Logf("compared %d metrics (count + 9 figures each), largest relative difference %.3g: %v", len(seen), worst, seen)
}

// relDiff is |a − b| relative to the larger magnitude, 0 when both are 0.
func relDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

// close reports whether a and b agree within 1e-6 relative (1e-9 absolute
// near zero).
func close(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(math.Abs(a), math.Abs(b))+1e-9
}

// compareErrors checks the failure counts of group {} class by class.
func compareErrors(t *testing.T, want []analyze.ErrorCount, got []ErrorCount) {
	t.Helper()
	var w, g []string
	for _, e := range want {
		if len(e.Group) == 0 {
			w = append(w, fmt.Sprintf("%s=%d", key(e.Source, e.Class), e.Count))
		}
	}
	for _, e := range got {
		g = append(g, fmt.Sprintf("%s=%d", key(e.Source, e.Class), e.Requests))
	}
	sort.Strings(w)
	sort.Strings(g)
	if fmt.Sprint(w) != fmt.Sprint(g) {
		t.Errorf("error_counts %v\nanalyze errors %v", g, w)
	}
	t.Logf("error counts: %v", g)
}
