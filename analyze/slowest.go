package analyze

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/ttftrace/ttftrace/analyze/reconcile"
	"github.com/ttftrace/ttftrace/dataset"
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

// slowest keeps the k slowest successful client requests by client TTFT,
// slowest first (ties by start, then ids, then row), and describes each,
// with its breakdown once reconciliation hands over its joined request.
type slowest struct {
	out []SlowRequest
	row map[int64]int // client row → index in out
}

// slowCand is a client request in the running: its row, client TTFT (ms)
// and start (ns).
type slowCand struct {
	row   int
	ttft  float64
	start int64
}

// newSlowest finds the k slowest successful client requests among rows of
// c. It keeps the k slowest seen so far, so it allocates per kept request,
// not per row.
func newSlowest(c *dataset.Columns, rows []int32, k int) *slowest {
	order := func(a, b slowCand) int {
		if o := cmp.Or(cmp.Compare(b.ttft, a.ttft), cmp.Compare(a.start, b.start)); o != 0 {
			return o
		}
		for _, col := range []*dataset.ColumnsList[byte]{&c.TraceText, &c.RequestText, &c.ResponseText} {
			if o := bytes.Compare(col.At(a.row), col.At(b.row)); o != 0 {
				return o
			}
		}
		return cmp.Compare(a.row, b.row)
	}
	s := &slowest{out: []SlowRequest{}, row: map[int64]int{}}
	if k <= 0 {
		return s
	}
	top := make([]slowCand, 0, k+1) // slowest first
	for _, i := range rows {
		e := event{c, int(i)}
		if e.source() != schema.SourceClient || !succeeded(e) {
			continue
		}
		r := newRequest(e)
		ms, ok := msBetween(r.start, r.first)
		if !ok {
			continue
		}
		cand := slowCand{int(i), ms, r.start.ns}
		if len(top) == k && order(cand, top[k-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, cand, order)
		top = slices.Insert(top, at, cand)[:min(len(top)+1, k)]
	}
	for j, cand := range top {
		s.row[int64(cand.row)] = j
		s.out = append(s.out, slowRequest(event{c, cand.row}, cand.ttft, nil))
	}
	return s
}

// add gives the breakdown of joined request q to its client request when
// that is one of the slowest. q may be reused after add returns.
func (s *slowest) add(c *dataset.Columns, q *reconcile.ReconciledRequest) {
	if q.ClientEvent == nil {
		return
	}
	if j, ok := s.row[*q.ClientEvent]; ok {
		s.out[j] = slowRequest(event{c, int(*q.ClientEvent)}, s.out[j].ClientTTFTMs, q)
	}
}

// slowestRequests returns up to k successful client requests among rows of
// c by client TTFT, slowest first, each with its breakdown from reqs when
// the request was joined.
func slowestRequests(c *dataset.Columns, rows []int32, reqs []reconcile.ReconciledRequest, k int) []SlowRequest {
	s := newSlowest(c, rows, k)
	for i := range reqs {
		s.add(c, &reqs[i])
	}
	return s.out
}

// slowRequest describes client event e and, when q is not nil,
// the breakdown of its joined request.
func slowRequest(e event, ttft float64, q *reconcile.ReconciledRequest) SlowRequest {
	trace, request, response := e.text(&e.c.TraceText), e.text(&e.c.RequestText), e.text(&e.c.ResponseText)
	s := SlowRequest{Key: cmp.Or(trace, request, response), RequestID: request, TraceID: trace, Host: e.host(),
		Model: e.model(), ClientTTFTMs: ttft}
	if start := e.at(&e.c.StartNs); e.clock() == schema.ClockWall && start.ok {
		s.Start = rfc3339(start.ns)
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

// referenceCounts counts the joined requests per reference host
// (reconcile.Result.ByReference).
type referenceCounts map[string]int64

// list returns the counts, most requests first (ties by name).
func (n referenceCounts) list() []ReferenceClock {
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
