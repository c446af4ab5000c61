package reconcile

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strings"
)

// clocks is the estimated offset of every host: measured host pairs (edges)
// and, per host, the chain to its component's reference host.
type clocks struct {
	hosts []string
	pairs []hostPair
	edges map[hostPair]offsetEstimate
	host  []hostClock
	main  int32   // reference of the preferred component
	order []int32 // hosts in the order they are preferred as a reference
	notes []string
}

// estimateClocks estimates the offset of every host pair from the requests
// joined so far, then chains them to a reference host per connected
// component (SPEC §4, §7). The bounds of a host pair are kept from one
// estimate to the next (r.bounds), and each estimate adds only those of the
// joins made since (joinPair.fresh): joins are only ever added until the
// last estimate, and an estimate depends on the bounds as a multiset, not
// on their order. A host pair without new bounds keeps its estimate. On a
// week of five million requests the three estimates took 0.67, 0.90 and
// 0.63 s, gathering every join's bounds again each time, and the later two
// 0.47 and 0.14 s so; held from the first, the id joins' bounds (48 bytes
// per joined request) stay below the peak that reading and the id joins
// reach.
func (r *reconciler) estimateClocks() *clocks {
	if r.bounds == nil {
		r.bounds, r.ests = map[hostPair]*offsetBounds{}, map[hostPair]pairEstimate{}
	}
	changed := r.gatherBounds()
	slices.SortFunc(changed, r.byHostNames)
	ests := make([]pairEstimate, len(changed))
	r.par.ForParts(len(changed), 1, func(_, from, to int) {
		for k := from; k < to; k++ {
			ests[k].est, ests[k].ok = r.bounds[changed[k]].estimate()
		}
	})
	for k, hp := range changed {
		r.ests[hp] = ests[k]
	}
	pairs := make([]hostPair, 0, len(r.ests))
	for hp, e := range r.ests {
		if e.ok {
			pairs = append(pairs, hp)
		}
	}
	slices.SortFunc(pairs, r.byHostNames)
	ck := &clocks{hosts: r.hosts, pairs: pairs, edges: make(map[hostPair]offsetEstimate, len(pairs))}
	for _, hp := range pairs {
		ck.edges[hp] = r.ests[hp].est
	}
	if r.refOrder == nil {
		r.refOrder = r.referenceOrder()
	}
	ck.chain(r.refOrder)
	return ck
}

// pairEstimate is the offset estimate of one host pair and whether its
// bounds gave one.
type pairEstimate struct {
	est offsetEstimate
	ok  bool
}

// byHostNames orders host pairs by their hosts' names.
func (r *reconciler) byHostNames(x, y hostPair) int {
	return cmp.Or(cmp.Compare(r.hosts[x.a], r.hosts[y.a]), cmp.Compare(r.hosts[x.b], r.hosts[y.b]))
}

// boundsPart is the number of joined pairs whose bounds one part of
// gatherBounds collects.
const boundsPart = 1 << 16

// gatherBounds adds to r.bounds the bounds of every request joined since
// the last estimate (each pair's fresh outers, which it then empties), in
// parallel parts, and returns the host pairs that got any. Each host pair's
// new bounds are appended to its kept ones in parallel with the others'.
// The joins are visited in the order of their inner observations
// (byInner), which reads the Columns with fewer cache misses than the
// outers' order did on a production week: gathering the 5M week's bounds
// took 1.95-1.98 s of CPU in the outers' order, 1.03-1.12 s in the
// inners' (the same bounds: an estimate does not depend on their order).
func (r *reconciler) gatherBounds() []hostPair {
	var parts []map[hostPair]*offsetBounds
	for _, p := range []*joinPair{r.cp, r.ps, r.cs} {
		p.fresh = p.byInner(p.fresh)
		ps := make([]map[hostPair]*offsetBounds, r.par.PartCount(len(p.fresh), boundsPart))
		r.par.ForParts(len(p.fresh), boundsPart, func(k, from, to int) {
			ps[k] = r.pairBounds(p, p.fresh[from:to])
		})
		parts = append(parts, ps...)
		p.fresh = p.fresh[:0]
	}
	var changed []hostPair
	added := map[hostPair][]*offsetBounds{}
	for _, part := range parts {
		for hp, b := range part {
			if added[hp] == nil {
				changed = append(changed, hp)
			}
			added[hp] = append(added[hp], b)
		}
	}
	for _, hp := range changed {
		if r.bounds[hp] == nil {
			r.bounds[hp] = &offsetBounds{}
		}
	}
	r.par.ForParts(len(changed), 1, func(_, from, to int) {
		for _, hp := range changed[from:to] {
			r.bounds[hp].merge(added[hp])
		}
	})
	return changed
}

