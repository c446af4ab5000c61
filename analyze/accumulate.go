package analyze

import (
	"maps"
	"slices"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/dataset"
)

// groupAcc holds one group's successful requests and its failures by
// class. Samples are not kept per group: metrics regenerates each group's
// samples into one reused buffer, so memory grows with the largest group's
// samples, not with the number of groups.
type groupAcc struct {
	key groupKey
	// reqs are the successful requests, as rows of sourceAcc.cols in input
	// order; each request is resolved from its row when its samples are
	// drawn, so a request costs four bytes per group here.
	reqs   []int32
	errors map[string]int64
}

// sourceAcc collects the groups of one source.
type sourceAcc struct {
	groups map[string]*groupAcc
	all    *groupAcc // group {}: every successful request
	cols   *dataset.Columns
	// dists are group {}'s distributions by metric name, filled by metrics.
	dists map[string]Distribution
}

// accumulate sorts the events of one source into groups: successful
// requests by row, failures by class.
func accumulate(c *dataset.Columns, rows []int32, by [][]string) *sourceAcc {
	acc := &sourceAcc{groups: map[string]*groupAcc{}, dists: map[string]Distribution{}, cols: c}
	acc.all = acc.group(groupKey{by: -1})
	acc.all.reqs = make([]int32, 0, len(rows)) // grown once
	var gs groupsOfRow
	for _, row := range rows {
		e := event{c, int(row)}
		ok := succeeded(e)
		for _, ga := range gs.of(acc, e, by) {
			if ok {
				ga.reqs = append(ga.reqs, row)
			} else {
				ga.errors[failureClass(e)]++
			}
		}
	}
	return acc
}

