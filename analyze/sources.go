package analyze

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

// summarizeSource counts one source's events, successes and failures, and
// names its formats, hosts and clocks; First and Last are the earliest start
// and the latest instant (end, else start) of its wall-clock events.
func summarizeSource(src string, evs []*schema.Event) SourceSummary {
	s := SourceSummary{Source: src, Events: int64(len(evs))}
	formats, hosts, clocks := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var first, last instant
	for _, e := range evs {
		if succeeded(e) {
			s.Succeeded++
		} else {
			s.Failed++
		}
		formats[e.Format], hosts[e.Host], clocks[e.Clock] = true, true, true
		if e.Clock != schema.ClockWall || e.StartNs == nil {
			continue
		}
		if !first.ok || *e.StartNs < first.ns {
			first = instant{*e.StartNs, true}
		}
		end := *e.StartNs
		if e.EndNs != nil {
			end = max(end, *e.EndNs)
		}
		if !last.ok || end > last.ns {
			last = instant{end, true}
		}
	}
	s.Formats, s.Hosts = sortedSet(formats), sortedSet(hosts)
	s.Clock = strings.Join(sortedSet(clocks), ",")
	if first.ok {
		s.First, s.Last = rfc3339(first.ns), rfc3339(last.ns)
	}
	return s
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
func clockNotes(events []schema.Event) []string {
	type key struct{ clock, format string }
	counts := map[key]int{}
	for i := range events {
		if c := events[i].Clock; c != schema.ClockWall {
			counts[key{c, events[i].Format}]++
		}
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
func startNotes(bySource map[string][]*schema.Event) []string {
	var notes []string
	for _, src := range orderedSources(bySource) {
		n := 0
		for _, e := range bySource[src] {
			if e.StartNs == nil {
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
