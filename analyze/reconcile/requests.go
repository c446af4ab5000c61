package reconcile

import (
	"github.com/ttftrace/ttftrace/schema"
)

// matching counts the joins of every source pair whose two sources both have
// events, so that the identities of Matching hold. An outer observation is
// matched, ambiguous, unmatched or excluded (another pair holds its
// request); an inner one is matched, joined elsewhere (by the other route to
// the server) or unmatched; events on steady or relative clocks are
// unmatched.
func (r *reconciler) matching() []Matching {
	out := []Matching{}
	for _, p := range []*joinPair{r.cp, r.ps, r.cs} {
		if p.outer.events == 0 || p.inner.events == 0 {
			continue
		}
		m := Matching{Outer: p.outer.name, Inner: p.inner.name,
			UnmatchedOuter: p.outer.unjoinable, UnmatchedInner: p.inner.unjoinable}
		for o, i := range p.outerTo {
			switch {
			case i >= 0:
				m.Matched++
				m.ByTrace += boolCount(p.methodOf(o) == JoinTrace)
				m.ByID += boolCount(p.methodOf(o) == JoinID)
				m.ByTime += boolCount(p.methodOf(o) == JoinTime)
				m.ByChain += boolCount(p.methodOf(o) == JoinChain)
			case p.ambiguous[o]:
				m.Ambiguous++
			case p.outerOK(int32(o)):
				m.UnmatchedOuter++
			default:
				m.OuterExcluded++
			}
		}
		for i, o := range p.innerTo {
			switch {
			case o >= 0:
			case !p.innerOK(int32(i)) || p.innerElsewhere != nil && p.innerElsewhere(int32(i)):
				m.InnerElsewhere++
			default:
				m.UnmatchedInner++
			}
		}
		out = append(out, m)
	}
	return out
}

