package analyze

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/analyze/reconcile"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// sourceOrder is the order sources are reported in; any other source
// follows, alphabetically.
var sourceOrder = []string{schema.SourceClient, schema.SourceProxy, schema.SourceServer}

// classOrder is the order error classes are reported in; any other class
// follows, alphabetically.
var classOrder = []string{schema.ErrorRateLimited, schema.ErrorClient, schema.ErrorServer,
	schema.ErrorInterrupted, schema.ErrorTimeout}

// Run analyses events as RunColumns does, for events already in memory.
func Run(events []schema.Event, inputs []schema.InputStats, opts Options) *Analysis {
	c, err := dataset.ColumnsOf(events, ColumnsOptions(opts))
	if err != nil { // only beyond 255 distinct sources, clocks, formats or error classes
		a := RunColumns(&dataset.Columns{}, inputs, opts)
		a.Notes = append(a.Notes, "events not analysed: "+err.Error())
		return a
	}
	return RunColumns(c, inputs, opts)
}

// RunColumns analyses the events of c one source at a time: per-request
// latency metrics with their statistics per group, failures by class, time
// series over wall-clock windows and the report's feeds, and reconciles
// them across sources (Matching, ClockOffsets, TTFTBreakdown, TTFTDelta,
// Examples, Slowest, ReferenceClocks), with the data-quality Warnings. It is pure and deterministic. c must have been read with
// ColumnsOptions; reconciliation drops c's id columns (TraceID, IDKeys) once
// it no longer needs them.
func RunColumns(c *dataset.Columns, inputs []schema.InputStats, opts Options) *Analysis {
	a := &Analysis{
		SchemaVersion:   SchemaVersion,
		Inputs:          append([]schema.InputStats{}, inputs...),
		RejectsByReason: rejectsByReason(inputs),
		Metrics:         []Metric{},
		Errors:          []ErrorCount{},
		Matching:        []reconcile.Matching{},
		ClockOffsets:    []reconcile.ClockOffset{},
		TTFTBreakdown:   []reconcile.BreakdownBand{},
		Timeseries:      []Series{},
		Sources:         []SourceSummary{},
		Distributions:   []Distribution{},
		ITLByPosition:   []PositionSeries{},
		TTFTByPrompt:    []Scatter{},
		Examples:        []reconcile.Timeline{},
		Throughput:      []Throughput{},
	}
	defs := metricsFor(opts.Compat)
	var bySource map[string][]int32
	var grid grid
	var gridNotes []string
	parallel.RunTasks([]func(){func() { bySource = splitBySource(c) },
		func() { grid, gridNotes = chooseGrid(c, opts.Window) }}, opts.Workers)
	sources := orderedSources(bySource)
	figs := make([]sourceFigures, len(sources))
	var rec *reconcile.Result
	slow := newSlowest(c, bySource[schema.SourceClient], slowestCount)
	idsJoined := make(chan struct{})
	tasks := []func(){func() {
		rec = reconcile.Columns(c, inputs, reconcile.Options{Workers: opts.Workers, PartSize: opts.partSize,
			KeepRequests: opts.KeepRequests, IDsJoined: func() { close(idsJoined) }, Each: func(q *reconcile.ReconciledRequest) {
				slow.add(c, q)
			}})
	}, func() { a.Warnings = warnings(c, inputs, opts) }}
	// The figures' tasks are taken kind by kind, every source's metrics
	// last: they split across the workers, so whichever task finishes the
	// analysis, the cores finish together.
	var byKind [][]func()
	for i, src := range sources {
		for kind, t := range figs[i].tasks(c, src, bySource[src], grid, opts, defs) {
			if kind == len(byKind) {
				byKind = append(byKind, nil)
			}
			// The figures start once the id joins are done: their
			// working data and the ids' index are then never held at once.
			byKind[kind] = append(byKind[kind], func() { <-idsJoined; t() })
		}
	}
	tasks = slices.Concat(append([][]func(){tasks}, byKind...)...)
	parallel.RunTasks(tasks, opts.Workers)
	for _, f := range figs {
		f.appendTo(a)
	}
	a.Matching = append(a.Matching, rec.Matching...)
	a.ClockOffsets = append(a.ClockOffsets, rec.ClockOffsets...)
	a.TTFTBreakdown = append(a.TTFTBreakdown, rec.TTFTBreakdown...)
	a.Examples = append(a.Examples, rec.Examples...)
	a.TTFTDelta = deltaMetric(rec.TTFTDeltas)
	a.Slowest, a.ReferenceClocks = slow.out, referenceCounts(rec.ByReference).list()
	if opts.KeepRequests {
		a.Requests = rec.Requests
	}
	a.Options = echoOptions(opts, grid)
	a.Notes = append(clockNotes(c), startNotes(c, bySource)...)
	a.Notes = append(a.Notes, gridNotes...)
	a.Notes = append(a.Notes, optionNotes(opts, defs)...)
	a.Notes = append(a.Notes, rec.Notes...)
	return a
}

