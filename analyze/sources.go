package analyze

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// summarizeSource counts one source's events, successes and failures, and
// names its formats, hosts and clocks; First and Last are the earliest start
// and the latest instant (end, else start) of its wall-clock events.
func summarizeSource(c *dataset.Columns, src string, rows []int32) SourceSummary {
	s := SourceSummary{Source: src, Events: int64(len(rows))}
	var formats, clocks [256]bool
	hosts := make([]bool, len(c.Host.Values))
	var first, last instant
	for _, row := range rows {
		e := event{c, int(row)}
		if succeeded(e) {
			s.Succeeded++
		} else {
			s.Failed++
		}
		formats[c.Format.Codes[row]], hosts[c.Host.Codes[row]], clocks[c.Clock.Codes[row]] = true, true, true
		start := e.at(&c.StartNs)
		if e.clock() != schema.ClockWall || !start.ok {
			continue
		}
		if !first.ok || start.ns < first.ns {
			first = start
		}
		end := start.ns
		if t := e.at(&c.EndNs); t.ok {
			end = max(end, t.ns)
		}
		if !last.ok || end > last.ns {
			last = instant{end, true}
		}
	}
	s.Formats, s.Hosts = sortedSet(codeSet(formats[:], c.Format.Values)), sortedSet(codeSet(hosts, c.Host.Values))
	s.Clock = strings.Join(sortedSet(codeSet(clocks[:], c.Clock.Values)), ",")
	if first.ok {
		s.First, s.Last = rfc3339(first.ns), rfc3339(last.ns)
	}
	return s
}

// codeSet returns the strings of a set of dictionary codes, given as a
// flag per code.
func codeSet(codes []bool, values []string) map[string]bool {
	set := map[string]bool{}
	for k, in := range codes {
		if in {
			set[values[k]] = true
		}
	}
	return set
}

// sortedSet returns the non-empty members of set, sorted.
func sortedSet(set map[string]bool) []string {
	delete(set, "")
	out := slices.Sorted(maps.Keys(set))
	if out == nil {
		return []string{}
	}
	return out
}

// rfc3339 formats Unix nanoseconds as RFC 3339 UTC, with as many fractional
// digits as needed.
func rfc3339(ns int64) string {
	return time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
}

// clockNotes warns about events that cannot take part in the time series or
// in reconciliation: relative and steady clocks, counted per format.
func clockNotes(c *dataset.Columns) []string {
	type key struct{ clock, format string }
	type codes struct{ clock, format uint8 }
	byCode := map[codes]int{}
	for i, clock := range c.Clock.Codes {
		if c.Clock.Values[clock] != schema.ClockWall {
			byCode[codes{clock, c.Format.Codes[i]}]++
		}
	}
	counts := map[key]int{}
	for k, n := range byCode {
		counts[key{c.Clock.Values[k.clock], c.Format.Values[k.format]}] += n
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b key) int {
		return strings.Compare(a.clock+"\x00"+a.format, b.clock+"\x00"+b.format)
	})
	notes := []string{}
	for _, k := range keys {
		switch k.clock {
		case schema.ClockRelative:
			notes = append(notes, fmt.Sprintf("%d events of format %s use a relative clock: they never join with other sources and are left out of the time series", counts[k], k.format))
		case schema.ClockSteady:
			notes = append(notes, fmt.Sprintf("%d events of format %s use a steady (monotonic) clock: they are not joined with other sources and are left out of the time series", counts[k], k.format))
		default:
			notes = append(notes, fmt.Sprintf("%d events of format %s have clock %q, which is not a wall clock: they are not joined with other sources and are left out of the time series", counts[k], k.format, k.clock))
		}
	}
	return notes
}

// startNotes counts, per source, the events without a start instant: they
// give no latency figure and no time-series point.
func startNotes(c *dataset.Columns, bySource map[string][]int32) []string {
	var notes []string
	for _, src := range orderedSources(bySource) {
		n := 0
		for _, row := range bySource[src] {
			if !c.StartNs.Has(int(row)) {
				n++
			}
		}
		if n > 0 {
			notes = append(notes, fmt.Sprintf("%d %s events have no start instant: they count as requests and failures but give no latency figure", n, src))
		}
	}
	return notes
}

// optionNotes warns about options that were ignored: an unknown --compat
// name and SLO keys that name no per-request metric.
func optionNotes(opts Options, defs []metricDef) []string {
	var notes []string
	if opts.Compat != "" && compatMetrics[opts.Compat] == nil {
		notes = append(notes, fmt.Sprintf("--compat %q is not a known peer tool (vllm, genai-perf, guidellm, llmperf): ignored", opts.Compat))
	}
	for _, k := range slices.Sorted(maps.Keys(opts.SLO)) {
		if findMetric(defs, k) == nil {
			notes = append(notes, fmt.Sprintf("SLO on %q names no metric: ignored for goodput", k))
		}
	}
	return notes
}

// findMetric returns the definition named name, or nil.
func findMetric(defs []metricDef, name string) *metricDef {
	for i := range defs {
		if defs[i].name == name {
			return &defs[i]
		}
	}
	return nil
}
