package reconcile

import (
	"fmt"
	"math/rand/v2"

	"github.com/ttftrace/ttftrace/schema"
)

// fleetConfig describes a generated fleet: clients send requests through a
// proxy (nginx-like: instants truncated to whole ms, no model, no tokens) to
// an inference server (OTLP-like: ns instants, queue and prefill logged).
type fleetConfig struct {
	Clients, Proxies, Servers int
	Requests                  int
	RatePerSec                float64
	NoIDFraction              float64 // requests sharing no id or trace at all: only time joins them
	RateLimited               float64 // requests the proxy answers 429 without a server
	Direct                    float64 // requests that reach the server with no proxy logging them
	TraceFraction             float64 // requests whose client and server carry the trace id
	Seed                      uint64
}

// fleetRequest is the truth about one generated request: its event indices
// (-1 when absent) and its true TTFT parts in ns.
type fleetRequest struct {
	Client, Proxy, Server  int
	NoIDs, Limited, Direct bool
	Parts                  [6]int64 // client→proxy, proxy→server, queue, prefill, other, return path
	ClientTTFT             int64    // true, equal to the sum of Parts
}

// fleet is a generated event set with its truth.
type fleet struct {
	Events   []schema.Event
	Offset   map[string]int64 // host clock − true clock, ns
	Requests []fleetRequest
}

// fleetArena hands out *int64 from large slabs, so a million-request fleet does
// not make ten million small allocations.
type fleetArena struct{ slab []int64 }

func (a *fleetArena) p(v int64) *int64 {
	if len(a.slab) == cap(a.slab) {
		a.slab = make([]int64, 0, 1<<16)
	}
	a.slab = append(a.slab, v)
	return &a.slab[len(a.slab)-1]
}

// fleetGen carries the generator's state.
type fleetGen struct {
	cfg     fleetConfig
	rng     *rand.Rand
	a       fleetArena
	f       *fleet
	linkC   [][]int64 // base one-way delay client i ↔ proxy j, ns
	linkS   [][]int64 // base one-way delay proxy j ↔ server k, ns
	models  []string
	status  [2]int32
	stream  bool
	trueNow float64 // ns
}

func fleetHost(kind string, i int) string { return fmt.Sprintf("%s-%d", kind, i) }

// genFleet generates cfg's fleet. Clock offsets are drawn uniformly within
// ±2 s (clients), ±1 s (proxies) and ±3 s (servers).
func genFleet(cfg fleetConfig) *fleet {
	g := &fleetGen{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 7)),
		f:      &fleet{Offset: map[string]int64{}},
		models: []string{"meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct"},
		status: [2]int32{200, 429}, stream: true, trueNow: 1.7e18}
	for _, k := range []struct {
		kind string
		n    int
		span float64
	}{{"client", cfg.Clients, 2e9}, {"proxy", cfg.Proxies, 1e9}, {"server", cfg.Servers, 3e9}} {
		for i := 0; i < k.n; i++ {
			g.f.Offset[fleetHost(k.kind, i)] = int64((g.rng.Float64()*2 - 1) * k.span)
		}
	}
	g.linkC = g.links(cfg.Clients, cfg.Proxies, 5e6, 35e6)
	g.linkS = g.links(cfg.Proxies, cfg.Servers, 0.5e6, 2.5e6)
	g.f.Events = make([]schema.Event, 0, 3*cfg.Requests)
	for k := 0; k < cfg.Requests; k++ {
		g.request()
	}
	return g.f
}

// links draws a base one-way delay in [lo, lo+width) ns for every pair.
func (g *fleetGen) links(n, m int, lo, width float64) [][]int64 {
	out := make([][]int64, n)
	for i := range out {
		out[i] = make([]int64, m)
		for j := range out[i] {
			out[i][j] = int64(lo + g.rng.Float64()*width)
		}
	}
	return out
}

// jitter returns base plus an exponential delay of the given mean, ns.
func (g *fleetGen) jitter(base int64, mean float64) int64 {
	return base + int64(g.rng.ExpFloat64()*mean)
}

