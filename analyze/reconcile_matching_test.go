package analyze

import (
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestMatchingIdentities checks the identities Matching documents on a
// generated fleet (30% of requests carry a trace id from client to server,
// 5% skip the proxy), and that proxy→server and client→server report as
// unmatched only the servers no row holds: at most the requests the joins
// got wrong or missed by the simulator's truth, not the servers joined
// through their client. A second fleet's proxies log no id where client and
// server share a trace id, so that clients join their servers by trace
// first and their proxies only by time or chain (the case that counted
// those servers unmatched).
func TestMatchingIdentities(t *testing.T) {
	t.Run("fleet", func(t *testing.T) { testMatchingIdentities(t, genFleet(fleetDefault)) })
	t.Run("proxies without ids on traced requests", func(t *testing.T) {
		f := genFleet(fleetDefault)
		for k := range f.Events {
			if ev := &f.Events[k]; ev.Source == schema.SourceProxy && ev.TraceID != "" {
				ev.TraceID, ev.RequestID = "", ""
			}
		}
		testMatchingIdentities(t, f)
	})
}

func testMatchingIdentities(t *testing.T, f *fleet) {
	rec := Reconcile(f.Events)
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
