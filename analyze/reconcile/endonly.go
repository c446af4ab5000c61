package reconcile

import (
	"cmp"
	"slices"
)

// endOnlySlack is the slack of every end-only edge: above any round trip's,
// so that end-only edges are assigned after all the others.
const endOnlySlack = 1 << 60

// endOnlyCands returns the observations of s that ok admits and that logged
// an end but no start (a TGI error line without total_time), on their
// reference clocks, sorted by end. Their start field holds their end.
func endOnlyCands(s *obsSource, ck *clocks, ok func(int32) bool) []timeCand {
	var out []timeCand
	c := s.cols
	for k := range int32(len(s.obs)) {
		// The columns' presence first: most observations logged a start,
		// and reading one whole (at) for each cost more than the rest.
		if row := int(s.obs[k].event); !c.EndNs.Has(row) || c.StartNs.Has(row) || !ok(k) {
			continue
		}
		o := s.at(k)
		if o.has&(obsHasStart|obsHasEnd) != obsHasEnd {
			continue
		}
		hc := &ck.host[o.host]
		sh := hc.shift()
		out = append(out, timeCand{obs: k, host: o.host, ref: hc.ref, start: o.end - sh, end: o.end - sh,
			first: o.first - sh, hasFirst: o.has&obsHasFirst != 0, endOnly: true, shift: sh, res: o.res,
			tol: hc.uncertainty() + o.res})
	}
	slices.SortFunc(out, func(x, y timeCand) int { return cmp.Or(cmp.Compare(x.end, y.end), cmp.Compare(x.obs, y.obs)) })
	return out
}

// endOnlyEdges appends to edges one edge from outer candidate o to each
// end-only inner candidate of ends (sorted by end; tol their largest
// tolerance) that fits it (fitEnd). Without a start the inner gives no
// round trip to rank it, so all its edges share endOnlySlack and it joins
// only where it is the one fit both ways: every fit is listed, none
// dropped, for assignEndOnly to see every rival. When o has a two-sided
// candidate (hasTwoSided), of which the sweep may have kept only the best,
// its end-only edges are rivalOnly: they contest their inner but never
// join o.
func (r *reconciler) endOnlyEdges(p *joinPair, ck *clocks, o *timeCand, ends []timeCand, tol int64, hasTwoSided bool, edges []timeEdge) []timeEdge {
	j, _ := slices.BinarySearchFunc(ends, o.start-o.tol-tol, func(c timeCand, t int64) int { return cmp.Compare(c.end, t) })
	for ; j < len(ends) && ends[j].end <= o.end+o.tol+tol; j++ {
		if e, ok := r.fitEnd(p, ck, o, &ends[j]); ok {
			e.rivalOnly = hasTwoSided
			edges = append(edges, e)
		}
	}
	return edges
}

// fitEnd reports whether end-only inner candidate in fits inside outer
// candidate o. In true time the inner ends within the outer's [start, end],
// so on the reference clock its end lies within both hosts' offset
// uncertainty of that interval. Where the host pair was measured directly,
// with θ = inner clock − outer clock in [low, high], inner.end − outer.end ≤
// θ ≤ high and, as the inner starts after the outer and ends after its
// start, inner.end − outer.start ≥ θ ≥ low: one bound on each side, each
// widened by both logs' resolution; a fenced pair's end gap must also lie
// above its end fence, as in fit. Attributes must agree (compatible).
func (r *reconciler) fitEnd(p *joinPair, ck *clocks, o, in *timeCand) (timeEdge, bool) {
	if o.ref != in.ref {
		return timeEdge{}, false
	}
	tol := o.tol + in.tol
	if in.end < o.start-tol || in.end > o.end+tol ||
		p.firstOrdered && o.hasFirst && in.hasFirst && in.first > o.first+tol {
		return timeEdge{}, false
	}
	if e, ok := ck.direct(o.host, in.host); ok {
		res := float64(o.res + in.res)
		d := in.shift - o.shift
		ge := float64(in.end - o.end + d)
		if float64(in.end-o.start+d) < e.low-res || ge > e.high+res || e.fenced && ge < float64(e.endFence)-res {
			return timeEdge{}, false
		}
	}
	ok, weakMiss := r.compatible(p, o, in)
	return timeEdge{o: o.obs, i: in.obs, slack: endOnlySlack, weakMiss: weakMiss, endOnly: true}, ok
}

// assignEndOnly joins end-only edge e, edges[k], when neither its outer
// has another free inner candidate nor its inner another free outer
// candidate, weak or not; otherwise the outer is marked ambiguous. A
// rivalOnly edge never joins.
func (a *assignment) assignEndOnly(k int) {
	e := &a.edges[k]
	if e.rivalOnly {
		return
	}
	p := a.p
	for _, x := range a.byOuter.list(k) {
		if f := &a.edges[x]; f.i != e.i && p.innerTo[f.i] < 0 {
			p.ambiguous[e.o] = true
			return
		}
	}
	for _, x := range a.byInner.list(k) {
		if f := &a.edges[x]; f.o != e.o && p.outerTo[f.o] < 0 {
			p.ambiguous[e.o] = true
			return
		}
	}
	p.join(e.o, e.i, JoinTime)
}
