package reconcile

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// TestSearchFindsOffset: proxy host p (nginx) and server host s (OTLP)
// share no id, and s's clock is 1500 ms ahead of p's. Request k starts at
// 3000k ms on p's clock; the proxy→server leg f, the server's duration D and
// the way back b (ms) are
//
//	f = 1 2 1 3 2 1 2 1, b = 1 1 2 1 3 1 2 1,
//	D = 400 900 150 1300 650 2100 275 1700 (more than 20 ms apart),
//
// so every server has one proxy of near-equal duration: its own. The search
// finds the offset, the time joins take all eight, and the bounds
// (offsetLimits) are θ ≤ f + 1500 (min 1501) and θ ≥ 1500 − b − 1 (the nginx
// end may be 1 ms early; max 1498): 1499.5 in [1498, 1501], truth 1500.
func TestSearchFindsOffset(t *testing.T) {
	f := []float64{1, 2, 1, 3, 2, 1, 2, 1}
	b := []float64{1, 1, 2, 1, 3, 1, 2, 1}
	d := []float64{400, 900, 150, 1300, 650, 2100, 275, 1700}
	var events []schema.Event
	for k := range f {
		start := float64(3000 * k)
		events = append(events, proxyObs("p", start, start+f[k]+d[k]+b[k]),
			serverObs("s", start+f[k]+1500, start+f[k]+1550, start+f[k]+d[k]+1500))
	}
	rec := reconcileDeclared(events)
	if m := matchingOf(t, rec, "proxy", "server"); m.ByTime != 8 || m.Matched != 8 {
		t.Errorf("%+v, want 8 joined by time", m)
	}
	if len(rec.ClockOffsets) != 1 {
		t.Fatalf("offsets %+v", rec.ClockOffsets)
	}
	got := rec.ClockOffsets[0]
	if got.Host != "s" || got.Reference != "p" || !got.Consistent || !approxEq(got.OffsetMs, 1499.5) ||
		!approxEq(got.LowMs, 1498) || !approxEq(got.HighMs, 1501) {
		t.Errorf("offset %+v, want s−p 1499.5 in [1498, 1501]", got)
	}
	for k, q := range rec.Requests {
		if *q.ProxyEvent != int64(2*k) || *q.ServerEvent != int64(2*k+1) {
			t.Errorf("request %d joins events %d and %d", k, *q.ProxyEvent, *q.ServerEvent)
		}
	}
}

// TestSearchRefusesUnclearOffset: six requests 1 s apart with equal
// durations (proxy 502 ms, server 500 ms) fit offsets 1500 + 1000j ms for
// every j: 6 candidate intervals agree on 1500 but 5 on 2500, not a clear
// peak, so no offset is guessed, nothing is joined by time, and a note says so.
func TestSearchRefusesUnclearOffset(t *testing.T) {
	var events []schema.Event
	for k := 0; k < 6; k++ {
		start := float64(1000 * k)
		events = append(events, proxyObs("p", start, start+502), serverObs("s", start+1501, start+1550, start+2001))
	}
	rec := reconcileDeclared(events)
	if m := matchingOf(t, rec, "proxy", "server"); m.Matched != 0 || len(rec.ClockOffsets) != 0 {
		t.Errorf("%+v, offsets %+v: want nothing joined", m, rec.ClockOffsets)
	}
	if notes := strings.Join(rec.Notes, "\n"); !strings.Contains(notes, "no clock offset between p and s found (searched ±30 s)") {
		t.Errorf("notes %q lack the failed search", notes)
	}
}