// pairBounds returns the bounds of the joins of p's outer observations
// outers, by host pair.
func (r *reconciler) pairBounds(p *joinPair, outers []int32) map[hostPair]*offsetBounds {
	bounds := map[hostPair]*offsetBounds{}
	for _, o := range outers {
		i := p.outerTo[o]
		if p.outer.obs[o].host == p.inner.obs[i].host {
			continue
		}
		ov, iv := p.outer.at(o), p.inner.at(i)
		hp, flip := hostPair{ov.host, iv.host}, false
		if hp.a > hp.b {
			hp, flip = hostPair{iv.host, ov.host}, true
		}
		b := bounds[hp]
		if b == nil {
			b = &offsetBounds{}
			bounds[hp] = b
		}
		b.addBounds(&ov, &iv, p.firstOrdered, flip)
	}
	return bounds
}

// merge appends the bounds of each of parts to b's, growing each list once.
func (b *offsetBounds) merge(parts []*offsetBounds) {
	lists := func(b *offsetBounds) [6]*[]int64 {
		return [6]*[]int64{&b.lower, &b.upper, &b.mids, &b.trips, &b.starts, &b.ends}
	}
	into := lists(b)
	for f, l := range into {
		n := len(*l)
		for _, o := range parts {
			n += len(*lists(o)[f])
		}
		*l = slices.Grow(*l, n-len(*l))
		for _, o := range parts {
			*l = append(*l, *lists(o)[f]...)
		}
	}
	for _, o := range parts {
		b.dir |= o.dir
		b.widen = max(b.widen, o.widen)
	}
}

// referenceOrder lists hosts in the order they are preferred as a reference:
// most client observations, then most proxy, then most server, then name.
func (r *reconciler) referenceOrder() []int32 {
	counts := make([][3]int, len(r.hosts))
	for k, s := range r.sources {
		for i := range s.obs {
			counts[s.obs[i].host][k]++
		}
	}
	order := make([]int32, len(r.hosts))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		cx, cy := counts[x], counts[y]
		return cmp.Or(-cmp.Compare(cx[0], cy[0]), -cmp.Compare(cx[1], cy[1]),
			-cmp.Compare(cx[2], cy[2]), cmp.Compare(r.hosts[x], r.hosts[y]))
	})
	return order
}

// chain gives every host the offset of the tightest chain of measured
// pairs to its component's reference: the path whose intervals' widths sum
// to the least (Dijkstra; a contradicting pair counts as very wide, so it is
// used only where no other path exists). Components are rooted at the hosts
// in order that are not yet reached.
func (ck *clocks) chain(order []int32) {
	ck.order = order
	adj := make([][]int32, len(ck.hosts))
	for _, hp := range ck.pairs {
		adj[hp.a] = append(adj[hp.a], hp.b)
		adj[hp.b] = append(adj[hp.b], hp.a)
	}
	ck.host = make([]hostClock, len(ck.hosts))
	dist := make([]float64, len(ck.hosts))
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	if len(order) > 0 {
		ck.main = order[0]
	}
	for _, root := range order {
		if !math.IsInf(dist[root], 1) {
			continue
		}
		dist[root] = 0
		ck.host[root] = hostClock{ref: root, consistent: true, parent: -1}
		q := &hostQueue{hosts: ck.hosts}
		heap.Push(q, hostDist{root, 0})
		for q.Len() > 0 {
			u := heap.Pop(q).(hostDist)
			if u.dist > dist[u.host] {
				continue // a stale entry
			}
			for _, v := range adj[u.host] {
				if d := u.dist + ck.width(u.host, v); d < dist[v] {
					dist[v] = d
					ck.host[v] = ck.step(u.host, v)
					heap.Push(q, hostDist{v, d})
				}
			}
		}
	}
	ck.addNotes()
}

