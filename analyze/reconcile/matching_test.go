package reconcile

import (
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestMatchingIdentities checks the identities Matching documents on the
// logs of a simulated fleet (fleetShape: 30% of the requests with an id
// carry a trace id from client to server, 5% skip the proxy), and that
// proxy→server and client→server report as unmatched only the servers no
// row holds: at most the requests the joins got wrong or missed by the
// simulator's truth, not the servers joined through their client. A second fleet's proxies log no id where client and
// server share a trace id, so that clients join their servers by trace
// first and their proxies only by time or chain (the case that counted
// those servers unmatched).
func TestMatchingIdentities(t *testing.T) {
	t.Run("fleet", func(t *testing.T) { testMatchingIdentities(t, simulateFleet(t, fleetShape(20000))) })
	t.Run("proxies without ids on traced requests", func(t *testing.T) {
		f := simulateFleet(t, fleetShape(20000))
		for k := range f.Events {
			if ev := &f.Events[k]; ev.Source == schema.SourceProxy && ev.TraceID != "" {
				ev.TraceID, ev.RequestID = "", ""
			}
		}
		testMatchingIdentities(t, f)
	})
}

func testMatchingIdentities(t *testing.T, f *fleetLogs) {
	rec := Events(f.Events, f.Inputs)
	events := map[string]int64{}
	for _, ev := range f.Events {
		events[ev.Source]++
	}
	inRow := map[int64]bool{}
	byClient := map[int64]*ReconciledRequest{}
	for k, q := range rec.Requests {
		if q.ServerEvent != nil {
			inRow[*q.ServerEvent] = true
		}
		if q.ClientEvent != nil {
			byClient[*q.ClientEvent] = &rec.Requests[k]
		}
	}
	var servers, serversInRow, missed int64
	for _, tr := range f.Requests {
		q := byClient[int64(tr.Client)]
		if q == nil || !fleetEventIs(q.ProxyEvent, tr.Proxy) || !fleetEventIs(q.ServerEvent, tr.Server) {
			missed++
		}
		if tr.Server >= 0 {
			servers++
			serversInRow += boolCount(inRow[int64(tr.Server)])
		}
	}
	if servers != events[schema.SourceServer] {
		t.Fatalf("truth has %d servers, events %d", servers, events[schema.SourceServer])
	}
	for _, m := range rec.Matching {
		t.Logf("%+v", m)
		if m.Matched != m.ByTrace+m.ByID+m.ByTime+m.ByChain {
			t.Errorf("%s→%s: matched %d ≠ by method", m.Outer, m.Inner, m.Matched)
		}
		if n := m.Matched + m.Ambiguous + m.UnmatchedOuter + m.OuterExcluded; n != events[m.Outer] {
			t.Errorf("%s→%s: outer counts add up to %d, %d events", m.Outer, m.Inner, n, events[m.Outer])
		}
		if n := m.Matched + m.InnerElsewhere + m.UnmatchedInner; n != events[m.Inner] {
			t.Errorf("%s→%s: inner counts add up to %d, %d events", m.Outer, m.Inner, n, events[m.Inner])
		}
		if m.Inner == schema.SourceServer && (m.UnmatchedInner != servers-serversInRow || m.UnmatchedInner > missed) {
			t.Errorf("%s→%s: %d servers unmatched; %d in no row, %d requests missed by truth",
				m.Outer, m.Inner, m.UnmatchedInner, servers-serversInRow, missed)
		}
	}
	t.Logf("%d servers, %d in no row; %d requests not fully and rightly joined", servers, servers-serversInRow, missed)
}

// TestRequestsOwnObservationsOnce checks on simulated fleets (the same two as
// TestMatchingIdentities) that no event is in two rows of Requests, and that
// every row's events are the truth's events of one request.
func TestRequestsOwnObservationsOnce(t *testing.T) {
	for _, noProxyIDs := range []int{0, 1, 2} {
		f := simulateFleet(t, fleetShape(20000))
		for k := range f.Events {
			if ev := &f.Events[k]; noProxyIDs > 0 && ev.Source == schema.SourceProxy && ev.TraceID != "" {
				ev.TraceID, ev.RequestID = "", ""
				if noProxyIDs == 2 {
					ev.Endpoint = "/v1/completions"
				}
			}
		}
		request := map[int64]int{} // event index → index into f.Requests
		for n, tr := range f.Requests {
			for _, e := range []int{tr.Client, tr.Proxy, tr.Server} {
				if e >= 0 {
					request[int64(e)] = n
				}
			}
		}
		rows := map[int64]int{} // event index → row
		var wrong int
		for k, q := range Events(f.Events, f.Inputs).Requests {
			var truth []int
			for _, e := range []*int64{q.ClientEvent, q.ProxyEvent, q.ServerEvent} {
				if e == nil {
					continue
				}
				if r, ok := rows[*e]; ok {
					t.Errorf("no-id proxies %d: event %d in rows %d and %d", noProxyIDs, *e, r, k)
				}
				rows[*e] = k
				truth = append(truth, request[*e])
			}
			if len(truth) < 2 || slices.Min(truth) != slices.Max(truth) {
				wrong++
			}
		}
		if wrong > len(f.Requests)/1000 {
			t.Errorf("no-id proxies %d: %d rows join events of different requests", noProxyIDs, wrong)
		}
		t.Logf("no-id proxies %d: %d events in rows, %d rows mixing requests", noProxyIDs, len(rows), wrong)
	}
}
