// Package fleet simulates an LLM serving fleet — clients, proxies and
// inference servers, each host with its own clock — and writes the logs each
// would write, in the formats ttftrace reads. It knows the truth (true
// instants, clock offsets, delays), so tests can check ttftrace against it,
// and it produces the demo samples and the benchmark data.
//
// All randomness comes from Config.Seed: the same Config gives byte-identical
// logs.
package fleet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// Host is one observer with its own clock.
type Host struct {
	Name   string
	Format string // the log format it writes: ttftrace-client, genai-perf, nginx, envoy, otlp, tgi
	Model  string // servers: the model they serve
	// OffsetNs is this host's clock minus true time.
	OffsetNs int64
}

// Config sets the size and shape of a simulated fleet.
type Config struct {
	Requests  int
	Seed      uint64
	Start     time.Time // true time of the first request
	Rate      float64   // mean requests per second (Poisson arrivals)
	MeanOut   float64   // median output tokens per request
	MaxSkew   time.Duration
	NoIDShare float64 // share of client requests sent without x-request-id and traceparent
	// Shape, when set, replaces the default topology and mix of Generate
	// with a uniform one; nil keeps them (and the logs) as they are.
	Shape *Shape
}

// Shape is a uniform fleet: clients web-1 … web-N (ttftrace-client),
// proxies edge-1 … edge-M (nginx) and servers gpu-1 … gpu-K (vLLM OTLP),
// each request on hosts drawn uniformly, with its own shares of rate
// limiting, proxy-less requests and trace ids.
type Shape struct {
	Clients, Proxies, Servers int
	// LimitedShare is the share of requests the proxy answers 429 without
	// a server (the default topology: 2%).
	LimitedShare float64
	// DirectShare is the share of the other requests that reach the server
	// with no proxy on the way (no proxy logs them).
	DirectShare float64
	// TraceShare is the share of the requests sent with an x-request-id
	// that also carry a traceparent, which proxy and server log (the
	// default topology: all of them).
	TraceShare float64
	// ClientDelay is added to each way between client and proxy (the
	// default topology: none, 1–4 ms each way).
	ClientDelay time.Duration
}

// DefaultConfig is a small fleet suited to tests and the demo.
func DefaultConfig(n int) Config {
	return Config{
		Requests:  n,
		Seed:      1,
		Start:     time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
		Rate:      4,
		MeanOut:   120,
		MaxSkew:   2 * time.Second,
		NoIDShare: 0.05,
	}
}

// Request is the truth about one request. Instants are true time, Unix ns.
type Request struct {
	Index                 int
	Seed                  uint64 // drives the per-token decode times
	Client, Proxy, Server *Host
	RequestID             string // x-request-id sent by the client; "" when none
	TraceID               string // W3C trace id sent by the client; "" when none
	ServerID              string // the engine's request id (vLLM: chatcmpl-…)
	Model                 string
	PromptTokens          int
	OutputTokens          int // tokens the server produced (after any cut)
	Status                int // status the client saw
	ErrorClass            string

	ClientStart, ProxyStart, ServerStart              int64
	ServerHeaders, ServerFirst, ServerLast, ServerEnd int64
	ProxyHeaders, ProxyFirstByte, ProxyEnd            int64
	ClientHeaders, ClientFirst, ClientEnd             int64
	QueueNs, PrefillNs, OtherNs                       int64
	// ReturnNs is the delay from server to client (server→proxy + proxy→client).
	ReturnNs, BackProxyNs int64
}

// Fleet is a simulated fleet: its hosts and the truth of every request.
type Fleet struct {
	Hosts    []*Host
	Requests []Request
}

// Generate simulates cfg.Requests requests through the default topology:
// clients web-1, web-2 (ttftrace-client JSONL) and bench-1 (GenAI-Perf);
// proxies edge-1 (nginx) and edge-2 (Envoy); servers gpu-1, gpu-2 (vLLM OTLP
// spans) and gpu-3 (TGI router log).
//
// With cfg.Shape, the hosts are the Shape's instead.
func Generate(cfg Config) *Fleet {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7474667472616365))
	skew := func() int64 {
		if cfg.MaxSkew == 0 {
			return 0
		}
		return int64((rng.Float64()*2 - 1) * float64(cfg.MaxSkew))
	}
	f := &Fleet{}
	add := func(name, format, model string) *Host {
		h := &Host{Name: name, Format: format, Model: model, OffsetNs: skew()}
		f.Hosts = append(f.Hosts, h)
		return h
	}
	var route func(r *Request)
	if cfg.Shape != nil {
		route = cfg.Shape.route(rng, add)
	} else {
		route = defaultRoute(rng, add)
	}
	t := cfg.Start.UnixNano()
	f.Requests = make([]Request, cfg.Requests)
	for i := range f.Requests {
		t += int64(rng.ExpFloat64() / cfg.Rate * 1e9)
		r := &f.Requests[i]
		r.Index, r.Seed = i, rng.Uint64()
		route(r)
		r.Model = r.Server.Model
		simulate(rng, cfg, r, t)
	}
	return f
}