// inconsistentWidthNs is added to the width of a pair whose bounds
// contradict, so that chains avoid it (about eleven days).
const inconsistentWidthNs = 1e15

// width is the width of the measured interval between hosts u and v, ns.
func (ck *clocks) width(u, v int32) float64 {
	e := ck.edges[hostPair{min(u, v), max(u, v)}]
	w := e.high - e.low
	if !e.consistent {
		w += inconsistentWidthNs
	}
	return w
}

// hostDist is a host and the summed width of its chain so far.
type hostDist struct {
	host int32
	dist float64
}

// hostQueue is a min-heap of hostDist by width, then host name.
type hostQueue struct {
	items []hostDist
	hosts []string
}

func (q *hostQueue) Len() int { return len(q.items) }
func (q *hostQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	return a.dist < b.dist || a.dist == b.dist && q.hosts[a.host] < q.hosts[b.host]
}
func (q *hostQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *hostQueue) Push(x any)    { q.items = append(q.items, x.(hostDist)) }
func (q *hostQueue) Pop() any {
	x := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return x
}

// step returns host v's clock reached from host u over their measured pair.
func (ck *clocks) step(u, v int32) hostClock {
	hp, forward := hostPair{u, v}, true
	if u > v {
		hp, forward = hostPair{v, u}, false
	}
	h := chainStep(&ck.host[u], ck.edges[hp], forward)
	h.parent = u
	if ck.host[u].depth > 0 {
		h.via = append(slices.Clip(ck.host[u].via), u)
	}
	return h
}

func (ck *clocks) addNotes() {
	for _, hp := range ck.pairs {
		if e := ck.edges[hp]; !e.consistent {
			ck.notes = append(ck.notes, fmt.Sprintf("clock bounds between %s and %s contradict each other "+
				"(a stepped clock or wrong joins): their offset %.3f ms is a best estimate",
				ck.hosts[hp.a], ck.hosts[hp.b], e.est/1e6))
		}
	}
	var roots []string
	for h := range ck.host {
		if ck.host[h].ref == int32(h) && int32(h) != ck.main {
			roots = append(roots, ck.hosts[h])
		}
	}
	if len(roots) > 0 {
		slices.Sort(roots) // host numbering follows event order; the note must not
		ck.notes = append(ck.notes, fmt.Sprintf("no joined request relates the clocks of %s to %s: "+
			"their instants stay on their own clocks", strings.Join(roots, ", "), ck.hosts[ck.main]))
	}
}

// direct returns the measured offset of inner host i relative to outer host
// o (θ = clock(i) − clock(o), ns) when that pair was measured consistently.
func (ck *clocks) direct(o, i int32) (offsetEstimate, bool) {
	if o == i {
		return offsetEstimate{consistent: true, requests: 1}, true
	}
	hp, flip := hostPair{o, i}, false
	if o > i {
		hp, flip = hostPair{i, o}, true
	}
	e, ok := ck.edges[hp]
	if !ok || !e.consistent {
		return offsetEstimate{}, false
	}
	if flip {
		e.est, e.low, e.high = -e.est, -e.high, -e.low
	}
	e.fenced = e.fenced && e.flipped == flip
	return e, true
}
