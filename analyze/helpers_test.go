package analyze

import (
	"maps"
	"math"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// t0 is 2026-11-23T10:00:00Z in Unix nanoseconds, aligned to every window.
var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC).UnixNano()

// at returns the instant offMs milliseconds after t0.
func at(offMs float64) *int64 { return ptr(t0 + int64(offMs*1e6)) }

// offsets converts chunk offsets in ms to ns.
func offsets(ms ...float64) []int64 {
	out := make([]int64, len(ms))
	for i, v := range ms {
		out[i] = int64(v * 1e6)
	}
	return out
}

// findMetric returns the metric of src named name over group, or fails.
func metricOf(t *testing.T, a *Analysis, src, name string, group map[string]string) Metric {
	t.Helper()
	if group == nil {
		group = map[string]string{}
	}
	for _, m := range a.Metrics {
		if m.Source == src && m.Metric == name && maps.Equal(m.Group, group) {
			return m
		}
	}
	t.Fatalf("no metric %s %s %v", src, name, group)
	return Metric{}
}

// hasMetric reports whether a holds the metric of src named name over {}.
func hasMetric(a *Analysis, src, name string) bool {
	for _, m := range a.Metrics {
		if m.Source == src && m.Metric == name && len(m.Group) == 0 {
			return true
		}
	}
	return false
}

// near reports whether got is within 1e-9 of want.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)) }

// checkStats compares a metric's count, mean, min, p50, p90 and max.
func checkStats(t *testing.T, m Metric, count int64, mean, min, p50, p90, max float64) {
	t.Helper()
	if m.Count != count || !near(m.Mean, mean) || !near(m.Min, min) || !near(m.P50, p50) || !near(m.P90, p90) || !near(m.Max, max) {
		t.Errorf("%s %s %v: count %d mean %g min %g p50 %g p90 %g max %g; want %d %g %g %g %g %g",
			m.Source, m.Metric, m.Group, m.Count, m.Mean, m.Min, m.P50, m.P90, m.Max, count, mean, min, p50, p90, max)
	}
}

// wallEvent returns a successful wall-clock event of src starting offMs
// after t0.
func wallEvent(src string, offMs float64) schema.Event {
	return schema.Event{Source: src, Format: "test", Host: "h", Clock: schema.ClockWall, StartNs: at(offMs)}
}

// eventsOf returns events as Columns and their row handles, in order.
func eventsOf(t *testing.T, evs ...schema.Event) (*dataset.Columns, []event) {
	t.Helper()
	c, err := dataset.ColumnsOf(evs, ColumnsOptions(Options{By: [][]string{{"app"}, {"empty"}, {"tenant"}}}))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]event, c.Rows)
	for i := range out {
		out[i] = event{c, i}
	}
	return c, out
}

// oneEvent returns e as an event of a one-row Columns.
func oneEvent(t *testing.T, e schema.Event) event {
	t.Helper()
	_, evs := eventsOf(t, e)
	return evs[0]
}

// allRows returns the rows 0…n−1.
func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}