// group returns the accumulator of g, creating it.
func (acc *sourceAcc) group(g groupKey) *groupAcc {
	id := g.id()
	ga := acc.groups[id]
	if ga == nil {
		ga = &groupAcc{key: g, errors: map[string]int64{}}
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
// group, metrics in definition order. On the way it keeps group {}'s
// distributions (which need its sorted samples) for distributions. Metrics
// whose samples are known to equal an earlier metric's (samplesKey) reuse
// its statistics instead of sorting the same samples again. The metrics to
// compute are chosen first, in order; their samples are then drawn and
// sorted in parallel (pl), each worker reusing its own buffer and sort
// scratch, so that the figures of a large source do not run on one core.
func (acc *sourceAcc) metrics(src string, defs []metricDef, pl parallel.Split) []Metric {
	type use struct { // one metric reported, from job
		ga  *groupAcc
		d   metricDef
		job int
	}
	var uses []use
	var jobs []metricJob
	for _, ga := range acc.sorted() {
		done := map[string]int{}
		unit := acc.unitGaps(ga)
		bounds := acc.sampleBounds(ga, defs, unit)
		for k, d := range defs {
			key := samplesKey(d.name, unit)
			if j, ok := done[key]; ok {
				uses = append(uses, use{ga, d, j})
				continue
			}
			f := weightedCompat[d.name]
			if f == nil && (bounds[k] == 0 || !acc.anyMeets(ga, sampleNeeds[d.name])) {
				continue
			}
			if f == nil { // guidellm's weighted statistics are never shared
				done[key] = len(jobs)
			}
			uses = append(uses, use{ga, d, len(jobs)})
			jobs = append(jobs, metricJob{ga: ga, d: d, weighted: f, bound: bounds[k],
				dist: ga == acc.all && slices.Contains(distributionMetrics, d.name)})
		}
	}
	scratch := make([]metricScratch, pl.WorkerCount(len(jobs)))
	pl.ForEach(len(jobs), func(w, i int) { acc.runJob(&jobs[i], &scratch[w], src) })
	var out []Metric
	for _, u := range uses {
		if j := &jobs[u.job]; j.ok {
			out = append(out, newMetric(src, u.d, u.ga.key.labels(), j.s))
		}
	}
	for _, j := range jobs {
		if j.ok && j.dist {
			acc.dists[j.d.name] = j.distribution
		}
	}
	return out
}

// metricJob is one metric of one group whose statistics metrics computes.
type metricJob struct {
	ga       *groupAcc
	d        metricDef
	weighted weightedValue // guidellm's weighted statistics, if set
	bound    int           // at most this many samples
	dist     bool          // keep the samples' distribution (group {})
	// The results: s, ok when there were samples, and the distribution.
	s            stats
	ok           bool
	distribution Distribution
}

// metricScratch is one worker's sample buffer and sort scratch, reused
// from job to job.
type metricScratch struct {
	buf    []float64
	sorter floatSorter
}

// runJob computes job j's statistics with worker scratch x.
func (acc *sourceAcc) runJob(j *metricJob, x *metricScratch, src string) {
	if j.weighted != nil {
		j.s, j.ok = guidellmStats(acc, j.ga.reqs, j.weighted, j.d.reads)
		return
	}
	if x.buf = acc.samples(j.ga, j.d, j.bound, x.buf[:0]); len(x.buf) == 0 {
		return
	}
	x.sorter.sort(x.buf)
	j.s, j.ok = summarizeSorted(x.buf), true
	if j.dist {
		j.distribution = newDistribution(src, j.d.name, x.buf)
	}
}

// samplesKey names the samples of metric name: metrics with one key have
// the same samples. vllm.itl is chunk_gap; and where every gap of every
// request is before a one-token chunk (unit), chunk_gap's g is itl's g/1,
// bit for bit.
func samplesKey(name string, unit bool) string {
	if name == "vllm.itl" {
		name = "chunk_gap"
	}
	if name == "chunk_gap" && unit {
		name = "itl"
	}
	return name
}

// unitGaps reports whether every chunk after the first of every request of
// ga carries one token (or an unknown count, which counts as one).
func (acc *sourceAcc) unitGaps(ga *groupAcc) bool {
	for _, row := range ga.reqs {
		e := acc.event(row)
		n, tokens := e.c.ChunkOffsetsNs.Len(e.i), e.chunkTokensList()
		for c := 1; c < n; c++ {
			if chunkTokens(tokens, n, c) != 1 {
				return false
			}
		}
	}
	return true
}

// samples appends the at most n samples of metric d over group ga's
// requests to dst, growing dst once, to n, when it is too small (append's
// doubling left a trail of discarded arrays as large as the samples
// themselves). Each request is resolved with only the fields d reads.
func (acc *sourceAcc) samples(ga *groupAcc, d metricDef, n int, dst []float64) []float64 {
	if cap(dst)-len(dst) < n {
		dst = slices.Grow(dst, n)
	}
	var r request // one for the loop: its address escapes into d.samples
	for _, row := range ga.reqs {
		r.resolve(acc.event(row), d.reads)
		dst = d.samples(&r, dst)
	}
	return dst
}

// anyMeets reports whether some request of ga meets need (true for no
// need).
func (acc *sourceAcc) anyMeets(ga *groupAcc, need func(e event) bool) bool {
	if need == nil {
		return true
	}
	for _, row := range ga.reqs {
		if need(acc.event(row)) {
			return true
		}
	}
	return false
}

// event returns the event of row.
func (acc *sourceAcc) event(row int32) event { return event{acc.cols, int(row)} }

// sampleBounds returns, for each metric of defs, a bound on its number of
// samples over ga's requests: one per request for a scalar metric, and the
// exact count for a pooled one, counted in one pass over the requests that
// resolves only the fields the pooled metrics read. A weighted compat
// metric, or one whose samples equal an earlier metric's (samplesKey), gets
// 0: metrics does not draw its samples.
func (acc *sourceAcc) sampleBounds(ga *groupAcc, defs []metricDef, unit bool) []int {
	bounds := make([]int, len(defs))
	var pooled []int
	var reads fields
	keys := map[string]bool{}
	for k, d := range defs {
		key := samplesKey(d.name, unit)
		if weightedCompat[d.name] != nil || keys[key] {
			continue
		}
		keys[key] = true
		if d.scalar {
			bounds[k] = len(ga.reqs)
		} else if acc.anyMeets(ga, sampleNeeds[d.name]) { // gateways and engines log no chunks
			pooled, reads = append(pooled, k), reads|d.reads
		}
	}
	if len(pooled) == 0 {
		return bounds
	}
	var one []float64
	var r request
	for _, row := range ga.reqs {
		r.resolve(acc.event(row), reads)
		for _, k := range pooled {
			one = defs[k].samples(&r, one[:0])
			bounds[k] += len(one)
		}
	}
	return bounds
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
