package reconcile

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/analyze/internal/radix"
)

const (
	// searchMaxSkewNs bounds the clock offset the search considers between
	// two hosts that no id joins relate: ±30 s. Outer candidates starting
	// further than this from an inner observation are not considered.
	searchMaxSkewNs = 30_000_000_000
	// searchTripNs is the largest round trip (outer duration − inner
	// duration) a candidate pair may have: 20 ms.
	searchTripNs = 20_000_000
	// searchSample is how many inner observations the search uses at most,
	// taken at an even stride; searchPerInner caps the candidates of each.
	searchSample   = 4096
	searchPerInner = 64
	// searchMinSupport is how many candidate intervals must agree on an
	// offset, and searchDominance how many times more than any offset
	// further than searchTripNs from it.
	searchMinSupport = 5
	searchDominance  = 3
)

// searchOffsets finds, for every host pair of every join pair whose two
// hosts no measured chain relates, their offset by searchOffset, and adds
// each one found to ck as a measured pair (re-chaining the hosts), so that
// time joins can use it. It returns notes on the pairs where none was found.
func (r *reconciler) searchOffsets(ck *clocks) []string {
	var notes []string
	for _, p := range []*joinPair{r.ps, r.cp, r.cs} {
		if !unrelatedHosts(p, ck) {
			continue // the usual case: every host pair is related, nothing to gather
		}
		var outs, ins *searchSide
		parallel.RunTasks([]func(){func() { outs = newSearchSide(p.outer, len(r.hosts)) },
			func() { ins = newSearchSide(p.inner, len(r.hosts)) }}, r.par.Workers)
		inHosts := ins.hosts(r.hosts)
		for _, ho := range outs.hosts(r.hosts) {
			var byDur []searchOb // gathered once, when first searched
			for _, hi := range inHosts {
				if ck.host[ho].ref == ck.host[hi].ref {
					continue
				}
				if byDur == nil {
					byDur = outs.byDuration(ho)
				}
				e, why := searchOffset(byDur, ins.sample(hi))
				if why != "" {
					notes = append(notes, fmt.Sprintf("no clock offset between %s and %s found (searched ±%d s): %s; "+
						"their requests are not joined by time", r.hosts[ho], r.hosts[hi], searchMaxSkewNs/1_000_000_000, why))
					continue
				}
				if e.low < -searchMaxSkewNs+searchTripNs || e.high > searchMaxSkewNs-searchTripNs {
					notes = append(notes, fmt.Sprintf("the clock offset found between %s and %s (%.3f ms) lies at the "+
						"±%d s search bound: a larger true offset would be missed", r.hosts[ho], r.hosts[hi], e.est/1e6,
						searchMaxSkewNs/1_000_000_000))
				}
				ck.addSearched(ho, hi, e)
			}
		}
	}
	return notes
}

// unrelatedHosts reports whether some host of p's outer source and some
// host of its inner source lie in different components of ck.
func unrelatedHosts(p *joinPair, ck *clocks) bool {
	refs := func(s *obsSource) []bool {
		seen := make([]bool, len(ck.hosts))
		for k := range s.obs {
			seen[ck.host[s.obs[k].host].ref] = true
		}
		return seen
	}
	outer, inner := refs(p.outer), refs(p.inner)
	for ref, o := range outer {
		for other, in := range inner {
			if o && in && ref != other {
				return true
			}
		}
	}
	return false
}

// searchSide lists the observations of one source that logged start and
// end by host (4 bytes each), and gathers a host's only when the search
// needs them: usually one outer host is searched, against one inner host,
// and only a sample of the inner host's observations is used.
type searchSide struct {
	s      *obsSource
	byHost csrIndex // indices into s.obs
}

// newSearchSide lists s's observations with start and end by host.
func newSearchSide(s *obsSource, hosts int) *searchSide {
	c := s.cols
	return &searchSide{s: s, byHost: csr(len(s.obs), hosts, func(k int) int32 {
		if row := int(s.obs[k].event); c.StartNs.Has(row) && c.EndNs.Has(row) {
			return s.obs[k].host
		}
		return -1
	})}
}

