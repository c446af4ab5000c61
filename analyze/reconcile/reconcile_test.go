package reconcile

import (
	"math"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

const (
	msNs = int64(1_000_000)
	t0Ns = int64(1_700_000_000_000_000_000) // an instant in 2023, ns
)

// obsEvent returns a wall-clock event of src on host, in the format named
// (which fixes its resolution), with instants base + the given ms.
func obsEvent(src, host, format string, startMs, firstMs, endMs float64) schema.Event {
	at := func(v float64) *int64 {
		if math.IsNaN(v) {
			return nil
		}
		t := t0Ns + int64(math.Round(v*1e6))
		return &t
	}
	return schema.Event{Source: src, Host: host, Format: format, Clock: schema.ClockWall,
		StartNs: at(startMs), FirstTokenNs: at(firstMs), EndNs: at(endMs)}
}

var noInstant = math.NaN()

func clientObs(host string, s, f, e float64) schema.Event {
	return obsEvent(schema.SourceClient, host, "ttftrace-client", s, f, e)
}
func proxyObs(host string, s, e float64) schema.Event {
	return obsEvent(schema.SourceProxy, host, "nginx", s, noInstant, e)
}
func serverObs(host string, s, f, e float64) schema.Event {
	return obsEvent(schema.SourceServer, host, "otlp", s, f, e)
}

func matchingOf(t *testing.T, rec *Result, outer, inner string) Matching {
	t.Helper()
	for _, m := range rec.Matching {
		if m.Outer == outer && m.Inner == inner {
			return m
		}
	}
	t.Fatalf("no matching entry %s/%s in %+v", outer, inner, rec.Matching)
	return Matching{}
}

// TestBreakdownByHand joins one request over three hosts whose clocks are
// off by +2 s (proxy) and −1 s (server), by ids in three spellings.
//
// True times (ms after base, client clock = true): client start 0; proxy
// start 15; server start 16; queue 30, prefill 100, other 5, so server first
// token 151; client first token 151 + 17 = 168; server end 1151, proxy end
// 1152, client end 1167.
//
// Offsets (offsetLimits): client⊃proxy gives θ ≤ 2015 + 1 (nginx start
// truncated: up to 1 ms early) + 0.001 (client µs) = 2016.001 and θ ≥ 3152 −
// 1167 − 0 (a truncated nginx end is early, so no widening) − 0.001 =
// 1984.999, so the estimate is 2000.5 ms; proxy⊃server (OTLP exact) gives
// θ ≤ −984 − 2015 = −2999 and θ ≥ 151 − 3152 − 1 (nginx end) = −3002, so
// −3000.5 in [−3002, −2999]; chained, the server is 2000.5 − 3000.5 = −1000
// in [1984.999 − 3002, 2016.001 − 2999] = [−1017.001, −982.999] from the
// client. The proxy's instants, truncated to the ms, are read 0.5 ms later
// (de-biased; the offsets above do not change, as their error ranges move
// with them): on the client's clock the proxy starts at 2015.5 − 2000.5 =
// 15 and ends at 3152.5 − 2000.5 = 1152, the server starts at 16, so the
// breakdown is 15 + 1 + 30 + 100 + 5 + 17 = 168 ms, the true one.
func TestBreakdownByHand(t *testing.T) {
	c := clientObs("c", 0, 168, 1167)
	c.RequestID = "9F1C2B3A-0000-4000-8000-00000000ABCD"
	p := proxyObs("p", 2015, 3152)
	p.RequestID = "9f1c2b3a-0000-4000-8000-00000000abcd"
	s := serverObs("s", 16-1000, 151-1000, 1151-1000)
	s.ResponseID = "chatcmpl-9f1c2b3a00004000800000000000abcd"
	s.QueueNs, s.PrefillNs = reconPtr(30*msNs), reconPtr(100*msNs)
	rec := reconcileDeclared([]schema.Event{c, p, s})

	if m := matchingOf(t, rec, "client", "proxy"); m.ByID != 1 || m.Matched != 1 {
		t.Errorf("client/proxy %+v, want 1 joined by id", m)
	}
	if m := matchingOf(t, rec, "proxy", "server"); m.ByID != 1 {
		t.Errorf("proxy/server %+v, want 1 joined by id", m)
	}
	want := []ClockOffset{
		{Host: "p", Reference: "c", OffsetMs: 2000.5, LowMs: 1984.999, HighMs: 2016.001, Requests: 1, Consistent: true},
		{Host: "s", Reference: "c", OffsetMs: -1000, LowMs: -1017.001, HighMs: -982.999, Requests: 1, Consistent: true, Via: "p"},
		{Host: "s", Reference: "p", OffsetMs: -3000.5, LowMs: -3002, HighMs: -2999, Requests: 1, Consistent: true},
	}
	if len(rec.ClockOffsets) != len(want) {
		t.Fatalf("offsets %+v, want %+v", rec.ClockOffsets, want)
	}
	for k, w := range want {
		g := rec.ClockOffsets[k]
		if g.Host != w.Host || g.Reference != w.Reference || g.Via != w.Via || g.Requests != w.Requests ||
			g.Consistent != w.Consistent || !approxEq(g.OffsetMs, w.OffsetMs) || !approxEq(g.LowMs, w.LowMs) || !approxEq(g.HighMs, w.HighMs) {
			t.Errorf("offset %d = %+v, want %+v", k, g, w)
		}
	}
	if len(rec.Requests) != 1 {
		t.Fatalf("%d requests, want 1", len(rec.Requests))
	}
	q := rec.Requests[0]
	parts := []*int64{q.ClientToProxyNs, q.ProxyToServerNs, q.ServerQueueNs, q.ServerPrefillNs, q.ServerOtherNs, q.ReturnPathNs, q.ClientTTFTNs}
	for k, w := range []float64{15, 1, 30, 100, 5, 17, 168} {
		if parts[k] == nil || *parts[k] != int64(w*1e6) {
			t.Errorf("part %d = %v, want %g ms", k, parts[k], w)
		}
	}
	if q.ServerJoin != JoinID || q.ServerJoinedTo != "proxy" || q.ProxyJoin != JoinID || q.Reference != "c" {
		t.Errorf("joins %q %q %q reference %q", q.ProxyJoin, q.ServerJoin, q.ServerJoinedTo, q.Reference)
	}
	if *q.ServerStartNs != t0Ns+16*msNs || *q.ProxyEndNs != t0Ns+1152*msNs {
		t.Errorf("instants on the reference clock: server start %d, proxy end %d", *q.ServerStartNs-t0Ns, *q.ProxyEndNs-t0Ns)
	}
	// client TTFT 168 − server TTFT 135 = 33 ms.
	if d := rec.TTFTDeltas; len(d) != 1 || !approxEq(d[0], 33) {
		t.Errorf("TTFT deltas %v, want one sample of 33 ms", d)
	}
	if len(rec.Examples) != 1 || rec.Examples[0].Key != c.RequestID || len(rec.Examples[0].Bars) != 3 ||
		*rec.Examples[0].Bars[2].FirstTokenMs != 151 {
		t.Errorf("examples %+v", rec.Examples)
	}
	// The network parts for offsets anywhere in their intervals: proxy
	// from client 2000.5 in [1984.999, 2016.001] gives client→proxy
	// 15 ∓ 15.501; server from proxy −3000.5 in [−3002, −2999] gives
	// proxy→server 1 ∓ 1.5; server from client, composed through the proxy,
	// −1000 in [−1017.001, −982.999] gives the return path 17 ∓ 17.001.
	// Each holds the true part.
	b := rec.TTFTBreakdown[0]
	for k, w := range [][2]RangeMs{
		{b.ClientToProxyRangeMs, {-0.501, 30.501}},
		{b.ProxyToServerRangeMs, {-0.5, 2.5}},
		{b.ReturnPathRangeMs, {-0.001, 34.001}},
	} {
		if !approxEq(w[0].LowMs, w[1].LowMs) || !approxEq(w[0].HighMs, w[1].HighMs) {
			t.Errorf("band all, network part %d: range %+v, want %+v", k, w[0], w[1])
		}
	}
}

func approxEq(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestJoinByTimeWithoutIDs joins six requests that share no id, on hosts
// whose clocks agree, by time alone (after the offset search relates the
// hosts: every request's durations differ from the others' by more than
// searchTripNs, so each inner has one candidate and the six agree); then
// checks the offset the time joins give. Client⊃proxy bounds
// (offsetLimits: up = start gap + 1 ms nginx + 1 µs client, lo = end gap −
// 1 µs): start gaps 10, 4, 7, 6, 5, 8 give upper bounds 11.001, 5.001,
// 8.001, 7.001, 6.001, 9.001; end gaps −10, −6, −3, −4, −5, −2 give lower
// bounds −10.001, −6.001, −3.001, −4.001, −5.001, −2.001: the interval is
// [−2.001, 5.001] and the estimate 1.5 ms.
func TestJoinByTimeWithoutIDs(t *testing.T) {
	events := []schema.Event{
		clientObs("c", 0, 300, 1000), proxyObs("p", 10, 990), serverObs("s", 12, 290, 985),
		clientObs("c", 2000, 2200, 2500), proxyObs("p", 2004, 2494), serverObs("s", 2005, 2150, 2490),
		clientObs("c", 4000, 4100, 4800), proxyObs("p", 4007, 4797), serverObs("s", 4008, 4090, 4796),
		clientObs("c", 6000, 6100, 6300), proxyObs("p", 6006, 6296), serverObs("s", 6007, 6090, 6295),
		clientObs("c", 8000, 8400, 9200), proxyObs("p", 8005, 9195), serverObs("s", 8006, 8390, 9190),
		clientObs("c", 10000, 10050, 10150), proxyObs("p", 10008, 10148), serverObs("s", 10009, 10040, 10147),
	}
	rec := reconcileDeclared(events)
	for _, pair := range [][2]string{{"client", "proxy"}, {"proxy", "server"}} {
		if m := matchingOf(t, rec, pair[0], pair[1]); m.ByTime != 6 || m.Matched != 6 || m.UnmatchedInner != 0 {
			t.Errorf("%+v, want 6 joined by time", m)
		}
	}
	for k, q := range rec.Requests {
		if *q.ClientEvent != int64(3*k) || *q.ProxyEvent != int64(3*k+1) || *q.ServerEvent != int64(3*k+2) {
			t.Errorf("request %d joins events %d %d %d", k, *q.ClientEvent, *q.ProxyEvent, *q.ServerEvent)
		}
	}
	got := rec.ClockOffsets[0]
	if got.Host != "p" || got.Reference != "c" || !approxEq(got.LowMs, -2.001) || !approxEq(got.HighMs, 5.001) || !approxEq(got.OffsetMs, 1.5) {
		t.Errorf("offset %+v, want p−c 1.5 in [−2.001, 5.001]", got)
	}
}

// anchored appends to events one request that client host c and proxy host
// p join by id, 20 s after the others, so that their clocks are related and
// time joins may run: it bounds θ to [990 − 1000 − 0.001, 10 + 1.001] ms.
func anchored(events ...schema.Event) []schema.Event {
	c, p := clientObs("c", 20000, 20300, 21000), proxyObs("p", 20010, 20990)
	c.RequestID, p.RequestID = "anchor", "anchor"
	return append(events, c, p)
}

// TestAmbiguousCandidates: two proxy observations that fit one client
// equally are not guessed between, nor are two clients that fit one proxy
// equally; a clearly better candidate is taken. (Each case has one more
// request, joined by id: anchored.)
func TestAmbiguousCandidates(t *testing.T) {
	rec := reconcileDeclared(anchored(clientObs("c", 0, 300, 1000), proxyObs("p", 10, 990), proxyObs("p", 10, 990)))
	if m := matchingOf(t, rec, "client", "proxy"); m.Matched != 1 || m.Ambiguous != 1 || m.UnmatchedInner != 2 || m.UnmatchedOuter != 0 {
		t.Errorf("two equal proxies: %+v, want 1 ambiguous, 2 unmatched inner", m)
	}
	rec = reconcileDeclared(anchored(clientObs("c", 0, 300, 1000), clientObs("c", 0, 300, 1000), proxyObs("p", 10, 990)))
	if m := matchingOf(t, rec, "client", "proxy"); m.Matched != 1 || m.Ambiguous != 2 || m.UnmatchedInner != 1 {
		t.Errorf("two equal clients: %+v, want 2 ambiguous, 1 unmatched inner", m)
	}
	// Slack 20 ms against 200 ms: the second proxy is told apart.
	rec = reconcileDeclared(anchored(clientObs("c", 0, 300, 1000), proxyObs("p", 100, 900), proxyObs("p", 10, 990)))
	if m := matchingOf(t, rec, "client", "proxy"); m.Matched != 2 || m.ByTime != 1 || *rec.Requests[0].ProxyEvent != 2 {
		t.Errorf("distinct candidates: %+v %+v", m, rec.Requests)
	}
}

// TestSteppedClock: the server's clock is 100 ms ahead for 20 requests, then
// steps to 1100 ms ahead for 20 more. Each request bounds θ to within
// [θ−5.001, θ+5.001] ms (server ends 5 ms before the client, starts 5 ms
// after); trimming one bound per side (n = 40) leaves max lower
// 1094.999 > min upper 105.001, so the pair is inconsistent and the best
// estimate is the lower median of the midpoints, 100 ms.
func TestSteppedClock(t *testing.T) {
	var events []schema.Event
	for k := 0; k < 40; k++ {
		t0, theta := float64(k*1000), 100.0
		if k >= 20 {
			theta = 1100
		}
		c := clientObs("c", t0, t0+200, t0+500)
		s := serverObs("s", t0+5+theta, t0+190+theta, t0+495+theta)
		c.RequestID, s.RequestID = "r"+string(rune('A'+k)), "r"+string(rune('A'+k))
		events = append(events, c, s)
	}
	rec := reconcileDeclared(events)
	if m := matchingOf(t, rec, "client", "server"); m.ByID != 40 {
		t.Errorf("%+v, want 40 joined by id", m)
	}
	if len(rec.ClockOffsets) != 1 {
		t.Fatalf("offsets %+v", rec.ClockOffsets)
	}
	got := rec.ClockOffsets[0]
	if got.Consistent || !approxEq(got.OffsetMs, 100) || !approxEq(got.LowMs, 105.001) || !approxEq(got.HighMs, 1094.999) {
		t.Errorf("offset %+v, want inconsistent, 100 ms, [105.001, 1094.999]", got)
	}
	if !strings.Contains(strings.Join(rec.Notes, "\n"), "contradict") {
		t.Errorf("notes %q lack the contradiction", rec.Notes)
	}
}

// TestUnjoinableClocks: events on relative clocks are unmatched (Run's
// clock notes say why).
func TestUnjoinableClocks(t *testing.T) {
	c := clientObs("bench", 0, 100, 900)
	c.Clock = schema.ClockRelative
	rec := reconcileDeclared([]schema.Event{c, serverObs("s", 10, 90, 890)})
	m := matchingOf(t, rec, "client", "server")
	if m.Matched != 0 || m.UnmatchedOuter != 1 || m.UnmatchedInner != 1 || len(rec.Requests) != 0 {
		t.Errorf("%+v, %d requests", m, len(rec.Requests))
	}
}

// TestAmbiguousIDs: an id two observations of one source carry joins
// nothing; the time join then decides (the clocks related by anchored).
func TestAmbiguousIDs(t *testing.T) {
	c1, c2 := clientObs("c", 0, 300, 1000), clientObs("c", 5000, 5300, 6000)
	p1, p2 := proxyObs("p", 10, 990), proxyObs("p", 5010, 5400)
	c1.RequestID, c2.RequestID, p1.RequestID, p2.RequestID = "dup", "dup", "dup", "x"
	rec := reconcileDeclared(anchored(c1, c2, p1, p2))
	if m := matchingOf(t, rec, "client", "proxy"); m.ByID != 1 || m.ByTime != 2 {
		t.Errorf("%+v, want 2 joined by time, only the anchor by id", m)
	}
}

func TestNormalizeID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"-", ""}, {"  abc  ", "abc"},
		{"chatcmpl-3F2A9C1E-0000-4000-8000-00000000ABCD", "3f2a9c1e00004000800000000000abcd"},
		{"3f2a9c1e00004000800000000000abcd", "3f2a9c1e00004000800000000000abcd"},
		{"cmpl-1234567890ABCDEF", "1234567890abcdef"},
		{"REQ_3F2A9C1E-0000-4000-8000-00000000ABCD", "req_3f2a9c1e00004000800000000000abcd"},
		{"req_011CSHoEeqs5C35K2UUqR7Fy", "req_011CSHoEeqs5C35K2UUqR7Fy"}, // base62: case kept
		{"chatcmpl-", "chatcmpl-"},
		{"3f2a-9c1e", "3f2a-9c1e"}, // not a UUID
	} {
		if got := normalizeID(c.in); got != c.want {
			t.Errorf("normalizeID(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestUnrelatedHosts: a proxy host whose observations join nothing keeps its
// own clock, and a note says so; the joined pair still gets its offset.
func TestUnrelatedHosts(t *testing.T) {
	c, s := clientObs("c", 0, 100, 900), serverObs("s", 10, 90, 890)
	c.RequestID, s.RequestID = "a", "a"
	rec := reconcileDeclared([]schema.Event{c, s, proxyObs("q", 50000, 50100)})
	if len(rec.ClockOffsets) != 1 || rec.ClockOffsets[0].Host != "s" || rec.ClockOffsets[0].Reference != "c" {
		t.Errorf("offsets %+v", rec.ClockOffsets)
	}
	if !strings.Contains(strings.Join(rec.Notes, "\n"), "no joined request relates the clocks of q to c") {
		t.Errorf("notes %q", rec.Notes)
	}
}

// TestDirectServerKeepsOutProxy: client and server share an id, the proxy
// none; the proxy fits by time, but a client joined to its server directly
// takes a proxy only by id, so the proxy is left unjoined, not guessed.
func TestDirectServerKeepsOutProxy(t *testing.T) {
	c, s := clientObs("c", 0, 300, 1000), serverObs("s", 12, 290, 985)
	c.RequestID, s.RequestID = "r1", "r1"
	rec := reconcileDeclared([]schema.Event{c, proxyObs("p", 10, 990), s})
	if m := matchingOf(t, rec, "client", "server"); m.ByID != 1 {
		t.Errorf("client/server %+v", m)
	}
	if m := matchingOf(t, rec, "client", "proxy"); m.Matched != 0 || m.UnmatchedInner != 1 {
		t.Errorf("client/proxy %+v", m)
	}
}

// TestRateLimitedProxyHoldsNoServer: a gateway's own 429 spans 1 ms; an
// end-only server that logged tokens and no status (an OTLP span has none)
// ends inside it. Refused with 429, the request made no token, so they are
// not joined; the same proxy observation with status 200 does take it (by
// time), which shows the 429 is what refuses. Proxy and server are related
// by one request joined by id, 20 s later.
func TestRateLimitedProxyHoldsNoServer(t *testing.T) {
	for _, status := range []int32{429, 200} {
		p, s := proxyObs("p", 20000, 21000), serverObs("s", 20010, 20500, 20990)
		p.RequestID, s.RequestID = "anchor", "anchor"
		limited, endOnly := proxyObs("p", 100, 101), serverObs("s", noInstant, noInstant, 100.5)
		limited.Status, endOnly.OutputTokens = &status, reconPtr(int64(50))
		m := matchingOf(t, reconcileDeclared([]schema.Event{p, s, limited, endOnly}), "proxy", "server")
		if want := int64(boolCount(status == 200)); m.ByID != 1 || m.ByTime != want {
			t.Errorf("proxy status %d: %+v, want the anchor by id and %d by time", status, m, want)
		}
	}
}