// TestEnvoyResolution: one request joined by id, true offsets 0. Envoy
// truncates START_TIME and DURATION to the ms separately: a true start of
// 100.9 ms and duration 1000.9 ms (true end 1101.8) are logged 100 and 1000,
// so the logged end 1100 is 1.8 ms early.
//
// Envoy ⊃ OTLP server (start 101.0, end 1101.5): θ ≤ 101 − 100 − 0 + 0 = 1
// (a truncated outer start is early: no widening) and θ ≥ 1101.5 − 1100 −
// 0 − 3 (Envoy's end may be up to 3 ms early) = −1.5: −0.25 in [−1.5, 1].
// Widening by 1 ms only would give θ ≥ 0.5, excluding the truth.
//
// Client (µs) ⊃ Envoy, client 0 to 1102: θ ≤ 100 − 0 + 1 (Envoy's start
// may be 1 ms early) + 0.001 = 101.001 and θ ≥ 1100 − 1102 − 0 (a truncated
// inner end is early: no widening) − 0.001 = −2.001: 49.5 in [−2.001, 101.001].
func TestEnvoyResolution(t *testing.T) {
	envoy := func() schema.Event {
		p := obsEvent(schema.SourceProxy, "p", "envoy", 100, noInstant, 1100)
		p.RequestID = "r1"
		return p
	}
	s := serverObs("s", 101, 150, 1101.5)
	s.RequestID = "r1"
	c := clientObs("c", 0, 200, 1102)
	c.RequestID = "r1"
	for _, tc := range []struct {
		events            []schema.Event
		host, ref         string
		offset, low, high float64
	}{
		{[]schema.Event{envoy(), s}, "s", "p", -0.25, -1.5, 1},
		{[]schema.Event{c, envoy()}, "p", "c", 49.5, -2.001, 101.001},
	} {
		rec := reconcileDeclared(tc.events)
		if len(rec.ClockOffsets) != 1 {
			t.Fatalf("offsets %+v", rec.ClockOffsets)
		}
		g := rec.ClockOffsets[0]
		if g.Host != tc.host || g.Reference != tc.ref || !approxEq(g.OffsetMs, tc.offset) || !approxEq(g.LowMs, tc.low) || !approxEq(g.HighMs, tc.high) {
			t.Errorf("offset %+v, want %s−%s %g in [%g, %g]", g, tc.host, tc.ref, tc.offset, tc.low, tc.high)
		}
	}
}

// TestIDKey checks idKey's packed route against ColumnsIDOf(normalizeID).
func TestIDKey(t *testing.T) {
	for _, id := range []string{
		"3F2A9C4E-1B2D-4E5F-8A9B-0C1D2E3F4A5B", "3f2a9c4e1b2d4e5f8a9b0c1d2e3f4a5b", "chatcmpl-3f2a9c4e-1b2d-4e5f-8a9b-0c1d2e3f4a5b",
		"cmpl-3F2A9C4E1B2D4E5F8A9B0C1D2E3F4A5B", "req_3F2A9C4E1B2D4E5F8A9B0C1D2E3F4A5B", "req_011CSHoEeqs5C35K2UUqR7Fy",
		"3f2a9c4e1b2d4e5f", " 3f2a9c4e1b2d4e5f8a9b0c1d2e3f4a5b ", "-", "", "chatcmpl-", "3f2a9c4e_1b2d_4e5f_8a9b_0c1d2e3f4a5b",
		"3f2a9c4e-1b2d-4e5f-8a9b-0c1d2e3f4a5-", "zz2a9c4e1b2d4e5f8a9b0c1d2e3f4a5b",
	} {
		want := normalizeID(id)
		got, ok := idKey(id)
		if ok != (want != "") || got != dataset.ColumnsIDOf(want) {
			t.Errorf("idKey(%q) = %x, %v; normalizeID gives %q", id, got, ok, want)
		}
	}
}

// FuzzIDKey checks idKey's packed route against ColumnsIDOf(normalizeID) on
// any string: a UUID or hex id in any case, with or without a vLLM prefix,
// must pack to the key of its normalized form, anything else hash to it.
func FuzzIDKey(f *testing.F) {
	for _, id := range []string{"3F2A9C4E-1B2D-4E5F-8A9B-0C1D2E3F4A5B", "chatcmpl-3f2a9c4e1b2d4e5f8a9b0c1d2e3f4a5b",
		"3f2a9c4e-1b2d-4e5f-8a9b-0c1d2e3f4a5-", "3f2a9c4e-1b2d-4e5f-8a9b-0c1d2e3f4a5g", "-", ""} {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		want := normalizeID(id)
		if got, ok := idKey(id); ok != (want != "") || got != dataset.ColumnsIDOf(want) {
			t.Errorf("idKey(%q) = %x, %v; normalizeID gives %q", id, got, ok, want)
		}
	})
}