func boolCount(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// reqMember is one observer's observation of a joined request (k < 0: absent).
type reqMember struct {
	s *obsSource
	k int32
}

func (m reqMember) obs() joinObs { return m.s.at(m.k) }

// assemble builds one ReconciledRequest per request joined across at least
// two sources, ordered by the outermost observation's event index: client
// observations with a proxy or server, and proxy observations without a
// client but with a server, merged by event index (each source's
// observations are in event order).
//
// Each request is handed to yield, which must copy what it keeps: unless
// keep, the nullable fields of the next request reuse the same memory.
func (r *reconciler) assemble(ck *clocks, yield func(q *ReconciledRequest), keep bool) {
	c, p := r.sources[0], r.sources[1]
	ci, pi := 0, 0
	for ci < len(c.obs) || pi < len(p.obs) {
		if !keep {
			r.slab.block = r.slab.block[:0]
		}
		if pi == len(p.obs) || ci < len(c.obs) && c.obs[ci].event < p.obs[pi].event {
			if r.cp.outerTo[ci] >= 0 || r.cs.outerTo[ci] >= 0 {
				q := r.clientRow(ck, int32(ci))
				yield(&q)
			}
			ci++
			continue
		}
		if r.proxyFirst(int32(pi)) {
			q := r.proxyRow(ck, int32(pi))
			yield(&q)
		}
		pi++
	}
}

// proxyFirst reports whether proxy observation k heads a joined request: no
// client, but a server.
func (r *reconciler) proxyFirst(k int32) bool { return r.cp.innerTo[k] < 0 && r.ps.outerTo[k] >= 0 }

// clientRow is the request of client observation k, with its proxy and its
// server (through the proxy or joined directly).
func (r *reconciler) clientRow(ck *clocks, k int32) ReconciledRequest {
	c, p, s := r.sources[0], r.sources[1], r.sources[2]
	pk, sk, serverJoin, to := r.cp.outerTo[k], int32(-1), "", ""
	switch {
	case pk >= 0 && r.ps.outerTo[pk] >= 0:
		sk, serverJoin, to = r.ps.outerTo[pk], r.ps.methodOf(int(pk)), schema.SourceProxy
	case r.cs.outerTo[k] >= 0:
		sk, serverJoin, to = r.cs.outerTo[k], r.cs.methodOf(int(k)), schema.SourceClient
	}
	row := r.row(ck, [3]reqMember{{c, k}, {p, pk}, {s, sk}})
	if pk >= 0 {
		row.ProxyJoin = r.cp.methodOf(int(k))
	}
	row.ServerJoin, row.ServerJoinedTo = serverJoin, to
	return row
}

// proxyRow is the request of proxy observation k, which no client saw.
func (r *reconciler) proxyRow(ck *clocks, k int32) ReconciledRequest {
	c, p, s := r.sources[0], r.sources[1], r.sources[2]
	row := r.row(ck, [3]reqMember{{c, -1}, {p, k}, {s, r.ps.outerTo[k]}})
	row.ServerJoin, row.ServerJoinedTo = r.ps.methodOf(int(k)), schema.SourceProxy
	return row
}

// row fills a ReconciledRequest's observers, instants and breakdown. Every
// instant is placed on the reference clock of the outermost observer's
// component; an observer on another component keeps its instants nil.
func (r *reconciler) row(ck *clocks, ms [3]reqMember) ReconciledRequest {
	var q ReconciledRequest
	ref := int32(-1)
	for _, m := range ms {
		if m.k >= 0 && ref < 0 {
			ref = ck.host[m.s.obs[m.k].host].ref
		}
	}
	q.Reference = ck.hosts[ref]
	type fields struct {
		event             **int64
		host              *string
		start, first, end **int64
		errClass          *string
	}
	hosts := [3]int32{-1, -1, -1}
	slots := [3]fields{
		{&q.ClientEvent, &q.ClientHost, &q.ClientStartNs, &q.ClientFirstTokenNs, &q.ClientEndNs, &q.ClientError},
		{&q.ProxyEvent, &q.ProxyHost, &q.ProxyStartNs, &q.ProxyFirstTokenNs, &q.ProxyEndNs, nil},
		{&q.ServerEvent, &q.ServerHost, &q.ServerStartNs, &q.ServerFirstTokenNs, &q.ServerEndNs, &q.ServerError},
	}
	for n, m := range ms {
		if m.k < 0 {
			continue
		}
		o, f := m.obs(), slots[n]
		*f.event, *f.host = r.slab.at(int64(o.event)), r.cols.Host.At(int(o.event))
		if f.errClass != nil {
			*f.errClass = r.cols.Error.At(int(o.event))
		}
		hc := &ck.host[o.host]
		if hc.ref != ref {
			continue
		}
		hosts[n] = o.host
		*f.start = r.slab.shifted(o.start, o.has&obsHasStart != 0, hc)
		*f.first = r.slab.shifted(o.first, o.has&obsHasFirst != 0, hc)
		*f.end = r.slab.shifted(o.end, o.has&obsHasEnd != 0, hc)
	}
	q.ClientTTFTNs = r.slab.diff(q.ClientFirstTokenNs, q.ClientStartNs)
	q.ServerTTFTNs = r.slab.diff(q.ServerFirstTokenNs, q.ServerStartNs)
	if ms[2].k >= 0 {
		fillBreakdown(&q, r.cols, int(ms[2].obs().event), &r.slab)
		if q.ReturnPathNs != nil {
			q.split = r.splits.ref(ck, hosts)
		}
	}
	return q
}

func reconPtr[T any](v T) *T { return &v }

// int64Slab hands out *int64 from large blocks: a million joined requests
// need some twenty million nullable fields, and one allocation each would
// dominate the run.
type int64Slab struct{ block []int64 }

// at returns a pointer to a new int64 holding v.
func (s *int64Slab) at(v int64) *int64 {
	if len(s.block) == cap(s.block) {
		s.block = make([]int64, 0, 1<<14)
	}
	s.block = append(s.block, v)
	return &s.block[len(s.block)-1]
}

// shifted returns instant t of a host on the reference clock, or nil.
func (s *int64Slab) shifted(t int64, ok bool, hc *hostClock) *int64 {
	if !ok {
		return nil
	}
	return s.at(t - hc.shift())
}

// diff returns a − b, or nil when either is nil.
func (s *int64Slab) diff(a, b *int64) *int64 {
	if a == nil || b == nil {
		return nil
	}
	return s.at(*a - *b)
}
