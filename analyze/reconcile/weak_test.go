package reconcile

import (
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestPerRunEndpointBreaksTiesOnly reproduces issue 15's class A: clients
// whose format sets the endpoint per run (GenAI-Perf's document endpoint,
// "/v1/chat/completions") and proxies logging the path each request was
// sent to ("/v1/completions"), on fleetShape (10% of requests share
// no id, so only time joins them). Declared per run, the endpoint no longer
// refuses a time fit: every request that reached a proxy joins its client
// to the right proxy, and none joins a wrong one. Without the declaration
// (the endpoint taken as per request) the id-less requests stay unjoined,
// which the test also checks so that it can tell the two apart.
func TestPerRunEndpointBreaksTiesOnly(t *testing.T) {
	f := simulateFleet(t, fleetShape(20000))
	for k := range f.Events {
		if ev := &f.Events[k]; ev.Source == schema.SourceProxy {
			ev.Endpoint = "/v1/completions"
		}
	}
	events, inputs := f.Events, slices.Clone(f.Inputs)
	strict := clientProxyJoins(t, f, Events(events, inputs))
	for k := range inputs {
		if inputs[k].Format == "ttftrace-client" {
			inputs[k].PerRunFields = []string{"endpoint"}
		}
	}
	weak := clientProxyJoins(t, f, Events(events, inputs))
	t.Logf("client→proxy of %d requests reaching a proxy (%d with no id): endpoint per request: %d right, %d wrong, "+
		"%d id-less right; per run: %d right, %d wrong, %d id-less right",
		weak.reached, weak.noIDs, strict.right, strict.wrong, strict.noIDsRight, weak.right, weak.wrong, weak.noIDsRight)
	if weak.wrong != 0 || float64(weak.right) < 0.995*float64(weak.reached) {
		t.Errorf("endpoint per run: %d of %d right, %d wrong; want ≥ 99.5%% right, none wrong", weak.right, weak.reached, weak.wrong)
	}
	if strict.noIDsRight > strict.noIDs/10 {
		t.Errorf("endpoint per request joined %d of %d id-less requests: the fleet does not reproduce class A", strict.noIDsRight, strict.noIDs)
	}
}

// TestRoundTripBelowLowQuantile reproduces issue 15's class B: id-less
// requests whose client→proxy round trip (client duration − proxy
// duration) is far below the host pair's 1% quantile, 1–2 ms where the
// links give at least 22 ms (fleetShape), though still physically
// possible. They are joined, to the right proxy. (Requests that failed
// are left out: an interrupted stream's client logs 200 where its proxy
// logs 499, which no time join takes.)
func TestRoundTripBelowLowQuantile(t *testing.T) {
	f := simulateFleet(t, fleetShape(20000))
	var short []fleetRequest
	for _, tr := range f.Requests {
		if !tr.NoIDs || tr.Failed || tr.Proxy < 0 || len(short) == 40 {
			continue
		}
		c, p := &f.Events[tr.Client], &f.Events[tr.Proxy]
		shift := f.Offset[c.Host] - f.Offset[p.Host] // proxy clock → client clock
		// The proxy's true start lies in [logged, logged + 1 ms) (truncated),
		// its true end likewise: the client starts 0.5 ms before the
		// earliest and ends 0.5 ms after the latest.
		*c.StartNs = *p.StartNs + shift - 500_000
		*c.EndNs = *p.EndNs + shift + 1_500_000
		if c.FirstTokenNs != nil && *c.FirstTokenNs > *c.EndNs {
			continue
		}
		short = append(short, tr)
	}
	rec := Events(f.Events, f.Inputs)
	byClient := map[int64]*ReconciledRequest{}
	for k := range rec.Requests {
		if q := &rec.Requests[k]; q.ClientEvent != nil {
			byClient[*q.ClientEvent] = q
		}
	}
	right := 0
	for _, tr := range short {
		if q := byClient[int64(tr.Client)]; q != nil && fleetEventIs(q.ProxyEvent, tr.Proxy) {
			right++
		}
	}
	t.Logf("%d of %d requests with a 1–2 ms round trip joined to their proxy", right, len(short))
	if len(short) < 30 || right != len(short) {
		t.Errorf("%d of %d short round trips joined right", right, len(short))
	}
	if w := clientProxyJoins(t, f, rec); w.wrong != 0 {
		t.Errorf("%d wrong client→proxy joins", w.wrong)
	}
}

// proxyJoinCounts counts, over the requests that reached a proxy, the
// client→proxy joins that are right and wrong by the fleet's truth.
type proxyJoinCounts struct{ reached, right, wrong, noIDs, noIDsRight int }

func clientProxyJoins(t *testing.T, f *fleetLogs, rec *Result) proxyJoinCounts {
	t.Helper()
	byClient := map[int64]*ReconciledRequest{}
	for k := range rec.Requests {
		if q := &rec.Requests[k]; q.ClientEvent != nil {
			byClient[*q.ClientEvent] = q
		}
	}
	var n proxyJoinCounts
	for _, tr := range f.Requests {
		q := byClient[int64(tr.Client)]
		if q != nil && q.ProxyEvent != nil && !fleetEventIs(q.ProxyEvent, tr.Proxy) {
			n.wrong++
		}
		if tr.Proxy < 0 {
			continue
		}
		n.reached++
		n.noIDs += int(boolCount(tr.NoIDs))
		if q != nil && fleetEventIs(q.ProxyEvent, tr.Proxy) {
			n.right++
			n.noIDsRight += int(boolCount(tr.NoIDs))
		}
	}
	return n
}