// defaultRoute adds the default topology's hosts and returns what draws a
// request's client, proxy and server among them.
func defaultRoute(rng *rand.Rand, add func(name, format, model string) *Host) func(r *Request) {
	clients := []*Host{add("web-1", "ttftrace-client", ""), add("web-2", "ttftrace-client", ""), add("bench-1", "genai-perf", "")}
	proxies := []*Host{add("edge-1", "nginx", ""), add("edge-2", "envoy", "")}
	servers := []*Host{add("gpu-1", "otlp", "llama-3.1-8b-instruct"), add("gpu-2", "otlp", "llama-3.1-8b-instruct"), add("gpu-3", "tgi", "mistral-7b-instruct")}
	return func(r *Request) {
		r.Client = clients[pick(rng, []float64{0.45, 0.35, 0.2})]
		r.Proxy = proxies[rng.IntN(2)]
		if r.Client.Format == "genai-perf" {
			r.Proxy = proxies[0]
		}
		r.Server = servers[pick(rng, []float64{0.4, 0.4, 0.2})]
	}
}

// route adds s's hosts and returns what draws a request's client, proxy
// and server among them, uniformly.
func (s *Shape) route(rng *rand.Rand, add func(name, format, model string) *Host) func(r *Request) {
	hosts := func(n int, prefix, format, model string) []*Host {
		out := make([]*Host, n)
		for i := range out {
			out[i] = add(fmt.Sprintf("%s-%d", prefix, i+1), format, model)
		}
		return out
	}
	clients := hosts(s.Clients, "web", "ttftrace-client", "")
	proxies := hosts(s.Proxies, "edge", "nginx", "")
	servers := hosts(s.Servers, "gpu", "otlp", "llama-3.1-8b-instruct")
	return func(r *Request) {
		r.Client, r.Proxy, r.Server = clients[rng.IntN(len(clients))], proxies[rng.IntN(len(proxies))], servers[rng.IntN(len(servers))]
	}
}

// pick returns an index drawn with the given weights (summing to 1).
func pick(rng *rand.Rand, w []float64) int {
	x := rng.Float64()
	for i, p := range w {
		if x < p {
			return i
		}
		x -= p
	}
	return len(w) - 1
}

// lognormal draws from a log-normal with the given median and shape.
func lognormal(rng *rand.Rand, median, sigma float64) float64 {
	return median * math.Exp(sigma*rng.NormFloat64())
}

func ms(x float64) int64 { return int64(x * 1e6) }

func hexID(rng *rand.Rand, digits int) string {
	const hexd = "0123456789abcdef"
	b := make([]byte, digits)
	for i := range b {
		b[i] = hexd[rng.IntN(16)]
	}
	return string(b)
}

