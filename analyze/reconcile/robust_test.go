package reconcile

import (
	"math/rand/v2"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestReconcileOddInput feeds events with any subset of instants, ids,
// statuses and token counts missing, unknown sources and clocks, hosts
// shared between sources, and instants in any order; Events must not
// panic, and the client/proxy counts must add up: every client event is
// matched, ambiguous or unmatched, and every proxy event matched or
// unmatched.
func TestReconcileOddInput(t *testing.T) {
	if rec := Events(nil, nil); len(rec.Matching) != 0 || len(rec.Requests) != 0 || rec.TTFTDeltas != nil {
		t.Errorf("no events: %+v", rec)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	sources := []string{schema.SourceClient, schema.SourceProxy, schema.SourceServer, "other"}
	clocks := []string{schema.ClockWall, schema.ClockWall, schema.ClockSteady, schema.ClockRelative}
	formats := []string{"nginx", "otlp", "ttftrace-client", ""}
	maybe := func(v int64) *int64 {
		if rng.IntN(4) == 0 {
			return nil
		}
		return &v
	}
	for round := 0; round < 50; round++ {
		events := make([]schema.Event, 200)
		for k := range events {
			t0 := int64(rng.IntN(2000)) * msNs
			st := int32(200 + 100*rng.IntN(4))
			events[k] = schema.Event{Source: sources[rng.IntN(4)], Clock: clocks[rng.IntN(4)],
				Format: formats[rng.IntN(4)], Host: string(rune('a' + rng.IntN(3))),
				RequestID: []string{"", "-", "x", "y", "chatcmpl-x"}[rng.IntN(5)],
				TraceID:   []string{"", "4bf92f3577b34da6a3ce929d0e0e4736"}[rng.IntN(2)],
				Model:     []string{"", "m", "org/m", "n"}[rng.IntN(4)], Status: &st,
				StartNs: maybe(t0), FirstTokenNs: maybe(t0 + int64(rng.IntN(600)-100)*msNs),
				EndNs: maybe(t0 + int64(rng.IntN(900)-100)*msNs), QueueNs: maybe(int64(rng.IntN(50)) * msNs),
				OutputTokens: maybe(int64(rng.IntN(30)))}
		}
		rec := Events(events, nil)
		var clients, proxies int64
		for _, ev := range events {
			clients += boolCount(ev.Source == schema.SourceClient)
			proxies += boolCount(ev.Source == schema.SourceProxy)
		}
		for _, m := range rec.Matching {
			if m.Outer == "client" && m.Inner == "proxy" &&
				(m.Matched+m.Ambiguous+m.UnmatchedOuter != clients || m.Matched+m.UnmatchedInner != proxies) {
				t.Fatalf("round %d: %+v with %d clients, %d proxies", round, m, clients, proxies)
			}
		}
		for _, q := range rec.Requests {
			if q.ReturnPathNs != nil {
				sum := *q.ClientToProxyNs + *q.ProxyToServerNs + *q.ServerOtherNs + *q.ReturnPathNs
				for _, p := range []*int64{q.ServerQueueNs, q.ServerPrefillNs} {
					if p != nil {
						sum += *p
					}
				}
				if sum != *q.ClientTTFTNs {
					t.Fatalf("round %d: parts sum %d, client TTFT %d", round, sum, *q.ClientTTFTNs)
				}
			}
		}
	}
}
