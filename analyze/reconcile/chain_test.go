package reconcile

import (
	"fmt"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestChainJoin: clocks agree. Three requests from client host web pass
// proxy edge and server gpu with a trace id, relating the three clocks.
// A GenAI-Perf client on host bench sends request b1 (10000 to 11000 ms)
// through edge (10005 to 10995, no ids logged) to gpu (10006 to 10990),
// which logs the response id bench logged: bench⊃gpu joins by id, edge⊃gpu
// by time, and then bench⊃edge through gpu (a chain join). Request b2 from
// bench goes to gpu directly (20000 to 21000 and 20003 to 20997); a
// stranger's edge observation (20050 to 20999) fits inside b2's client but
// does not hold its server (it starts 47 ms after the server), so b2 must
// not take it, neither through the server nor by time.
func TestChainJoin(t *testing.T) {
	var events []schema.Event
	for k := 0; k < 3; k++ {
		at := float64(2000 * k)
		c, p, s := clientObs("web", at, at+200, at+1000), proxyObs("edge", at+5, at+995), serverObs("gpu", at+6, at+190, at+990)
		c.TraceID = fmt.Sprintf("%032x", k+1)
		p.TraceID, s.TraceID = c.TraceID, c.TraceID
		events = append(events, c, p, s)
	}
	b1 := obsEvent(schema.SourceClient, "bench", "genai-perf", 10000, 10100, 11000)
	s1 := serverObs("gpu", 10006, 10090, 10990)
	b1.ResponseID, s1.ResponseID = "chatcmpl-b1", "chatcmpl-b1"
	b2 := obsEvent(schema.SourceClient, "bench", "genai-perf", 20000, 20100, 21000)
	s2 := serverObs("gpu", 20003, 20090, 20997)
	b2.ResponseID, s2.ResponseID = "chatcmpl-b2", "chatcmpl-b2"
	events = append(events, b1, proxyObs("edge", 10005, 10995), s1, b2, proxyObs("edge", 20050, 20999), s2)
	rec := reconcileDeclared(events)

	if m := matchingOf(t, rec, "client", "proxy"); m.ByTrace != 3 || m.ByChain != 1 || m.ByTime != 0 || m.Matched != 4 {
		t.Errorf("client/proxy %+v, want 3 by trace and 1 through the server", m)
	}
	var chained *ReconciledRequest
	for k := range rec.Requests {
		q := &rec.Requests[k]
		switch {
		case *q.ClientEvent == 9:
			chained = q
		case *q.ClientEvent == 12 && q.ProxyEvent != nil:
			t.Errorf("b2 took the stranger's proxy observation %d", *q.ProxyEvent)
		}
	}
	if chained == nil || chained.ProxyEvent == nil || *chained.ProxyEvent != 10 || chained.ProxyJoin != JoinChain ||
		*chained.ServerEvent != 11 || chained.ServerJoin != JoinTime || chained.ServerJoinedTo != schema.SourceProxy {
		t.Fatalf("b1's request %+v, want proxy 10 through server 11", chained)
	}
	if chained.ClientToProxyNs == nil || chained.ReturnPathNs == nil {
		t.Errorf("b1's breakdown is missing: %+v", chained)
	}
	if len(rec.TTFTBreakdown) == 0 || rec.TTFTBreakdown[0].Band != "all" || rec.TTFTBreakdown[0].Requests != 4 {
		t.Errorf("breakdown %+v, want the 3 traced requests and b1 in band all", rec.TTFTBreakdown)
	}
}