func uuid(rng *rand.Rand) string {
	h := hexID(rng, 32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

// simulate fills r's truth for a request the client sends at true time t.
func simulate(rng *rand.Rand, cfg Config, r *Request, t int64) {
	if r.Client.Format == "ttftrace-client" && rng.Float64() >= cfg.NoIDShare {
		r.RequestID = uuid(rng)
		if cfg.Shape == nil || rng.Float64() < cfg.Shape.TraceShare {
			r.TraceID = hexID(rng, 32)
		}
	}
	switch {
	case r.Server.Format == "tgi":
		r.ServerID = ""
	case r.RequestID != "":
		r.ServerID = "chatcmpl-" + r.RequestID
	default:
		r.ServerID = "chatcmpl-" + hexID(rng, 32)
	}
	r.PromptTokens = int(math.Min(8000, math.Max(8, lognormal(rng, 600, 0.9))))
	r.OutputTokens = int(math.Min(2000, math.Max(1, lognormal(rng, cfg.MeanOut, 0.7))))
	r.Status = 200

	toProxy := ms(1 + 3*rng.Float64())
	toServer := ms(0.3 + 0.7*rng.Float64())
	r.BackProxyNs = ms(0.3 + 0.7*rng.Float64())
	r.ReturnNs = r.BackProxyNs + ms(1+3*rng.Float64())
	if cfg.Shape != nil {
		toProxy += int64(cfg.Shape.ClientDelay)
		r.ReturnNs += int64(cfg.Shape.ClientDelay)
	}
	r.ClientStart = t
	r.ProxyStart = t + toProxy

	limited := 0.02
	if cfg.Shape != nil {
		limited = cfg.Shape.LimitedShare
	}
	if rng.Float64() < limited { // rate limited at the proxy: the server never sees it
		r.Status, r.ErrorClass, r.OutputTokens = 429, "rate_limited", 0
		r.ProxyHeaders = r.ProxyStart + ms(0.5)
		r.ProxyEnd = r.ProxyHeaders
		r.ClientHeaders = r.ProxyHeaders + (r.ReturnNs - r.BackProxyNs)
		r.ClientEnd = r.ClientHeaders
		r.Server = nil
		return
	}
	if cfg.Shape != nil && rng.Float64() < cfg.Shape.DirectShare {
		r.Proxy = nil // straight to the server: its instants are the path's, but no proxy logs them
	}
	r.ServerStart = r.ProxyStart + toServer
	r.QueueNs = ms(rng.ExpFloat64() * 15)
	if rng.Float64() < 0.05 {
		r.QueueNs += ms(200 + 1300*rng.Float64()) // a burst queued behind long prefills
	}
	r.PrefillNs = ms(8 + 0.04*float64(r.PromptTokens)*(0.8+0.4*rng.Float64()))
	r.OtherNs = ms(1 + 2*rng.Float64())
	r.ServerHeaders = r.ServerStart + ms(0.8)
	r.ServerFirst = r.ServerStart + r.QueueNs + r.PrefillNs + r.OtherNs
	if rng.Float64() < 0.005 { // engine error before the first token
		r.Status, r.ErrorClass, r.OutputTokens = 500, "server_error", 0
		r.ServerFirst = 0
		r.ServerEnd = r.ServerStart + r.QueueNs + ms(3)
		r.finish()
		return
	}
	cut := r.OutputTokens
	if rng.Float64() < 0.005 { // the user closes the stream part way
		cut = 1 + rng.IntN(r.OutputTokens)
		r.ErrorClass = "interrupted"
	}
	r.OutputTokens = cut
	r.ServerLast = r.ServerFirst
	for _, g := range r.TokenGaps() {
		r.ServerLast += g
	}
	r.ServerEnd = r.ServerLast + ms(0.3)
	r.finish()
}

// finish derives the proxy's and client's instants from the server's.
func (r *Request) finish() {
	fwd := r.ReturnNs - r.BackProxyNs
	r.ProxyHeaders = r.ServerHeaders + r.BackProxyNs
	if r.ServerFirst != 0 {
		r.ProxyFirstByte = r.ServerFirst + r.BackProxyNs
		r.ClientFirst = r.ServerFirst + r.ReturnNs
	}
	r.ProxyEnd = r.ServerEnd + r.BackProxyNs
	r.ClientHeaders = r.ProxyHeaders + fwd
	r.ClientEnd = r.ProxyEnd + fwd
	if ct := r.ClientChunkTimes(); len(ct) > 0 && ct[len(ct)-1] >= r.ClientEnd {
		r.ClientEnd = ct[len(ct)-1] + ms(0.2) // the jitter of the last chunk delays the end
	}
}

// TokenGaps returns the true server-side gaps before output tokens 2..N,
// drawn from the request's own seed so they need not be stored.
func (r *Request) TokenGaps() []int64 {
	if r.OutputTokens < 2 {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.Seed, 1))
	base := 18 + 10*rng.Float64()
	gaps := make([]int64, r.OutputTokens-1)
	for i := range gaps {
		g := lognormal(rng, base, 0.15)
		if rng.Float64() < 0.01 {
			g += 80 + 120*rng.Float64() // a decode stall (preemption, a long prefill batched in)
		}
		gaps[i] = ms(g)
	}
	return gaps
}

// TokenTimes returns the true instants each output token left the server.
func (r *Request) TokenTimes() []int64 {
	if r.ServerFirst == 0 || r.OutputTokens == 0 {
		return nil
	}
	out := make([]int64, 0, r.OutputTokens)
	t := r.ServerFirst
	out = append(out, t)
	for _, g := range r.TokenGaps() {
		t += g
		out = append(out, t)
	}
	return out
}

// logTime is, per format, the instant its log lists requests by.
var logTime = map[string]func(*Request) int64{
	"ttftrace-client": func(r *Request) int64 { return r.ClientEnd },
	"genai-perf":      func(r *Request) int64 { return r.ClientStart },
	"nginx":           func(r *Request) int64 { return r.ProxyEnd },
	"envoy":           func(r *Request) int64 { return r.ProxyEnd },
	"otlp":            func(r *Request) int64 { return r.ServerEnd },
	"tgi":             func(r *Request) int64 { return r.ServerEnd },
}

// Logged returns the requests host h's log lists, in the log's order: the
// k-th record of the log WriteHost writes is the k-th request.
func (f *Fleet) Logged(h *Host) []*Request { return f.byHost(h, logTime[h.Format]) }

// byHost returns the requests host h observed, ordered by the instant key
// gives (its log time).
func (f *Fleet) byHost(h *Host, key func(*Request) int64) []*Request {
	var out []*Request
	for i := range f.Requests {
		r := &f.Requests[i]
		if r.Client == h || r.Proxy == h || (r.Server != nil && r.Server == h) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// Host returns the host named name.
func (f *Fleet) Host(name string) (*Host, error) {
	for _, h := range f.Hosts {
		if h.Name == name {
			return h, nil
		}
	}
	return nil, fmt.Errorf("fleet: no host %q", name)
}