// sourceFigures are the figures of one source, computed by independent
// tasks (each writes only its own fields).
type sourceFigures struct {
	metrics []Metric
	errors  []ErrorCount
	summary SourceSummary
	dists   []Distribution
	itl     []PositionSeries
	scatter []Scatter
	series  []Series
	through []Throughput
}

// tasks returns the tasks computing the figures of source src, always the
// same kinds in the same order, the metrics (which run in parallel
// themselves) last.
func (f *sourceFigures) tasks(c *dataset.Columns, src string, rows []int32, g grid, opts Options, defs []metricDef) []func() {
	return []func(){func() {
		f.series = timeseries(c, src, rows, g, opts.SLO, defs)
	}, func() {
		if ps, ok := itlByPosition(c, src, rows); ok {
			f.itl = append(f.itl, ps)
		}
	}, func() {
		f.summary = summarizeSource(c, src, rows)
		if sc, ok := ttftByPrompt(c, src, rows); ok {
			f.scatter = append(f.scatter, sc)
		}
	}, func() {
		if t, ok := throughputOf(c, src, rows, opts.SLO, defs); ok {
			f.through = append(f.through, t)
		}
	}, func() {
		acc := accumulate(c, rows, opts.By)
		f.metrics = acc.metrics(src, defs, parallel.Split{Workers: opts.Workers})
		f.errors = acc.errorCounts(src)
		f.dists = acc.distributions()
	}}
}

// appendTo appends the figures to a, in the order Run reports them.
func (f *sourceFigures) appendTo(a *Analysis) {
	a.Metrics = append(a.Metrics, f.metrics...)
	a.Errors = append(a.Errors, f.errors...)
	a.Sources = append(a.Sources, f.summary)
	a.Distributions = append(a.Distributions, f.dists...)
	a.ITLByPosition = append(a.ITLByPosition, f.itl...)
	a.TTFTByPrompt = append(a.TTFTByPrompt, f.scatter...)
	a.Timeseries = append(a.Timeseries, f.series...)
	a.Throughput = append(a.Throughput, f.through...)
}

// rejectsByReason sums the inputs' rejects by reason.
func rejectsByReason(inputs []schema.InputStats) map[string]int64 {
	m := map[string]int64{}
	for _, in := range inputs {
		for r, n := range in.RejectsByReason {
			m[r] += n
		}
	}
	return m
}

// splitBySource groups the rows of c by source, in input order.
func splitBySource(c *dataset.Columns) map[string][]int32 {
	var counts [256]int
	for _, code := range c.Source.Codes {
		counts[code]++
	}
	byCode := make([][]int32, len(c.Source.Values))
	for code := range byCode {
		if counts[code] > 0 {
			byCode[code] = make([]int32, 0, counts[code])
		}
	}
	for i, code := range c.Source.Codes {
		byCode[code] = append(byCode[code], int32(i))
	}
	m := map[string][]int32{}
	for code, rows := range byCode {
		if len(rows) > 0 {
			m[c.Source.Values[code]] = rows
		}
	}
	return m
}

// orderedSources returns the sources present: client, proxy, server, then
// any other alphabetically.
func orderedSources(m map[string][]int32) []string {
	return orderedKeys(slices.Collect(maps.Keys(m)), sourceOrder)
}

// orderedKeys returns keys with those listed in first in that order, then
// the rest sorted.
func orderedKeys(keys, first []string) []string {
	var out, rest []string
	for _, k := range first {
		if slices.Contains(keys, k) {
			out = append(out, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(first, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// echoOptions records the options as run: breakdowns joined with "+", the
// window actually used (empty without wall-clock events).
func echoOptions(opts Options, g grid) OptionsEcho {
	echo := OptionsEcho{By: []string{}, SLO: map[string]float64{}, Compat: opts.Compat}
	for _, keys := range opts.By {
		if len(keys) > 0 {
			echo.By = append(echo.By, strings.Join(keys, "+"))
		}
	}
	maps.Copy(echo.SLO, opts.SLO)
	if g.n > 0 {
		echo.Window = formatWindow(g.width)
	}
	return echo
}

// formatWindow writes a window as the command line takes it: "1d", "6h",
// "5m", "30s", or Go's duration syntax for anything else.
func formatWindow(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
	for _, u := range units {
		if d >= u.d && d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return d.String()
}
