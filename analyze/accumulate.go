package analyze

import (
	"maps"
	"slices"

	"github.com/ttftrace/ttftrace/schema"
)

// groupAcc collects one group's samples (one slice per metric definition,
// in definition order) and failures by class.
type groupAcc struct {
	key     groupKey
	samples [][]float64
	errors  map[string]int64
}

// sourceAcc collects the groups of one source.
type sourceAcc struct {
	groups map[string]*groupAcc
	all    *groupAcc // group {}
}

// accumulate collects, for every group of every event, the samples of each
// metric over successful requests and the failure classes of the others.
func accumulate(evs []*schema.Event, by [][]string, defs []metricDef) *sourceAcc {
	acc := &sourceAcc{groups: map[string]*groupAcc{}}
	var buf []float64
	bufs := make([][]float64, len(defs))
	for _, e := range evs {
		ok := succeeded(e)
		if ok {
			r := newRequest(e)
			for i, d := range defs {
				buf = d.samples(&r, buf[:0])
				bufs[i] = append(bufs[i][:0], buf...)
			}
		}
		for _, g := range groupsOf(e, by) {
			ga := acc.group(g, len(defs))
			if !ok {
				ga.errors[failureClass(e)]++
				continue
			}
			for i := range defs {
				ga.samples[i] = append(ga.samples[i], bufs[i]...)
			}
		}
	}
	acc.all = acc.group(groupKey{by: -1}, len(defs))
	return acc
}

// group returns the accumulator of g, creating it.
func (acc *sourceAcc) group(g groupKey, metrics int) *groupAcc {
	id := g.id()
	ga := acc.groups[id]
	if ga == nil {
		ga = &groupAcc{key: g, samples: make([][]float64, metrics), errors: map[string]int64{}}
		acc.groups[id] = ga
	}
	return ga
}

// sorted returns the groups: {} first, then by breakdown and values.
func (acc *sourceAcc) sorted() []*groupAcc {
	gs := slices.Collect(maps.Values(acc.groups))
	slices.SortFunc(gs, func(a, b *groupAcc) int { return compareGroups(a.key, b.key) })
	return gs
}

// metrics returns the statistics of every metric with samples, group by
// group, metrics in definition order. It sorts the samples in place.
func (acc *sourceAcc) metrics(src string, defs []metricDef) []Metric {
	var out []Metric
	for _, ga := range acc.sorted() {
		for i, d := range defs {
			s, ok := summarize(ga.samples[i])
			if !ok {
				continue
			}
			out = append(out, newMetric(src, d, ga.key.labels(), s))
		}
	}
	return out
}

// newMetric fills a Metric from its definition and statistics.
func newMetric(src string, d metricDef, group map[string]string, s stats) Metric {
	m := Metric{
		Source: src, Metric: d.name, Unit: d.unit, From: d.from, To: d.to, Group: group,
		Count: s.count, Mean: s.mean, Std: s.std, Min: s.min, Max: s.max,
		CI95: map[string]Interval{},
	}
	dst := []*float64{&m.P50, &m.P90, &m.P95, &m.P99, &m.P999}
	for i, pk := range percentileKeys {
		*dst[i] = s.percentiles[i]
		m.CI95[pk.key] = Interval{s.ciLow[i], s.ciHigh[i]}
	}
	return m
}

// errorCounts returns the failures by class, group by group, classes in
// classOrder.
func (acc *sourceAcc) errorCounts(src string) []ErrorCount {
	var out []ErrorCount
	for _, ga := range acc.sorted() {
		classes := orderedKeys(slices.Collect(maps.Keys(ga.errors)), classOrder)
		for _, c := range classes {
			out = append(out, ErrorCount{Source: src, Group: ga.key.labels(), Class: c, Count: ga.errors[c]})
		}
	}
	return out
}

// samplesOf returns group {}'s samples of the named metric (sorted once
// metrics has run), or nil.
func (acc *sourceAcc) samplesOf(name string, defs []metricDef) []float64 {
	for i, d := range defs {
		if d.name == name {
			return acc.all.samples[i]
		}
	}
	return nil
}