// hosts returns the hosts with observations, in host-name order.
func (x *searchSide) hosts(names []string) []int32 {
	var hs []int32
	for h := range int32(len(x.byHost.start) - 1) {
		if len(x.byHost.list(h)) > 0 {
			hs = append(hs, h)
		}
	}
	slices.SortFunc(hs, func(a, b int32) int { return cmp.Compare(names[a], names[b]) })
	return hs
}

// gather returns observations every stride-th of host h's, in index order.
func (x *searchSide) gather(h int32, stride int) []searchOb {
	list := x.byHost.list(h)
	out := make([]searchOb, 0, (len(list)+stride-1)/stride)
	for j := 0; j < len(list); j += stride {
		o := x.s.at(list[j])
		out = append(out, searchOb{start: o.start, end: o.end, event: o.event, errs: o.errs, has: o.has})
	}
	return out
}

// byDuration returns all of host h's observations, sorted by duration,
// as searchOffset needs its outer ones.
func (x *searchSide) byDuration(h int32) []searchOb {
	obs := x.gather(h, 1)
	sortByDuration(obs)
	return obs
}

// sample returns at most searchSample of host h's observations, taken at
// an even stride, as searchOffset uses its inner ones.
func (x *searchSide) sample(h int32) []searchOb {
	n := len(x.byHost.list(h))
	return x.gather(h, max(1, (n+searchSample-1)/searchSample))
}

// sortByDuration sorts obs by duration, then event, as searchOffset needs
// its outer observations (gather lists them in event order).
func sortByDuration(obs []searchOb) {
	radix.SortFunc(obs, func(o *searchOb) uint64 { return radix.Int64(o.dur()) },
		func(a, b searchOb) int { return cmp.Or(cmp.Compare(a.dur(), b.dur()), cmp.Compare(a.event, b.event)) })
}

// searchOb is what the offset search needs of an observation: 32 bytes
// instead of a joinObs's 56, as the search holds every observation of two
// sources at once.
type searchOb struct {
	start, end int64
	errs       *logErrors
	event      int32
	has        uint8
}

func (o *searchOb) dur() int64 { return o.end - o.start }

// obs returns o as a joinObs without first token (the search does not use it).
func (o *searchOb) obs() *joinObs {
	return &joinObs{event: o.event, start: o.start, end: o.end, errs: o.errs, has: o.has &^ obsHasFirst,
		res: o.errs.spread()}
}

// addSearched records e (θ = clock(inner) − clock(outer)) as a measured
// pair and chains the hosts again.
func (ck *clocks) addSearched(outer, inner int32, e offsetEstimate) {
	hp := hostPair{outer, inner}
	if outer > inner {
		hp = hostPair{inner, outer}
		e.est, e.low, e.high = -e.est, -e.high, -e.low
	}
	if _, ok := ck.edges[hp]; !ok {
		ck.pairs = append(ck.pairs, hp)
	}
	ck.edges[hp] = e
	slices.SortFunc(ck.pairs, func(x, y hostPair) int {
		return cmp.Or(cmp.Compare(ck.hosts[x.a], ck.hosts[y.a]), cmp.Compare(ck.hosts[x.b], ck.hosts[y.b]))
	})
	ck.notes = nil
	ck.chain(ck.order)
}

