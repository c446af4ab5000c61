package reconcile

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/analyze/internal/radix"
	"github.com/ttftrace/ttftrace/dataset"
)

const (
	// slackMarginNs is, beyond both logs' resolution, how much worse a second
	// candidate's slack must be for the best one to be told apart from it.
	slackMarginNs = 250_000
	// maxTimeCandidates is how many best-fitting inner candidates an outer
	// observation keeps.
	maxTimeCandidates = 8
)

// timeCand is an observation taking part in a time join, with its instants
// on its component's reference clock (ns).
type timeCand struct {
	obs               int32
	host              int32
	ref               int32 // reference host of its component
	hasFirst          bool  // (beside the int32s: 64 bytes, not 80)
	endOnly           bool  // logged an end but no start (endOnlyCands): start holds end
	start, end, first int64
	shift             int64 // subtracted from the host's instants
	res               int64
	tol               int64 // offset uncertainty plus resolution
}

// timeEdge is an inner candidate fitting an outer one. slack is how far the
// round trip (the outer's duration minus the inner's: the network's delays
// both ways, which does not depend on clock offsets) lies from its robust
// minimum over the host pair's joined requests, above or below: the true
// pair has a small slack. Two
// candidates whose slacks differ by less than margin (both logs'
// resolution, 0.25 ms, and the round trip's interquartile range over the
// host pair's joined requests: its usual jitter) cannot be told apart.
//
// A weak edge (weakMiss) fits in time but disagrees on evidence that
// cannot refuse it: a field its format sets per run, not per request. It
// wins only when no other candidate is within the margin, and loses every
// such tie to an edge that is not weak.
//
// An end-only edge (endOnly: the inner logged no start) bounds the offset
// on one side only and carries no round trip: see endOnlyEdges.
type timeEdge struct {
	o, i      int32 // observation indices
	slack     int64
	margin    int64
	weakMiss  bool
	endOnly   bool
	rivalOnly bool // an end-only edge that may not join, only contest its inner
}

// joinTime joins what is left of p by time window (SPEC §4): the inner
// observation must fit inside the outer once clocks are corrected, with
// compatible attributes. Each outer takes its smallest-slack candidate,
// best pairs first, unless another free candidate is within the margin on
// either side: then the outer is marked ambiguous and nothing is guessed.
// Candidates are found by a sweep over inner observations sorted by start;
// the outer, inner and end-only candidates are gathered in parallel.
func (r *reconciler) joinTime(p *joinPair, ck *clocks) {
	for o := range p.ambiguous {
		if p.outerTo[o] < 0 {
			p.ambiguous[o] = false
		}
	}
	outerOK := func(o int32) bool {
		return p.outerTo[o] < 0 && p.outerOK(o) && (p.timeOuterOK == nil || p.timeOuterOK(o))
	}
	innerOK := func(i int32) bool { return p.innerTo[i] < 0 && p.innerOK(i) }
	if len(p.outer.obs) == 0 || len(p.inner.obs) == 0 {
		return // a source without events: nothing to gather
	}
	var outs, ins, ends []timeCand
	parallel.RunTasks([]func(){func() { outs = timeCands(p.outer, ck, outerOK) },
		func() { ins = timeCands(p.inner, ck, innerOK) },
		func() { ends = endOnlyCands(p.inner, ck, innerOK) }}, r.par.Workers)
	if len(outs) == 0 || len(ins) == 0 && len(ends) == 0 {
		return
	}
	// By start, then observation: timeCands lists them in observation order.
	radix.SortFunc(ins, func(c *timeCand) uint64 { return radix.Int64(c.start) },
		func(x, y timeCand) int { return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.obs, y.obs)) })
	edges := r.timeEdgesInParts(p, ck, outs, ins, ends)
	p.assign(edges)
}

// timeCands returns the observations of s that ok admits and that logged
// start and end, on their reference clocks.
func timeCands(s *obsSource, ck *clocks, ok func(int32) bool) []timeCand {
	return timeCandsOf(s, ck, 0, int32(len(s.obs)), ok)
}

// timeCandsOf is timeCands over the observations from, from+1, …, to−1.
func timeCandsOf(s *obsSource, ck *clocks, from, to int32, ok func(int32) bool) []timeCand {
	n := 0
	for k := from; k < to; k++ {
		n += int(boolCount(ok(k)))
	}
	out := make([]timeCand, 0, n) // at its final size: growing it left as much again behind
	for k := from; k < to; k++ {
		if !ok(k) {
			continue
		}
		ov := s.at(k)
		o := &ov
		if o.has&(obsHasStart|obsHasEnd) != obsHasStart|obsHasEnd {
			continue
		}
		hc := &ck.host[o.host]
		sh := hc.shift()
		out = append(out, timeCand{obs: k, host: o.host, ref: hc.ref, start: o.start - sh, end: o.end - sh,
			first: o.first - sh, hasFirst: o.has&obsHasFirst != 0, shift: sh, res: o.res, tol: hc.uncertainty() + o.res})
	}
	return out
}

