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

// estimateClocks estimates the offset of every host pair from the joined
// requests (all but the time-joined ones unless withTime), then chains them
// to a reference host per connected component (SPEC §4, §7). Each round
// gathers every join's bounds again: keeping the trace and id joins' from
// the first round for the later two saved 5% of the CPU on a week of a
// million requests, but held 48 bytes per request through the time joins,
// where the memory peaks from two million requests on.
func (r *reconciler) estimateClocks(withTime bool) *clocks {
	bounds := r.gatherBounds(func(m uint8) bool { return m != joinCodeTime || withTime })
	pairs := make([]hostPair, 0, len(bounds))
	for hp := range bounds {
		pairs = append(pairs, hp)
	}
	slices.SortFunc(pairs, func(x, y hostPair) int {
		return cmp.Or(cmp.Compare(r.hosts[x.a], r.hosts[y.a]), cmp.Compare(r.hosts[x.b], r.hosts[y.b]))
	})
	ests, oks := make([]offsetEstimate, len(pairs)), make([]bool, len(pairs))
	r.par.ForParts(len(pairs), 1, func(_, from, to int) {
		for k := from; k < to; k++ {
			ests[k], oks[k] = mergeBounds(bounds[pairs[k]]).estimate()
		}
	})
	ck := &clocks{hosts: r.hosts, edges: map[hostPair]offsetEstimate{}}
	for k, hp := range pairs {
		if oks[k] {
			ck.edges[hp] = ests[k]
			ck.pairs = append(ck.pairs, hp)
		}
	}
	ck.chain(r.referenceOrder())
	return ck
}

// Codes of joinPair.method (indices into joinMethods).
const (
	joinCodeTrace = 1 + iota
	joinCodeID
	joinCodeTime
	joinCodeChain
)

// boundsPart is the number of joined pairs whose bounds one part of
// gatherBounds collects.
const boundsPart = 1 << 16

// gatherBounds collects the bounds of every request joined by a method
// whose code keep admits, by host pair: in parts, each part's bounds of a
// host pair in its own offsetBounds, listed in part order (join pairs
// client⊃proxy, proxy⊃server, client⊃server, each by outer observation),
// as one sequential pass would append them.
func (r *reconciler) gatherBounds(keep func(method uint8) bool) map[hostPair][]*offsetBounds {
	bounds := map[hostPair][]*offsetBounds{}
	for _, p := range []*joinPair{r.cp, r.ps, r.cs} {
		parts := make([]map[hostPair]*offsetBounds, r.par.PartCount(len(p.outerTo), boundsPart))
		r.par.ForParts(len(p.outerTo), boundsPart, func(k, from, to int) {
			parts[k] = r.pairBounds(p, keep, from, to)
		})
		for _, part := range parts {
			for hp, b := range part {
				bounds[hp] = append(bounds[hp], b)
			}
		}
	}
	return bounds
}

// pairBounds returns the bounds of the joins of p's outer observations
// from, from+1, …, to−1 whose method keep admits, by host pair.
func (r *reconciler) pairBounds(p *joinPair, keep func(method uint8) bool, from, to int) map[hostPair]*offsetBounds {
	bounds := map[hostPair]*offsetBounds{}
	for o := from; o < to; o++ {
		i := p.outerTo[o]
		if i < 0 || !keep(p.method[o]) || p.outer.obs[o].host == p.inner.obs[i].host {
			continue
		}
		ov, iv := p.outer.at(int32(o)), p.inner.at(i)
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

// mergeBounds returns one host pair's bounds, gathered in parts, as one
// offsetBounds: each list the parts' lists in order. It releases the
// parts' lists as it goes.
func mergeBounds(parts []*offsetBounds) *offsetBounds {
	if len(parts) == 1 {
		return parts[0]
	}
	m := &offsetBounds{}
	lists := func(b *offsetBounds) [6]*[]int64 {
		return [6]*[]int64{&b.lower, &b.upper, &b.mids, &b.trips, &b.starts, &b.ends}
	}
	into := lists(m)
	for f := range into {
		n := 0
		for _, b := range parts {
			n += len(*lists(b)[f])
		}
		*into[f] = make([]int64, 0, n)
		for _, b := range parts {
			*into[f] = append(*into[f], *lists(b)[f]...)
			*lists(b)[f] = nil
		}
	}
	for _, b := range parts {
		m.dir |= b.dir
		m.widen = max(m.widen, b.widen)
	}
	return m
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
