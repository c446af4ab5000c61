package reconcile

import (
	"cmp"
	"slices"

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
// The requests are built in parts of assemblePart events, assembleBlock
// parts at a time in parallel, and handed to yield in order; the breakdown
// split of each (r.splits, a table that grows as hosts first appear) is
// looked up there, in that order. yield must copy what it keeps: unless
// keep, the nullable fields of the requests of the next block reuse the
// same memory. Unless keep, only the requests a client saw are built: the
// others give no breakdown, TTFT delta nor example, and their reference
// host is all that is counted of them (a proxy and server week's 4.9M
// requests took 2 s of CPU to build at 5M). It returns the number of
// requests (built or not) per reference host, by host index.
func (r *reconciler) assemble(ck *clocks, yield func(q *ReconciledRequest), keep bool) []int64 {
	c, p := r.sources[0], r.sources[1]
	events := 0
	for _, s := range []*obsSource{c, p} {
		if len(s.obs) > 0 {
			events = max(events, int(s.obs[len(s.obs)-1].event)+1)
		}
	}
	block := assemblePart * assembleBlock
	parts := make([]assembled, r.par.PartCount(min(events, block), assemblePart))
	for k := range parts {
		parts[k].refs = make([]int64, len(r.hosts))
	}
	for from := 0; from < events; from += block {
		n := min(block, events-from)
		r.par.ForParts(n, assemblePart, func(k, lo, hi int) {
			a := &parts[k]
			if keep {
				a.slab = int64Slab{} // the kept requests point into the old one
			} else {
				a.slab.reset()
			}
			a.rows, a.hosts = a.rows[:0], a.hosts[:0]
			r.assembleEvents(ck, a, int32(from+lo), int32(from+hi), keep)
		})
		for k := range r.par.PartCount(n, assemblePart) {
			a := &parts[k]
			for j := range a.rows {
				q := &a.rows[j]
				if q.ReturnPathNs != nil {
					q.split = r.splits.ref(ck, a.hosts[j])
				}
				yield(q)
			}
		}
	}
	refs := make([]int64, len(r.hosts))
	for _, a := range parts {
		for h, n := range a.refs {
			refs[h] += n
		}
	}
	return refs
}

// assemblePart is how many events one part of assemble covers, and
// assembleBlock how many parts are built before they are handed over: a
// block's requests (some 400 bytes each with their fields) are what
// assemble holds at once.
const (
	assemblePart  = 1 << 13
	assembleBlock = 8
)

// assembled is one part's requests, with the hosts of each (for its
// split), and the count of requests per reference host (by host index) of
// every part it built so far.
type assembled struct {
	rows  []ReconciledRequest
	hosts [][3]int32
	slab  int64Slab
	refs  []int64
}

// assembleEvents appends to a the requests whose outermost observation's
// event lies in [from, to) and counts them by reference host; unless all,
// it builds only those a client saw.
func (r *reconciler) assembleEvents(ck *clocks, a *assembled, from, to int32, all bool) {
	c, p := r.sources[0], r.sources[1]
	ci, cEnd := c.eventRange(from, to)
	pi, pEnd := p.eventRange(from, to)
	for ci < cEnd || pi < pEnd {
		if pi == pEnd || ci < cEnd && c.obs[ci].event < p.obs[pi].event {
			if r.cp.outerTo[ci] >= 0 || r.cs.outerTo[ci] >= 0 {
				q, hosts := r.clientRow(ck, int32(ci), &a.slab)
				a.rows, a.hosts = append(a.rows, q), append(a.hosts, hosts)
				a.refs[ck.host[c.obs[ci].host].ref]++
			}
			ci++
			continue
		}
		if r.proxyFirst(int32(pi)) {
			if all {
				q, hosts := r.proxyRow(ck, int32(pi), &a.slab)
				a.rows, a.hosts = append(a.rows, q), append(a.hosts, hosts)
			}
			a.refs[ck.host[p.obs[pi].host].ref]++
		}
		pi++
	}
}

// eventRange returns the observations of s whose event lies in [from, to),
// as indices [lo, hi) into s.obs.
func (s *obsSource) eventRange(from, to int32) (lo, hi int) {
	at := func(e int32) int {
		k, _ := slices.BinarySearchFunc(s.obs, e, func(o obsRef, e int32) int { return cmp.Compare(o.event, e) })
		return k
	}
	return at(from), at(to)
}

// proxyFirst reports whether proxy observation k heads a joined request: no
// client, but a server.
func (r *reconciler) proxyFirst(k int32) bool { return r.cp.innerTo[k] < 0 && r.ps.outerTo[k] >= 0 }

// clientRow is the request of client observation k, with its proxy and its
// server (through the proxy or joined directly), and its observers' hosts.
func (r *reconciler) clientRow(ck *clocks, k int32, slab *int64Slab) (ReconciledRequest, [3]int32) {
	c, p, s := r.sources[0], r.sources[1], r.sources[2]
	pk, sk, serverJoin, to := r.cp.outerTo[k], int32(-1), "", ""
	switch {
	case pk >= 0 && r.ps.outerTo[pk] >= 0:
		sk, serverJoin, to = r.ps.outerTo[pk], r.ps.methodOf(int(pk)), schema.SourceProxy
	case r.cs.outerTo[k] >= 0:
		sk, serverJoin, to = r.cs.outerTo[k], r.cs.methodOf(int(k)), schema.SourceClient
	}
	row, hosts := r.row(ck, [3]reqMember{{c, k}, {p, pk}, {s, sk}}, slab)
	if pk >= 0 {
		row.ProxyJoin = r.cp.methodOf(int(k))
	}
	row.ServerJoin, row.ServerJoinedTo = serverJoin, to
	return row, hosts
}

// proxyRow is the request of proxy observation k, which no client saw, and
// its observers' hosts.
func (r *reconciler) proxyRow(ck *clocks, k int32, slab *int64Slab) (ReconciledRequest, [3]int32) {
	c, p, s := r.sources[0], r.sources[1], r.sources[2]
	row, hosts := r.row(ck, [3]reqMember{{c, -1}, {p, k}, {s, r.ps.outerTo[k]}}, slab)
	row.ServerJoin, row.ServerJoinedTo = r.ps.methodOf(int(k)), schema.SourceProxy
	return row, hosts
}

// row fills a ReconciledRequest's observers, instants and breakdown (all
// but its split), its nullable fields from slab, and returns the hosts of
// the observers on the reference clock (−1 for the others). Every instant
// is placed on the reference clock of the outermost observer's component;
// an observer on another component keeps its instants nil.
func (r *reconciler) row(ck *clocks, ms [3]reqMember, slab *int64Slab) (ReconciledRequest, [3]int32) {
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
		*f.event, *f.host = slab.at(int64(o.event)), r.cols.Host.At(int(o.event))
		if f.errClass != nil {
			*f.errClass = r.cols.Error.At(int(o.event))
		}
		hc := &ck.host[o.host]
		if hc.ref != ref {
			continue
		}
		hosts[n] = o.host
		*f.start = slab.shifted(o.start, o.has&obsHasStart != 0, hc)
		*f.first = slab.shifted(o.first, o.has&obsHasFirst != 0, hc)
		*f.end = slab.shifted(o.end, o.has&obsHasEnd != 0, hc)
	}
	q.ClientTTFTNs = slab.diff(q.ClientFirstTokenNs, q.ClientStartNs)
	q.ServerTTFTNs = slab.diff(q.ServerFirstTokenNs, q.ServerStartNs)
	if ms[2].k >= 0 {
		fillBreakdown(&q, r.cols, int(ms[2].s.obs[ms[2].k].event), slab)
	}
	return q, hosts
}

func reconPtr[T any](v T) *T { return &v }

// int64Slab hands out *int64 from large blocks: a million joined requests
// need some twenty million nullable fields, and one allocation each would
// dominate the run. reset hands its blocks out again.
type int64Slab struct {
	blocks [][]int64 // blocks[:cur+1] are in use
	cur    int
}

// at returns a pointer to a new int64 holding v.
func (s *int64Slab) at(v int64) *int64 {
	if len(s.blocks) == 0 || len(s.blocks[s.cur]) == cap(s.blocks[s.cur]) {
		if len(s.blocks) > 0 {
			s.cur++
		}
		if s.cur == len(s.blocks) {
			s.blocks = append(s.blocks, make([]int64, 0, 1<<14))
		}
	}
	b := &s.blocks[s.cur]
	*b = append(*b, v)
	return &(*b)[len(*b)-1]
}

// reset makes the slab reuse its blocks: the pointers it handed out before
// must no longer be used.
func (s *int64Slab) reset() {
	for k := range s.blocks {
		s.blocks[k] = s.blocks[k][:0]
	}
	s.cur = 0
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