// searchOffset estimates θ = clock(inner) − clock(outer) of two hosts with
// no joined request in common, from all of the outer host's observations
// (outs, sorted by duration, then event) and a sample of the inner host's
// (ins). A candidate pair (outer o, inner i) with dur_o ≥ dur_i gives the interval [e_i − e_o, s_i − s_o] (widened by the
// logs' resolution, offsetLimits), as wide as its round trip dur_o − dur_i.
// Every true pair's interval holds the true θ, while unrelated pairs rarely
// have durations within a round trip of each other and scatter. So it
// takes each sampled inner observation (searchSide.sample keeps at most
// searchSample, at an even stride), for each the outer ones
// whose duration exceeds its own by at most searchTripNs (binary search
// over outers sorted by duration) and that start within searchMaxSkewNs,
// and finds the offset covered by the most intervals (a sweep). That peak
// must be backed by searchMinSupport intervals and searchDominance times
// the best peak further than searchTripNs from it; else no offset is
// returned and why says so. The estimate spans the offsets around the peak
// covered by at least half as many intervals. Cost: O(n log n + s·k).
func searchOffset(outs, ins []searchOb) (offsetEstimate, string) {
	if len(outs) == 0 || len(ins) == 0 {
		return offsetEstimate{}, "no requests"
	}
	dur := func(o *searchOb) int64 { return o.dur() }
	var marks []searchMark
	for k := range ins {
		in := &ins[k]
		w := 2 * (in.errs.spread() + outs[0].errs.spread())
		j, _ := slices.BinarySearchFunc(outs, dur(in)-w, func(o searchOb, d int64) int { return cmp.Compare(o.dur(), d) })
		taken := 0
		for ; j < len(outs) && dur(&outs[j]) <= dur(in)+searchTripNs && taken < searchPerInner; j++ {
			o := &outs[j]
			if d := in.start - o.start; d > searchMaxSkewNs || d < -searchMaxSkewNs {
				continue
			}
			lo, hasLo, up, hasUp := offsetLimits(o.obs(), in.obs(), false)
			if !hasLo || !hasUp || lo > up {
				continue
			}
			marks = append(marks, searchMark{lo, 1}, searchMark{up, -1})
			taken++
		}
	}
	return peakOffset(marks)
}

// searchMark is one end of a candidate interval: +1 opens it at at, −1
// closes it (closed intervals: opens sort first).
type searchMark struct {
	at    int64
	delta int
}

// coverSeg is a stretch [from, to] of offsets covered by n intervals.
type coverSeg struct {
	from, to int64
	n        int
}

// peakOffset sweeps the interval ends and returns the well-supported peak.
func peakOffset(marks []searchMark) (offsetEstimate, string) {
	slices.SortFunc(marks, func(a, b searchMark) int { return cmp.Or(cmp.Compare(a.at, b.at), -cmp.Compare(a.delta, b.delta)) })
	var segs []coverSeg
	n := 0
	for k, m := range marks {
		n += m.delta
		if k+1 < len(marks) && n > 0 {
			segs = append(segs, coverSeg{m.at, marks[k+1].at, n})
		}
	}
	best := -1
	for k := range segs {
		if best < 0 || segs[k].n > segs[best].n {
			best = k
		}
	}
	if best < 0 || segs[best].n < searchMinSupport {
		return offsetEstimate{}, fmt.Sprintf("fewer than %d request pairs of near-equal durations agree", searchMinSupport)
	}
	pk := segs[best]
	rival := 0
	for _, s := range segs {
		if s.to < pk.from-searchTripNs || s.from > pk.to+searchTripNs {
			rival = max(rival, s.n)
		}
	}
	if pk.n < searchDominance*rival {
		return offsetEstimate{}, fmt.Sprintf("the best offset (%d pairs agree) is not %d times better than another (%d)",
			pk.n, searchDominance, rival)
	}
	low, high := pk.from, pk.to
	for k := best - 1; k >= 0 && segs[k].to >= low && 2*segs[k].n >= pk.n; k-- {
		low = segs[k].from
	}
	for k := best + 1; k < len(segs) && segs[k].from <= high && 2*segs[k].n >= pk.n; k++ {
		high = segs[k].to
	}
	return offsetEstimate{est: float64(low) + float64(high-low)/2, low: float64(low), high: float64(high),
		requests: int64(pk.n), consistent: true}, ""
}
