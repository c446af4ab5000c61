package analyze

import (
	"cmp"
	"slices"

	"github.com/ttftrace/ttftrace/schema"
)

// slowestCount is how many of the slowest client requests the report lists.
const slowestCount = 20

// SlowRequest is one of the successful client requests with the largest
// client TTFT, with its ids and, where it was joined to the server (and
// proxy) with known clock offsets, the TTFT breakdown of SPEC §4 in ms on
// the clock of Reference. A part is null when it is unknown.
type SlowRequest struct {
	Key          string   `json:"key"` // trace id, else request id, else response id, else ""
	RequestID    string   `json:"request_id"`
	TraceID      string   `json:"trace_id"`
	Host         string   `json:"host"`  // the client's host
	Model        string   `json:"model"` // as the client logged it
	Start        string   `json:"start"` // client start, RFC 3339 UTC ("" on a non-wall clock)
	ClientTTFTMs float64  `json:"client_ttft_ms"`
	ServerTTFTMs *float64 `json:"server_ttft_ms"`
	Reference    string   `json:"reference"`  // host whose clock the breakdown uses; "" when not joined
	ProxyJoin    string   `json:"proxy_join"` // trace, id, time, chain or ""
	ServerJoin   string   `json:"server_join"`

	ClientToProxyMs *float64 `json:"client_to_proxy_ms"`
	ProxyToServerMs *float64 `json:"proxy_to_server_ms"`
	ServerQueueMs   *float64 `json:"server_queue_ms"`
	ServerPrefillMs *float64 `json:"server_prefill_ms"`
	ServerOtherMs   *float64 `json:"server_other_ms"`
	ReturnPathMs    *float64 `json:"return_path_ms"`
}

// slowestRequests returns up to k successful client requests by client TTFT,
// slowest first (ties by start, then ids, then event index), each with its
// breakdown from reqs when the request was joined. It keeps the k slowest
// seen so far, so it allocates per kept request, not per event.
func slowestRequests(events []schema.Event, reqs []ReconciledRequest, k int) []SlowRequest {
	type cand struct {
		i     int
		ttft  float64
		start int64
	}
	order := func(a, b cand) int {
		x, y := &events[a.i], &events[b.i]
		return cmp.Or(cmp.Compare(b.ttft, a.ttft), cmp.Compare(a.start, b.start), cmp.Compare(x.TraceID, y.TraceID),
			cmp.Compare(x.RequestID, y.RequestID), cmp.Compare(x.ResponseID, y.ResponseID), cmp.Compare(a.i, b.i))
	}
	out := []SlowRequest{}
	if k <= 0 {
		return out
	}
	top := make([]cand, 0, k+1) // slowest first
	for i := range events {
		e := &events[i]
		if e.Source != schema.SourceClient || !succeeded(e) {
			continue
		}
		r := newRequest(e)
		ms, ok := msBetween(r.start, r.first)
		if !ok {
			continue
		}
		c := cand{i, ms, r.start.ns}
		if len(top) == k && order(c, top[k-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, c, order)
		top = slices.Insert(top, at, c)[:min(len(top)+1, k)]
	}
	joined := make(map[int64]*ReconciledRequest, len(top))
	for _, c := range top {
		joined[int64(c.i)] = nil
	}
	for i := range reqs {
		if q := &reqs[i]; q.ClientEvent != nil {
			if _, ok := joined[*q.ClientEvent]; ok {
				joined[*q.ClientEvent] = q
			}
		}
	}
	for _, c := range top {
		out = append(out, slowRequest(&events[c.i], c.ttft, joined[int64(c.i)]))
	}
	return out
}

// slowRequest describes client event e and, when q is not nil,
// the breakdown of its joined request.
func slowRequest(e *schema.Event, ttft float64, q *ReconciledRequest) SlowRequest {
	s := SlowRequest{Key: cmp.Or(e.TraceID, e.RequestID, e.ResponseID), RequestID: e.RequestID, TraceID: e.TraceID, Host: e.Host,
		Model: e.Model, ClientTTFTMs: ttft}
	if e.Clock == schema.ClockWall && e.StartNs != nil {
		s.Start = rfc3339(*e.StartNs)
	}
	if q == nil {
		return s
	}
	s.Reference, s.ProxyJoin, s.ServerJoin = q.Reference, q.ProxyJoin, q.ServerJoin
	s.ServerTTFTMs = nsPtrToMs(q.ServerTTFTNs)
	s.ClientToProxyMs, s.ProxyToServerMs = nsPtrToMs(q.ClientToProxyNs), nsPtrToMs(q.ProxyToServerNs)
	s.ServerQueueMs, s.ServerPrefillMs = nsPtrToMs(q.ServerQueueNs), nsPtrToMs(q.ServerPrefillNs)
	s.ServerOtherMs, s.ReturnPathMs = nsPtrToMs(q.ServerOtherNs), nsPtrToMs(q.ReturnPathNs)
	return s
}

// nsPtrToMs converts optional nanoseconds to optional milliseconds.
func nsPtrToMs(p *int64) *float64 {
	if p == nil {
		return nil
	}
	return ptr(float64(*p) / 1e6)
}

// referenceClocks returns the hosts whose clocks the joined requests'
// instants use, most requests first (ties by name).
func referenceClocks(reqs []ReconciledRequest) []ReferenceClock {
	n := map[string]int64{}
	for i := range reqs {
		if reqs[i].Reference != "" {
			n[reqs[i].Reference]++
		}
	}
	out := []ReferenceClock{}
	for h, c := range n {
		out = append(out, ReferenceClock{Host: h, Requests: c})
	}
	slices.SortFunc(out, func(a, b ReferenceClock) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Host, b.Host))
	})
	return out
}

// ReferenceClock is a host whose clock the corrected timelines, the TTFT
// breakdown and the example requests use, with the number of joined
// requests placed on it. Each connected group of hosts has one reference:
// its host with the most client observations.
type ReferenceClock struct {
	Host     string `json:"host"`
	Requests int64  `json:"requests"`
}
