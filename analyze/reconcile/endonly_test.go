package reconcile

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
)

// TestEndOnlyServersJoinByTime drops the start and token instants of every
// other time-only server event of a simulated fleet (as a TGI error line
// without total_time logs them) and checks, against the simulator's truth,
// that they still join by time to their own request's proxy or client,
// that none joins a stranger, and that the clock intervals still hold the
// true offsets.
func TestEndOnlyServersJoinByTime(t *testing.T) {
	t.Run("sparse", func(t *testing.T) { testEndOnlyServers(t, fleetShape(20000), 0.9) })
	t.Run("dense", func(t *testing.T) {
		if testing.Short() {
			t.Skip("100k requests")
		}
		testEndOnlyServers(t, fleetDenseShape(100000), 0.5)
	})
}

// testEndOnlyServers is TestEndOnlyServersJoinByTime on cfg's fleet, where
// at least the fraction want of the end-only servers must join.
func testEndOnlyServers(t *testing.T, cfg fleet.Config, want float64) {
	f := simulateFleet(t, cfg)
	owner := map[int64]fleetRequest{} // end-only server event → its request
	for k, tr := range f.Requests {
		if tr.NoIDs && tr.Server >= 0 && k%2 == 0 {
			ev := &f.Events[tr.Server]
			ev.StartNs, ev.FirstTokenNs, ev.LastTokenNs = nil, nil, nil
			owner[int64(tr.Server)] = tr
		}
	}
	twins := cloneProxies(f, owner, 20)
	rec := Events(f.Events, f.Inputs)
	var right, wrong int
	for _, q := range rec.Requests {
		if q.ServerEvent == nil {
			continue
		}
		if twins[*q.ServerEvent] && q.ProxyEvent != nil {
			t.Errorf("server %d joined to proxy %d though two proxies fit it alike", *q.ServerEvent, *q.ProxyEvent)
		}
		tr, ok := owner[*q.ServerEvent]
		if !ok || q.ClientEvent == nil && q.ProxyEvent == nil {
			continue
		}
		// The server's own join: to the proxy holding it, else to the
		// client (a client→proxy join is judged by TestReconcileFleet).
		if q.ProxyEvent != nil && fleetEventIs(q.ProxyEvent, tr.Proxy) ||
			q.ProxyEvent == nil && fleetEventIs(q.ClientEvent, tr.Client) {
			right++
		} else {
			wrong++
		}
	}
	t.Logf("end-only servers: %d; joined rightly %d, wrongly %d", len(owner), right, wrong)
	if len(owner) < 500 {
		t.Fatalf("only %d end-only servers generated", len(owner))
	}
	if wrong > 0 {
		t.Errorf("%d end-only servers joined to another request", wrong)
	}
	if float64(right) < want*float64(len(owner)-len(twins)) {
		t.Errorf("%d of %d end-only servers joined, want ≥ %.0f%%", right, len(owner), 100*want)
	}
	checkFleetOffsets(t, f, rec)
}

// cloneProxies gives up to n of the end-only servers in owner (that went
// through a proxy) a rival: a copy of their proxy's event under another
// request id, which fits them exactly as well. It returns those servers.
func cloneProxies(f *fleetLogs, owner map[int64]fleetRequest, n int) map[int64]bool {
	twins := map[int64]bool{}
	for _, tr := range f.Requests {
		if len(twins) == n {
			break
		}
		if _, ok := owner[int64(tr.Server)]; ok && tr.Proxy >= 0 {
			ev := f.Events[tr.Proxy]
			ev.RequestID += "-twin"
			f.Events = append(f.Events, ev)
			twins[int64(tr.Server)] = true
		}
	}
	return twins
}

// TestEndOnlyBoundsOneSided checks that a joined request whose inner logged
// no start bounds the offset from below only: no upper bound, no midpoint,
// no round trip.
func TestEndOnlyBoundsOneSided(t *testing.T) {
	o := joinObs{start: 1_000, end: 9_000, has: obsHasStart | obsHasEnd, errs: &defaultErrors}
	i := joinObs{end: 8_000, has: obsHasEnd, errs: &defaultErrors}
	var b offsetBounds
	b.addBounds(&o, &i, false, false)
	if len(b.lower) != 1 || b.lower[0] > -1_000 || len(b.upper) != 0 || len(b.mids) != 0 || len(b.trips) != 0 {
		t.Errorf("bounds lower %v upper %v mids %v trips %v, want one lower ≤ −1000 and nothing else",
			b.lower, b.upper, b.mids, b.trips)
	}
	if _, ok := b.estimate(); ok {
		t.Error("an estimate from one-sided bounds only")
	}
}