// sweepLimits bounds what the sweep of timeEdges may skip, ns: the inner
// candidates' largest tolerance and resolution, and the measured host
// pairs' largest round trip and interquartile range; endTol is the end-only
// inner candidates' largest tolerance.
type sweepLimits struct{ tol, res, trip, iqr, endTol int64 }

// newSweepLimits gathers the sweep limits of one time join with inner
// candidates ins, once for all its parts: gathered by each part of 4,096
// outers, they took as many passes over the inner candidates as there are
// parts (a 5M-request week: 1.5M outers, 1.4M inners, 3.5 s of CPU).
func newSweepLimits(ck *clocks, ins, ends []timeCand) sweepLimits {
	var lim sweepLimits
	for k := range ins {
		lim.tol = max(lim.tol, ins[k].tol)
		lim.res = max(lim.res, ins[k].res)
	}
	for k := range ends {
		lim.endTol = max(lim.endTol, ends[k].tol)
	}
	for _, e := range ck.edges {
		lim.trip, lim.iqr = max(lim.trip, e.tripLow), max(lim.iqr, e.tripIQR)
	}
	return lim
}

// timeEdges sweeps, for every outer candidate, the inner candidates sorted
// by start from its start (less tolerances) on, keeping the best few fits.
// The sweep stops once an inner candidate starts so late that its slack
// (at least its start gap less the largest tolerance and round trip) must
// exceed the best slack found plus the largest margin: such candidates
// could neither beat the best nor be confused with it. So each outer scans
// the inner requests starting within about one round trip of its own
// start, not all those that start while it runs.
//
// Then it adds each outer's edges to the end-only inner candidates ends,
// sorted by end (endOnlyEdges).
func (r *reconciler) timeEdges(p *joinPair, ck *clocks, lim sweepLimits, outs, ins, ends []timeCand) []timeEdge {
	var edges, best []timeEdge
	j := 0 // the previous outer's first inner: the next one's is near it
	for k := range outs {
		o := &outs[k]
		j = firstStartFrom(ins, j, o.start-o.tol-lim.tol)
		stop := int64(math.MaxInt64) // start gap beyond which nothing can be kept
		best = best[:0]
		for ; j < len(ins) && ins[j].start <= o.end+o.tol+lim.tol && ins[j].start-o.start <= stop; j++ {
			if e, ok := r.fit(p, ck, o, &ins[j]); ok {
				best = append(best, e)
				bound := e.slack + 2*(o.res+lim.res) + slackMarginNs + lim.iqr + o.tol + lim.tol + lim.trip
				stop = min(stop, bound)
			}
		}
		slices.SortFunc(best, func(x, y timeEdge) int { return cmp.Or(cmp.Compare(x.slack, y.slack), cmp.Compare(x.i, y.i)) })
		edges = append(edges, best[:min(len(best), maxTimeCandidates)]...)
		edges = r.endOnlyEdges(p, ck, o, ends, lim.endTol, len(best) > 0, edges)
	}
	return edges
}

// firstStartFrom returns the index of the first of ins (sorted by start)
// starting at t or later, as a binary search over all of them would, but
// galloping out from hint: the outers come in the order their logs list
// them, nearly by time, so the index moves little from one to the next,
// and a binary search over all the inners took most of its steps in cache
// misses.
func firstStartFrom(ins []timeCand, hint int, t int64) int {
	n := len(ins)
	hint = min(hint, n)
	lo, hi := hint, hint // the index is in [lo, hi]
	if hint < n && ins[hint].start < t {
		lo, hi = hint+1, hint+1
		for step := 1; hi < n && ins[hi].start < t; step *= 2 {
			lo, hi = hi+1, min(hi+step, n)
		}
	} else {
		for step := 1; lo > 0 && ins[lo-1].start >= t; step *= 2 {
			lo, hi = max(lo-step, 0), lo-1
		}
	}
	j, _ := slices.BinarySearchFunc(ins[lo:hi], t, func(c timeCand, t int64) int { return cmp.Compare(c.start, t) })
	return lo + j
}