// uuid returns a fresh random UUID in canonical lowercase form.
func (g *fleetGen) uuid() string {
	hi, lo := g.rng.Uint64(), g.rng.Uint64()
	s := fmt.Sprintf("%016x%016x", hi, lo)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

func (g *fleetGen) traceID() string {
	return fmt.Sprintf("%016x%016x", g.rng.Uint64(), g.rng.Uint64()|1)
}

// request generates one request's events and truth.
func (g *fleetGen) request() {
	cfg, rng := g.cfg, g.rng
	g.trueNow += rng.ExpFloat64() * 1e9 / cfg.RatePerSec
	ci, pj, sk := rng.IntN(cfg.Clients), rng.IntN(cfg.Proxies), rng.IntN(cfg.Servers)
	t := fleetRequest{Client: -1, Proxy: -1, Server: -1,
		NoIDs: rng.Float64() < cfg.NoIDFraction, Limited: rng.Float64() < cfg.RateLimited}
	t.Direct = !t.Limited && rng.Float64() < cfg.Direct
	model := g.models[rng.IntN(len(g.models))]
	prompt := int64(100 + rng.IntN(3900))
	out := int64(20 + rng.IntN(580))
	c0 := int64(g.trueNow)
	toProxy := g.jitter(g.linkC[ci][pj], 2e6)
	p0 := c0 + toProxy
	ids := [3]string{g.uuid(), "", ""}
	ids[1], ids[2] = ids[0], "chatcmpl-"+fleetStripDashes(ids[0])
	if rng.IntN(2) == 0 { // some clients log upper-case UUIDs
		ids[0] = upperHex(ids[0])
	}
	if t.NoIDs {
		ids[1], ids[2] = fleetStripDashes(g.uuid()), "chatcmpl-"+fleetStripDashes(g.uuid())
	}
	trace := ""
	if !t.NoIDs && rng.Float64() < cfg.TraceFraction {
		trace = g.traceID()
	}
	if t.Limited {
		p1 := p0 + int64(0.3e6+rng.Float64()*1e6)
		c1 := p1 + g.jitter(g.linkC[ci][pj], 2e6)
		t.Client = g.client(ci, ids[0], trace, model, 429, prompt, nil, c0, nil, c1)
		t.Proxy = g.proxy(pj, ids[1], trace, 429, p0, p1)
		g.f.Requests = append(g.f.Requests, t)
		return
	}
	toServer := g.jitter(g.linkS[pj][sk], 0.3e6)
	s0 := p0 + toServer
	queue := int64(rng.ExpFloat64() * 40e6)
	prefill := prompt * int64(50e3+rng.IntN(50e3)) // 50–100 µs per prompt token
	other := int64(1e6 + rng.IntN(4e6))
	s1 := s0 + queue + prefill + other
	tpot := int64(10e6 + rng.IntN(30e6))
	sLast := s1 + (out-1)*tpot
	sEnd := sLast + 200e3
	back := g.jitter(g.linkS[pj][sk], 0.3e6) + g.jitter(g.linkC[ci][pj], 2e6)
	c1 := s1 + back
	pEnd := sEnd + g.jitter(g.linkS[pj][sk], 0.3e6)
	cEnd := max(pEnd+g.jitter(g.linkC[ci][pj], 2e6), c1)
	t.Parts = [6]int64{toProxy, toServer, queue, prefill, other, back}
	t.ClientTTFT = c1 - c0
	t.Client = g.client(ci, ids[0], trace, model, 200, prompt, &out, c0, &c1, cEnd)
	if !t.Direct {
		t.Proxy = g.proxy(pj, ids[1], trace, 200, p0, pEnd)
	}
	t.Server = g.server(sk, ids[2], trace, model, prompt, out, s0, s1, sLast, sEnd, queue, prefill)
	g.f.Requests = append(g.f.Requests, t)
}

func fleetStripDashes(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

func upperHex(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

// onClock returns true instant t on host h's clock truncated to res ns.
func (g *fleetGen) onClock(h string, t, res int64) int64 {
	v := t + g.f.Offset[h]
	return v - v%res
}

func (g *fleetGen) add(ev schema.Event) int {
	g.f.Events = append(g.f.Events, ev)
	return len(g.f.Events) - 1
}

// client adds a ttftrace-client event (µs instants).
func (g *fleetGen) client(i int, id, trace, model string, status int32, prompt int64, out *int64, start int64, first *int64, end int64) int {
	h := fleetHost("client", i)
	ev := schema.Event{Source: schema.SourceClient, Format: "ttftrace-client", Host: h, Clock: schema.ClockWall,
		RequestID: id, TraceID: trace, Model: model, Endpoint: "/v1/chat/completions",
		Status: &g.status[statusIndex(status)], Stream: &g.stream, PromptTokens: g.a.p(prompt),
		StartNs: g.a.p(g.onClock(h, start, 1e3)), EndNs: g.a.p(g.onClock(h, end, 1e3))}
	if status == 429 {
		ev.Error = schema.ErrorRateLimited
	}
	if out != nil {
		ev.OutputTokens, ev.OutputTokensSource = g.a.p(*out), schema.TokensCounted
	}
	if first != nil {
		ev.FirstTokenNs = g.a.p(g.onClock(h, *first, 1e3))
	}
	return g.add(ev)
}

func statusIndex(s int32) int {
	if s == 429 {
		return 1
	}
	return 0
}

// proxy adds an nginx-like event: end is $msec, the end truncated to the
// ms, and start = $msec − $request_time where nginx computes $request_time
// from its ms-truncated cached clock (ngx_http_log_request_time:
// now.msec − r->start_msec), so start is the true start truncated to the
// ms; the trace id is from a logged $http_traceparent.
func (g *fleetGen) proxy(j int, id, trace string, status int32, start, end int64) int {
	h := fleetHost("proxy", j)
	ev := schema.Event{Source: schema.SourceProxy, Format: "nginx", Host: h, Clock: schema.ClockWall,
		RequestID: id, TraceID: trace, Endpoint: "/v1/chat/completions", Status: &g.status[statusIndex(status)],
		StartNs: g.a.p(g.onClock(h, start, 1e6)), EndNs: g.a.p(g.onClock(h, end, 1e6))}
	if status == 429 {
		ev.Error = schema.ErrorRateLimited
	}
	return g.add(ev)
}

// server adds an OTLP-like server event (ns instants, usage tokens, phases).
func (g *fleetGen) server(k int, respID, trace, model string, prompt, out, start, first, last, end, queue, prefill int64) int {
	h := fleetHost("server", k)
	return g.add(schema.Event{Source: schema.SourceServer, Format: "otlp", Host: h, Clock: schema.ClockWall,
		ResponseID: respID, TraceID: trace, Model: model, Status: &g.status[0], Stream: &g.stream,
		PromptTokens: g.a.p(prompt), PromptTokensSource: schema.TokensUsage,
		OutputTokens: g.a.p(out), OutputTokensSource: schema.TokensUsage,
		StartNs: g.a.p(g.onClock(h, start, 1)), FirstTokenNs: g.a.p(g.onClock(h, first, 1)),
		LastTokenNs: g.a.p(g.onClock(h, last, 1)), EndNs: g.a.p(g.onClock(h, end, 1)),
		QueueNs: g.a.p(queue), PrefillNs: g.a.p(prefill)})
}
