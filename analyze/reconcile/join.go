package reconcile

import (
	"slices"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Bits of joinObs.has: which instants the observer logged.
const (
	obsHasStart = 1 << iota
	obsHasFirst
	obsHasEnd
)

// obsRef is how an obsSource stores one observation: its event and host;
// obsSource.at expands it into a joinObs from the Columns when needed.
type obsRef struct {
	event int32 // index into the rows given to Columns
	host  int32 // index into reconciler.hosts
}

// joinObs is what the joins need of one wall-clock event: its instants
// in nanoseconds on its own host's clock, and the resolution of its log.
type joinObs struct {
	event int32 // index into the rows given to Columns; its ids are the row's IDKeys
	host  int32 // index into reconciler.hosts
	res   int64 // widest error range of the log's instants, ns
	start int64
	first int64
	end   int64
	errs  *logErrors // the error of each logged instant, as its input declared it
	has   uint8
}

// obsSource holds the joinable observations of one kind of observer.
type obsSource struct {
	name       string
	obs        []obsRef
	unjoinable int64 // events on steady or relative clocks
	events     int64 // all events of the source
	cols       *dataset.Columns
	errs       []*logErrors // by input file code: the errors its format declared
}

// at returns observation k with its instants, read from the Columns.
func (s *obsSource) at(k int32) joinObs {
	ref := s.obs[k]
	row := int(ref.event)
	o := joinObs{event: ref.event, host: ref.host, errs: s.errs[s.cols.InputFile.Codes[ref.event]]}
	o.res = o.errs.spread()
	o.start, o.has = loggedInstant(&s.cols.StartNs, row, obsHasStart, o.has)
	o.first, o.has = loggedInstant(&s.cols.FirstTokenNs, row, obsHasFirst, o.has)
	o.end, o.has = loggedInstant(&s.cols.EndNs, row, obsHasEnd, o.has)
	e := o.errs.or() // de-biased: see instantError
	o.start, o.first, o.end = o.start-e.start.bias, o.first-e.first.bias, o.end-e.end.bias
	return o
}

// joinPair is one outer/inner join (client⊃proxy, proxy⊃server, client⊃server)
// and its results so far.
type joinPair struct {
	outer, inner *obsSource
	// firstOrdered is true when the inner observer's first_token precedes the
	// outer's in true time: a client's first content chunk passes through the
	// proxy after its first body byte and leaves the server after its first
	// token. A proxy's first body byte may be a role chunk sent before the
	// server's first token, so proxy⊃server is not ordered.
	firstOrdered bool
	outerTo      []int32 // per outer observation, the joined inner one or -1
	innerTo      []int32 // per inner observation, the joined outer one or -1
	method       []uint8 // index into joinMethods
	ambiguous    []bool
	// fresh lists the outer observations joined since the last clock
	// estimate (estimateClocks).
	fresh []int32
	// outerOK and innerOK say whether an observation takes part in this
	// pair's joins; conflict vetoes a join that would contradict another
	// pair's.
	outerOK, innerOK func(int32) bool
	conflict         func(o, i int32) bool
	// timeOuterOK, when set, further limits the outers a time join may
	// take.
	timeOuterOK func(int32) bool
	// innerElsewhere, when set, says whether an inner observation this pair
	// did not join was joined by another pair (counted apart, not unmatched).
	innerElsewhere func(int32) bool
}

func newPair(outer, inner *obsSource, firstOrdered bool, par parallel.Split) *joinPair {
	p := &joinPair{outer: outer, inner: inner, firstOrdered: firstOrdered,
		outerTo: make([]int32, len(outer.obs)), innerTo: make([]int32, len(inner.obs)),
		method: make([]uint8, len(outer.obs)), ambiguous: make([]bool, len(outer.obs))}
	for _, to := range [][]int32{p.outerTo, p.innerTo} {
		par.ForParts(len(to), observePart, func(_, from, end int) {
			for i := from; i < end; i++ {
				to[i] = -1
			}
		})
	}
	always := func(int32) bool { return true }
	p.outerOK, p.innerOK = always, always
	return p
}

// free reports whether outer o and inner i may still be joined to each other.
func (p *joinPair) free(o, i int32) bool {
	return p.outerTo[o] < 0 && p.innerTo[i] < 0 && p.outerOK(o) && p.innerOK(i) &&
		(p.conflict == nil || !p.conflict(o, i))
}

// byInner reorders outers, joined outer observations of p, by the index
// of the inner observation each is joined to.
func (p *joinPair) byInner(outers []int32) []int32 {
	if len(outers) == 0 {
		return outers
	}
	at := make([]int32, len(p.innerTo)) // by inner observation: its outer + 1 if listed
	for _, o := range outers {
		at[p.outerTo[o]] = o + 1
	}
	outers = outers[:0]
	for _, o := range at {
		if o > 0 {
			outers = append(outers, o-1)
		}
	}
	return outers
}

// methodOf returns how outer o was joined, "" when it was not.
func (p *joinPair) methodOf(o int) string { return joinMethods[p.method[o]] }

func (p *joinPair) join(o, i int32, method string) {
	p.outerTo[o], p.innerTo[i], p.method[o] = i, o, uint8(slices.Index(joinMethods, method))
	p.ambiguous[o] = false
	p.fresh = append(p.fresh, o)
}

// reconciler holds the observations of every source and the three pairs.
type reconciler struct {
	cols    *dataset.Columns
	hosts   []string
	sources [3]*obsSource  // client, proxy, server
	cp      *joinPair      // client ⊃ proxy
	ps      *joinPair      // proxy ⊃ server
	cs      *joinPair      // client ⊃ server, for requests no proxy joins
	perRun  []uint8        // by input file code: the fields its format sets per run (inputPerRun)
	splits  splitTable     // the breakdown's network parts' slacks per triple of hosts
	par     parallel.Split // how its loops split
	// bounds and ests are every host pair's clock bounds from the joins so
	// far and its estimate from them, kept from one clock estimate to the
	// next (estimateClocks); nil after the last.
	bounds map[hostPair]*offsetBounds
	ests   map[hostPair]pairEstimate
	// refOrder is referenceOrder's result, counted once (it depends on the
	// observations alone).
	refOrder []int32
}

func newReconciler(c *dataset.Columns, inputs []schema.InputStats, par parallel.Split) *reconciler {
	r := &reconciler{cols: c, perRun: inputPerRun(c, inputs), par: par}
	names := [3]string{schema.SourceClient, schema.SourceProxy, schema.SourceServer}
	sourceOf := make([]int8, len(c.Source.Values)) // source code → index into r.sources, or −1
	for code, v := range c.Source.Values {
		sourceOf[code] = int8(slices.Index(names[:], v))
	}
	errs := inputErrors(c, inputs)
	parts := r.observe(sourceOf)
	for k := range r.sources {
		r.sources[k] = &obsSource{name: names[k], cols: c, errs: errs}
		n := int64(0)
		for j := range parts {
			pt := &parts[j]
			r.sources[k].events += pt.events[k]
			r.sources[k].unjoinable += pt.unjoinable[k]
			pt.at[k], n = n, n+pt.obs[k] // where the part's observations start
		}
		r.sources[k].obs = make([]obsRef, n)
	}
	// The hosts in the order their first observation comes.
	hostID := make([]int32, len(c.Host.Values)) // host code → index into r.hosts + 1, or 0
	for _, pt := range parts {
		for _, hc := range pt.hosts {
			if hostID[hc] == 0 {
				r.hosts = append(r.hosts, c.Host.Values[hc])
				hostID[hc] = int32(len(r.hosts))
			}
		}
	}
	r.par.ForParts(len(c.Source.Codes), observePart, func(k, from, to int) {
		at := parts[k].at
		for i := from; i < to; i++ {
			if src := sourceOf[c.Source.Codes[i]]; src >= 0 && c.Clock.At(i) == schema.ClockWall {
				r.sources[src].obs[at[src]] = obsRef{event: int32(i), host: hostID[c.Host.Codes[i]] - 1}
				at[src]++
			}
		}
	})
	cl, p, s := r.sources[0], r.sources[1], r.sources[2]
	r.cp, r.ps, r.cs = newPair(cl, p, true, par), newPair(p, s, false, par), newPair(cl, s, true, par)
	r.ps.outerOK = func(o int32) bool { return !r.hasDirectServer(r.cp.innerTo[o]) }
	r.cs.outerOK = func(o int32) bool { pr := r.cp.outerTo[o]; return pr < 0 || r.ps.outerTo[pr] < 0 }
	r.cs.innerOK = func(i int32) bool { return r.ps.innerTo[i] < 0 }
	r.ps.innerElsewhere = func(i int32) bool { return r.cs.innerTo[i] >= 0 }
	// A client joined to its server directly may take only the proxy joined
	// to that same server (a chain join), never one holding another server.
	r.cp.conflict = func(o, i int32) bool {
		return r.cs.outerTo[o] >= 0 && r.ps.outerTo[i] >= 0 && r.ps.outerTo[i] != r.cs.outerTo[o]
	}
	// A client already joined to its server directly takes a proxy only by
	// trace or id, or through that server (joinChains): a proxy found by
	// time alone could not be checked against that server, and a client
	// that skipped the proxy must not take a stranger's. A server joined to
	// its client directly may still be time-joined inside a proxy.
	r.cp.timeOuterOK = func(o int32) bool { return r.cs.outerTo[o] < 0 }
	return r
}

// hasDirectServer reports whether client observation c (or -1) was joined
// to a server directly.
func (r *reconciler) hasDirectServer(c int32) bool { return c >= 0 && r.cs.outerTo[c] >= 0 }

// observePart is how many rows one part of observe (and of the filling of
// the sources' observations after it) takes.
const observePart = 1 << 18

// observedPart are one part's counts of observe: per source (in
// r.sources' order), its events, those on clocks that do not join, and its
// observations (the others), where they start among the source's (set
// once every part is counted); and the host codes of its observations, in
// the order each first comes.
type observedPart struct {
	events, unjoinable, obs, at [3]int64
	hosts                       []uint32
}

// observe counts the rows of c, a part at a time in parallel, by source.
func (r *reconciler) observe(sourceOf []int8) []observedPart {
	c := r.cols
	parts := make([]observedPart, r.par.PartCount(len(c.Source.Codes), observePart))
	r.par.ForParts(len(c.Source.Codes), observePart, func(k, from, to int) {
		pt := &parts[k]
		seen, last := map[uint32]bool{}, ^uint32(0) // rows come a file, so a host, at a time
		for i := from; i < to; i++ {
			src := sourceOf[c.Source.Codes[i]]
			if src < 0 {
				continue
			}
			pt.events[src]++
			if c.Clock.At(i) != schema.ClockWall {
				pt.unjoinable[src]++
				continue
			}
			pt.obs[src]++
			if hc := c.Host.Codes[i]; hc != last {
				if last = hc; !seen[hc] {
					seen[hc] = true
					pt.hosts = append(pt.hosts, hc)
				}
			}
		}
	})
	return parts
}

// loggedInstant returns the instant of column col at row (ns), and has
// with bit set when it was logged.
func loggedInstant(col *dataset.ColumnsNullable[int64], row int, bit, has uint8) (int64, uint8) {
	t, ok := col.Get(row)
	if !ok {
		return 0, has
	}
	return t, has | bit
}

// idCands are the inner observations an outer one shares its trace id and
// its normalized ids with (−1: none or several).
type idCands struct{ trace, id int32 }

// joinIDs joins the free observations of p by trace id, then by any shared
// normalized id. A key carried by several observations of one source is
// ambiguous and never used; an outer whose keys point to different inner
// observations is not joined. The candidates are found in parallel
// (idCandidates); the joins are then made in outer order, as whether an
// inner is still free depends on the earlier ones.
func (r *reconciler) joinIDs(p *joinPair) {
	if len(p.outer.obs) == 0 || len(p.inner.obs) == 0 {
		return
	}
	for k, c := range r.idCandidates(p) {
		o := int32(k)
		if c.trace >= 0 && p.free(o, c.trace) {
			p.join(o, c.trace, JoinTrace)
			continue
		}
		if c.id >= 0 && p.free(o, c.id) {
			p.join(o, c.id, JoinID)
		}
	}
}