// fit reports whether inner candidate in fits inside outer candidate o:
// never when their hosts' clocks are not related; on the reference clock, within both hosts' offset uncertainty; and, where
// the host pair was measured directly, within its own offset interval
// [low, high], which is tighter: inner.start − outer.start ≥ θ ≥ low and
// inner.end − outer.end ≤ θ ≤ high on the hosts' own clocks. Where the pair
// has enough joined requests, a start gap far above theirs or an end gap
// far below (the fences) is implausible too: the network's delays between
// two hosts vary within a narrow band. The fences are the one refusal that
// is not physical: treated as weak evidence instead, they let 64 of 20000
// rows mix requests on the logs of fleetShape(20000) with proxies logging
// no id on traced requests (TestRequestsOwnObservationsOnce), where the true
// inner is taken and a stranger is the only fit left.
func (r *reconciler) fit(p *joinPair, ck *clocks, o, in *timeCand) (timeEdge, bool) {
	if o.ref != in.ref {
		return timeEdge{}, false // no measured or searched offset relates the hosts
	}
	tol := o.tol + in.tol
	if in.start < o.start-tol || in.end > o.end+tol {
		return timeEdge{}, false
	}
	if p.firstOrdered && o.hasFirst && in.hasFirst && in.first > o.first+tol {
		return timeEdge{}, false
	}
	res := o.res + in.res
	var trip, iqr int64
	if e, ok := ck.direct(o.host, in.host); ok {
		d := in.shift - o.shift
		gs, ge := in.start-o.start+d, in.end-o.end+d
		if float64(gs) < e.low-float64(res) || float64(ge) > e.high+float64(res) ||
			p.firstOrdered && o.hasFirst && in.hasFirst && float64(in.first-o.first+d) > e.high+float64(res) ||
			e.fenced && (gs > e.startFence+res || ge < e.endFence-res) {
			return timeEdge{}, false
		}
		trip, iqr = e.tripLow, e.tripIQR
	}
	// Durations do not depend on clock offsets: an inner observation
	// longer than the outer beyond both logs' resolution (two instants
	// each), or reaching its first token later after its start, is
	// impossible. Among the possible, the round trip's distance from the
	// host pair's low quantile ranks them: a round trip below it is
	// unusual, not impossible.
	w := 2 * res
	rt := (o.end - o.start) - (in.end - in.start)
	if rt < -w {
		return timeEdge{}, false
	}
	if p.firstOrdered && o.hasFirst && in.hasFirst && in.first-in.start > o.first-o.start+w {
		return timeEdge{}, false
	}
	ok, weakMiss := r.compatible(p, o, in)
	if !ok {
		return timeEdge{}, false
	}
	slack := rt - trip
	if slack < 0 {
		slack = -slack
	}
	return timeEdge{o: o.obs, i: in.obs, slack: slack, margin: w + slackMarginNs + iqr, weakMiss: weakMiss}, true
}

// compatible reports whether o and in may be of one request by their
// attributes (joinCompatible) and p's other joins (p.conflict).
func (r *reconciler) compatible(p *joinPair, o, in *timeCand) (ok, weakMiss bool) {
	oe, ie := int(p.outer.obs[o.obs].event), int(p.inner.obs[in.obs].event)
	weak := r.perRun[r.cols.InputFile.Codes[oe]] | r.perRun[r.cols.InputFile.Codes[ie]]
	ok, weakMiss = joinCompatible(r.cols, oe, ie, weak)
	return ok && (p.conflict == nil || !p.conflict(o.obs, in.obs)), weakMiss
}

// joinCompatible reports whether rows a and b of c may be of one request: same
// model (ignoring case and any "org/" prefix), same endpoint (or one a path
// suffix of the other, for routers that rewrite a prefix), statuses both 2xx
// or equal, and token counts within 5% (at least 2 tokens), each checked
// only when both observers logged it; and never a request one side refused
// with 429 while the other logged output tokens (rateLimitedWithTokens). A model or endpoint that either
// side's format sets per run (weak: perRunModel, perRunEndpoint) does not
// refuse the pair when it differs: weakMiss reports the difference, for
// breaking ties.
func joinCompatible(c *dataset.Columns, a, b int, weak uint8) (ok, weakMiss bool) {
	if am, bm := c.Model.At(a), c.Model.At(b); am != "" && bm != "" && !sameModel(am, bm) {
		if weak&perRunModel == 0 {
			return false, false
		}
		weakMiss = true
	}
	if ae, be := c.Endpoint.At(a), c.Endpoint.At(b); ae != "" && be != "" && !strings.HasSuffix(ae, be) &&
		!strings.HasSuffix(be, ae) {
		if weak&perRunEndpoint == 0 {
			return false, false
		}
		weakMiss = true
	}
	as, aok := c.Status.Get(a)
	bs, bok := c.Status.Get(b)
	if aok && bok && as != bs && (as/100 != 2 || bs/100 != 2) {
		return false, false
	}
	if rateLimitedWithTokens(c, a, b) || rateLimitedWithTokens(c, b, a) {
		return false, false
	}
	ao, aok := c.OutputTokens.Get(a)
	bo, bok := c.OutputTokens.Get(b)
	ap, apok := c.PromptTokens.Get(a)
	bp, bpok := c.PromptTokens.Get(b)
	return tokensClose(ao, aok, bo, bok) && tokensClose(ap, apok, bp, bpok), weakMiss
}

// rateLimitedWithTokens reports whether row x logged status 429 while row
// y logged output tokens: a rate-limited request is refused before any
// token is made, so the two are not one request. It decides where the
// statuses cannot: an OTLP server span logs none, and an end-only server
// (no start, so no duration to rule it out) fits inside the short span of
// a gateway's own 429.
func rateLimitedWithTokens(c *dataset.Columns, x, y int) bool {
	st, ok := c.Status.Get(x)
	if !ok || st != 429 {
		return false
	}
	n, ok := c.OutputTokens.Get(y)
	return ok && n > 0
}

func sameModel(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	base := func(s string) string { return s[strings.LastIndexByte(s, '/')+1:] }
	return strings.EqualFold(base(a), base(b))
}

func tokensClose(a int64, aok bool, b int64, bok bool) bool {
	if !aok || !bok {
		return true
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= max(2, max(a, b)/20)
}
