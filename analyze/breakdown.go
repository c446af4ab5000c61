package analyze

import (
	"cmp"
	"math"
	"slices"

	"github.com/ttftrace/ttftrace/schema"
)

// fillBreakdown sets the TTFT breakdown of q (SPEC §4) from its instants on
// the reference clock and the server event sev's phases, when client, proxy
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
func fillBreakdown(q *ReconciledRequest, sev event, slab *int64Slab) {
	if q.ClientStartNs == nil || q.ClientFirstTokenNs == nil || q.ProxyStartNs == nil ||
		q.ServerStartNs == nil || q.ServerFirstTokenNs == nil {
		return
	}
	var queue, prefill int64
	if t := sev.at(&sev.c.QueueNs); t.ok {
		queue = t.ns
		q.ServerQueueNs = slab.at(queue)
	}
	if t := sev.at(&sev.c.PrefillNs); t.ok {
		prefill = t.ns
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

// breakdownBands returns the mean TTFT breakdown, in ms, over the successful
// requests with every part, for each band; none without such requests. A
// missing queue or prefill counts as 0 (its time is in server other), so the
// parts' means add up to the mean client TTFT.
func breakdownBands(reqs []ReconciledRequest) []BreakdownBand {
	var rows []*ReconciledRequest
	for k := range reqs {
		if q := &reqs[k]; q.ReturnPathNs != nil && reqSucceeded(q) {
			rows = append(rows, q)
		}
	}
	if len(rows) == 0 {
		return []BreakdownBand{}
	}
	slices.SortFunc(rows, byClientTTFT)
	out := make([]BreakdownBand, 0, len(breakdownBandsDef))
	n := float64(len(rows) - 1)
	for _, b := range breakdownBandsDef {
		lo, hi := int(math.Floor(b.lo*n)), int(math.Ceil(b.hi*n))
		out = append(out, meanBreakdown(b.name, rows[lo:hi+1]))
	}
	return out
}

// byClientTTFT orders requests by client TTFT, then by client event index,
// so that the order is total and the result deterministic.
func byClientTTFT(x, y *ReconciledRequest) int {
	return cmp.Or(cmp.Compare(*x.ClientTTFTNs, *y.ClientTTFTNs), cmp.Compare(eventIndexOr(x.ClientEvent), eventIndexOr(y.ClientEvent)))
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
func meanBreakdown(name string, rows []*ReconciledRequest) BreakdownBand {
	var s [7]int64
	for _, q := range rows {
		for k, v := range []*int64{q.ClientToProxyNs, q.ProxyToServerNs, q.ServerQueueNs,
			q.ServerPrefillNs, q.ServerOtherNs, q.ReturnPathNs, q.ClientTTFTNs} {
			if v != nil {
				s[k] += *v
			}
		}
	}
	n := float64(len(rows)) * 1e6
	return BreakdownBand{Band: name, Requests: int64(len(rows)),
		ClientToProxyMs: float64(s[0]) / n, ProxyToServerMs: float64(s[1]) / n,
		ServerQueueMs: float64(s[2]) / n, ServerPrefillMs: float64(s[3]) / n,
		ServerOtherMs: float64(s[4]) / n, ReturnPathMs: float64(s[5]) / n, ClientTTFTMs: float64(s[6]) / n}
}

// ttftDelta is the distribution of client TTFT − server TTFT in ms over the
// successful requests joined at client and server (a proxy is not needed:
// each TTFT is on its own host's clock, so no offset enters); nil for none.
func ttftDelta(reqs []ReconciledRequest) *Metric {
	var xs []float64
	for k := range reqs {
		q := &reqs[k]
		if q.ClientTTFTNs != nil && q.ServerTTFTNs != nil && reqSucceeded(q) {
			xs = append(xs, float64(*q.ClientTTFTNs-*q.ServerTTFTNs)/1e6)
		}
	}
	return deltaMetric(xs)
}
