package reconcile

import (
	"cmp"
	"slices"

	"github.com/ttftrace/ttftrace/analyze/internal/radix"
)

// timeEdgePart is how many outer candidates one part of timeEdgesInParts
// takes.
const timeEdgePart = 1 << 12

// timeEdgesInParts is timeEdges over parts of outs in parallel, their edges
// listed in part order: the same edges in the same order.
func (r *reconciler) timeEdgesInParts(p *joinPair, ck *clocks, outs, ins, ends []timeCand) []timeEdge {
	lim := newSweepLimits(ck, ins, ends)
	parts := make([][]timeEdge, r.par.PartCount(len(outs), timeEdgePart))
	r.par.ForParts(len(outs), timeEdgePart, func(k, from, to int) {
		parts[k] = r.timeEdges(p, ck, lim, outs[from:to], ins, ends)
	})
	return slices.Concat(parts...)
}

// assign makes the one-to-one time joins from the candidate edges, smallest
// slack first. An edge whose outer has another free inner candidate, or
// whose inner has another free outer candidate, within the edge's margin
// cannot be told apart from it: the outer (and the rival outers) are marked
// ambiguous, a contested inner is left unjoined, and nothing is guessed.
// End-only edges come last (endOnlySlack) and join only without any rival
// (assignEndOnly).
func (p *joinPair) assign(edges []timeEdge) {
	sortEdges(edges)
	a := assignment{p: p, edges: edges, blocked: map[int32]bool{},
		byOuter: groupBy(len(edges), func(k int) int32 { return edges[k].o }),
		byInner: groupBy(len(edges), func(k int) int32 { return edges[k].i })}
	for k := range edges {
		e := &edges[k]
		if p.outerTo[e.o] >= 0 || p.ambiguous[e.o] || p.innerTo[e.i] >= 0 || a.blocked[e.i] {
			continue
		}
		if e.endOnly {
			a.assignEndOnly(k)
			continue
		}
		rivalInner, rivals, beaten := a.rivals(k)
		if beaten {
			continue // a candidate within the margin agrees where e is weak: it takes the join
		}
		if !rivalInner && len(rivals) == 0 {
			p.join(e.o, e.i, JoinTime)
			continue
		}
		p.ambiguous[e.o] = true
		if len(rivals) > 0 {
			a.blocked[e.i] = true
			for _, o := range rivals {
				p.ambiguous[o] = true
			}
		}
	}
}

// sortEdges sorts edges by slack, then outer, then inner observation (a
// total order: an outer's edges lead to distinct inners), by a radix sort
// on slack: timeEdges lists the outers in order, each one's edges by slack
// and inner (end-only ones after), so edges of equal slack are mostly in
// order already. A 5M-request week's 1.5M edges took 0.8 s of CPU to sort
// by comparisons.
func sortEdges(edges []timeEdge) {
	radix.SortFunc(edges, func(e *timeEdge) uint64 { return radix.Int64(e.slack) }, compareEdges)
}

// compareEdges orders edges by slack, then outer, then inner observation.
func compareEdges(x, y timeEdge) int {
	return cmp.Or(cmp.Compare(x.slack, y.slack), cmp.Compare(x.o, y.o), cmp.Compare(x.i, y.i))
}

// assignment is the state of one assign run.
type assignment struct {
	p                *joinPair
	edges            []timeEdge
	byOuter, byInner groupIndex     // per edge, the edges of its outer, of its inner
	blocked          map[int32]bool // contested inner observations
	scratch          []int32
}

// rivals reports whether edge e (edges[k])'s outer has another free inner
// candidate within e's margin, and lists the free outers that have e's
// inner within it. Weak evidence breaks the tie: a candidate that is weak
// (timeEdge.weakMiss) where e is not is no rival, and one that is not where
// e is beats e.
func (a *assignment) rivals(k int) (rivalInner bool, rivals []int32, beaten bool) {
	e := &a.edges[k]
	limit, p := e.slack+e.margin, a.p
	for _, x := range a.byOuter.list(k) {
		f := &a.edges[x]
		if f.slack > limit {
			break
		}
		if f.i != e.i && p.innerTo[f.i] < 0 && !a.blocked[f.i] && (!f.weakMiss || e.weakMiss) {
			rivalInner = true
			beaten = beaten || !f.weakMiss && e.weakMiss
		}
	}
	a.scratch = a.scratch[:0]
	for _, x := range a.byInner.list(k) {
		f := &a.edges[x]
		if f.slack > limit {
			break
		}
		if f.o != e.o && p.outerTo[f.o] < 0 && !p.ambiguous[f.o] && (!f.weakMiss || e.weakMiss) {
			a.scratch = append(a.scratch, f.o)
			beaten = beaten || !f.weakMiss && e.weakMiss
		}
	}
	return rivalInner, a.scratch, beaten
}

// csrIndex lists, per key, the indices of the items carrying it, in item
// order (compressed sparse rows).
type csrIndex struct {
	start []int32 // per key, its first position in idx; one extra at the end
	idx   []int32
}

// csr indexes items 0, 1, …, n−1 by key(k), a key in [0, keys), or −1 to
// leave item k out.
func csr(n, keys int, key func(k int) int32) csrIndex {
	x := csrIndex{start: make([]int32, keys+1)}
	for k := range n {
		if c := key(k); c >= 0 {
			x.start[c+1]++
		}
	}
	for k := 1; k <= keys; k++ {
		x.start[k] += x.start[k-1]
	}
	x.idx = make([]int32, x.start[keys])
	fill := slices.Clone(x.start[:keys])
	for k := range n {
		if c := key(k); c >= 0 {
			x.idx[fill[c]] = int32(k)
			fill[c]++
		}
	}
	return x
}

func (x csrIndex) list(key int32) []int32 { return x.idx[x.start[key]:x.start[key+1]] }

// groupIndex lists, per item, the items sharing its key, in item order.
type groupIndex struct {
	items      []int32 // the items grouped by key, each group in item order
	start, end []int32 // per item, where its group lies in items
}

// groupBy indexes items 0, 1, …, n−1 by key(k) ≥ 0 by a radix sort of
// (key, item) pairs, with no array spanning the keys' range: indexing a
// time join's 1.5M edges by outer and inner observation (csr) took 0.46 s
// of CPU on the 5M week, spent in arrays of all 4.9M of each.
func groupBy(n int, key func(k int) int32) groupIndex {
	pairs := make([]uint64, n)
	for k := range pairs {
		pairs[k] = uint64(key(k))<<32 | uint64(k)
	}
	radix.SortStable(pairs, make([]uint64, n), func(x *uint64) uint64 { return *x >> 32 })
	g := groupIndex{items: make([]int32, n), start: make([]int32, n), end: make([]int32, n)}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && pairs[hi]>>32 == pairs[lo]>>32 {
			hi++
		}
		for j := lo; j < hi; j++ {
			item := int32(uint32(pairs[j]))
			g.items[j], g.start[item], g.end[item] = item, int32(lo), int32(hi)
		}
		lo = hi
	}
	return g
}

// list returns the items sharing item's key, item among them.
func (g groupIndex) list(item int) []int32 { return g.items[g.start[item]:g.end[item]] }
