package reconcile

import (
	"cmp"
	"math"
	"slices"

	"github.com/ttftrace/ttftrace/dataset"

	"github.com/ttftrace/ttftrace/schema"
)

// fillBreakdown sets the TTFT breakdown of q (SPEC §4) from its instants on
// the reference clock and the phases of server row sev of c, when client, proxy
// and server all logged start and the client and server first_token:
//
//	client→proxy  = proxy.start − client.start
//	proxy→server  = server.start − proxy.start
//	server other  = (server.first_token − server.start) − queue − prefill
//	return path   = client.first_token − server.first_token
//
// A phase the engine did not log counts as 0 and its time stays in server
// other. The sum telescopes to client.first_token − client.start, and since
// one host's instants are all shifted by the same whole number of ns, that
// is exactly the client's TTFT on its own clock.
func fillBreakdown(q *ReconciledRequest, c *dataset.Columns, sev int, slab *int64Slab) {
	if q.ClientStartNs == nil || q.ClientFirstTokenNs == nil || q.ProxyStartNs == nil ||
		q.ServerStartNs == nil || q.ServerFirstTokenNs == nil {
		return
	}
	var queue, prefill int64
	if t, ok := c.QueueNs.Get(sev); ok {
		queue = t
		q.ServerQueueNs = slab.at(queue)
	}
	if t, ok := c.PrefillNs.Get(sev); ok {
		prefill = t
		q.ServerPrefillNs = slab.at(prefill)
	}
	q.ClientToProxyNs = slab.diff(q.ProxyStartNs, q.ClientStartNs)
	q.ProxyToServerNs = slab.diff(q.ServerStartNs, q.ProxyStartNs)
	q.ServerOtherNs = slab.at(*q.ServerTTFTNs - queue - prefill)
	q.ReturnPathNs = slab.diff(q.ClientFirstTokenNs, q.ServerFirstTokenNs)
}

// reqSucceeded reports whether neither the client nor the server of q logged an
// error class.
func reqSucceeded(q *ReconciledRequest) bool {
	return q.ClientError == schema.ErrorNone && q.ServerError == schema.ErrorNone
}

// ttftBand is a range of client-TTFT quantiles whose requests a BreakdownBand
// averages.
type ttftBand struct {
	name   string
	lo, hi float64
}

// breakdownBandsDef are the bands: "around" p50, p90 and p99 means the
// requests whose client TTFT rank, among the n broken-down requests sorted by
// client TTFT, lies in [⌊lo·(n−1)⌋, ⌈hi·(n−1)⌉]: p45–p55, p85–p95 and
// p98.5–p99.5. Rounding outward keeps at least one request in every band.
var breakdownBandsDef = []ttftBand{{"all", 0, 1}, {"p50", 0.45, 0.55}, {"p90", 0.85, 0.95}, {"p99", 0.985, 0.995}}

// breakdownBands returns the mean TTFT breakdown of reqs as
// requestSummary.bands gives it.
func breakdownBands(reqs []ReconciledRequest) []BreakdownBand {
	var s requestSummary
	for k := range reqs {
		s.add(nil, &reqs[k])
	}
	return s.bands()
}

// requestSummary collects, from the joined requests one at a time, what
// the breakdown bands, the TTFT delta and the examples need, so that the
// requests themselves need not be kept: 72 bytes per request seen by
// client, proxy and server, 8 per request seen by client and server.
type requestSummary struct {
	parts  []breakdownParts
	splits *splitTable // the network parts' slacks that requests' split refer to; nil: no ranges
	deltas []float64   // client TTFT − server TTFT, ms
	top    []example   // the slowest requests so far, slowest first
}

// breakdownParts is one request's TTFT breakdown in ns: client→proxy,
// proxy→server, queue, prefill, server other, return path (a part not
// logged is 0) and client TTFT; event is the client's event index, −1 for
// none.
type breakdownParts struct {
	parts [7]int64
	event int64
	split int32 // ReconciledRequest.split
}

// clientTTFTKey orders requests by client TTFT, then by client event index,
// so that the order is total and the result deterministic.
type clientTTFTKey struct{ ttft, event int64 }

func (k clientTTFTKey) compare(o clientTTFTKey) int {
	return cmp.Or(cmp.Compare(k.ttft, o.ttft), cmp.Compare(k.event, o.event))
}

// add takes one joined request; c holds its events (nil: no examples).
func (s *requestSummary) add(c *dataset.Columns, q *ReconciledRequest) {
	if !reqSucceeded(q) {
		return
	}
	if q.ReturnPathNs != nil {
		var b breakdownParts
		for k, v := range []*int64{q.ClientToProxyNs, q.ProxyToServerNs, q.ServerQueueNs,
			q.ServerPrefillNs, q.ServerOtherNs, q.ReturnPathNs, q.ClientTTFTNs} {
			if v != nil {
				b.parts[k] = *v
			}
		}
		b.event = eventIndexOr(q.ClientEvent)
		b.split = q.split
		s.parts = append(s.parts, b)
	}
	if q.ClientTTFTNs != nil && q.ServerTTFTNs != nil {
		s.deltas = append(s.deltas, float64(*q.ClientTTFTNs-*q.ServerTTFTNs)/1e6)
	}
	if c != nil {
		s.addExample(c, q, maxExamples)
	}
}

// bands returns the mean TTFT breakdown, in ms, over the successful
// requests with every part, for each band; none without such requests. A
// missing queue or prefill counts as 0 (its time is in server other), so the
// parts' means add up to the mean client TTFT.
func (s *requestSummary) bands() []BreakdownBand {
	rows := s.parts
	if len(rows) == 0 {
		return []BreakdownBand{}
	}
	slices.SortFunc(rows, func(x, y breakdownParts) int {
		return clientTTFTKey{x.parts[6], x.event}.compare(clientTTFTKey{y.parts[6], y.event})
	})
	out := make([]BreakdownBand, 0, len(breakdownBandsDef))
	n := float64(len(rows) - 1)
	for _, b := range breakdownBandsDef {
		lo, hi := int(math.Floor(b.lo*n)), int(math.Ceil(b.hi*n))
		band := meanBreakdown(b.name, rows[lo:hi+1])
		if s.splits != nil {
			s.splits.setRanges(&band, rows[lo:hi+1])
		}
		out = append(out, band)
	}
	return out
}

// eventIndexOr returns *p, or -1 for nil.
func eventIndexOr(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// meanBreakdown averages the parts of rows, in ms. Sums are kept in integer
// ns, so the means add up to the mean client TTFT up to float rounding.
func meanBreakdown(name string, rows []breakdownParts) BreakdownBand {
	var s [7]int64
	for _, q := range rows {
		for k, v := range q.parts {
			s[k] += v
		}
	}
	n := float64(len(rows)) * 1e6
	return BreakdownBand{Band: name, Requests: int64(len(rows)),
		ClientToProxyMs: float64(s[0]) / n, ProxyToServerMs: float64(s[1]) / n,
		ServerQueueMs: float64(s[2]) / n, ServerPrefillMs: float64(s[3]) / n,
		ServerOtherMs: float64(s[4]) / n, ReturnPathMs: float64(s[5]) / n, ClientTTFTMs: float64(s[6]) / n}
}
