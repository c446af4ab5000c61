package reconcile

import (
	"cmp"
	"slices"
	"strings"
)

// minReportedRequests is how many joined requests a measured host pair
// needs to be listed when no host's chain runs through it.
const minReportedRequests = 5

// report lists the clock offsets for analysis.json: one entry per measured
// host pair that a chain uses or that has minReportedRequests joined
// requests, with the host nearer its component's reference (then the first
// by name) as Reference; and one chained entry (Via set) for every host two
// or more pairs away from its reference. Every host is therefore related to
// its reference by one entry, and to its chain's previous host by another.
func (ck *clocks) report() []ClockOffset {
	out := []ClockOffset{}
	for _, hp := range ck.pairs {
		e := ck.edges[hp]
		if e.requests < minReportedRequests && ck.host[hp.a].parent != hp.b && ck.host[hp.b].parent != hp.a {
			continue
		}
		ref, host := hp.a, hp.b
		if ck.host[hp.b].depth < ck.host[hp.a].depth {
			ref, host = hp.b, hp.a
			e.est, e.low, e.high = -e.est, -e.high, -e.low
		}
		out = append(out, ClockOffset{Host: ck.hosts[host], Reference: ck.hosts[ref],
			OffsetMs: e.est / 1e6, LowMs: e.low / 1e6, HighMs: e.high / 1e6,
			Requests: e.requests, Consistent: e.consistent})
	}
	for h := range ck.host {
		hc := &ck.host[h]
		if hc.depth < 2 {
			continue
		}
		via := make([]string, len(hc.via))
		for k, v := range hc.via {
			via[k] = ck.hosts[v]
		}
		out = append(out, ClockOffset{Host: ck.hosts[h], Reference: ck.hosts[hc.ref],
			OffsetMs: hc.est / 1e6, LowMs: hc.low / 1e6, HighMs: hc.high / 1e6,
			Requests: hc.requests, Consistent: hc.consistent, Via: strings.Join(via, ",")})
	}
	slices.SortFunc(out, func(x, y ClockOffset) int {
		return cmp.Or(cmp.Compare(x.Reference, y.Reference), cmp.Compare(x.Host, y.Host),
			cmp.Compare(x.Via, y.Via))
	})
	return out
}
