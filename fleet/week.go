package fleet

import (
	"bufio"
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// WeekConfig sets the size and shape of a production week: gateways and
// engines only, no client logs, requests spread over Days with a daily
// rhythm.
type WeekConfig struct {
	Requests int
	Seed     uint64
	Start    time.Time // true time the week begins
	Days     int
	Proxies  int     // gateways: edge-1 … edge-N, nginx and Envoy in turn
	Servers  int     // engines: gpu-1 … gpu-N, vLLM OTLP, every fourth TGI
	MeanOut  float64 // median output tokens per request
	MaxSkew  time.Duration
	// NoIDShare is the share of requests that reach the gateway without
	// x-request-id and traceparent.
	NoIDShare float64
	// Part and Parts, when Parts > 1, make WriteWeek write part Part
	// (1…Parts) of the week only: the requests arriving in the Part-th
	// Parts-th of its true time (the last part also takes arrivals after
	// the week's end), each with every line it logs, as the whole week
	// writes them. See WriteWeek.
	Part, Parts int
	// State, with Parts > 1, is the file holding the simulation's state at
	// the start of a part: read when it is Part's, so the requests before
	// Part need not be simulated again, and written for Part+1 after Part.
	// Without it every part simulates the week from its start.
	State string
}

// DefaultWeek is a week of n requests through 4 gateways and 8 engines.
func DefaultWeek(n int) WeekConfig {
	return WeekConfig{Requests: n, Seed: 1, Start: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Days: 7,
		Proxies: 4, Servers: 8, MeanOut: 120, MaxSkew: 2 * time.Second, NoIDShare: 0.05}
}

// WriteWeek simulates a production week and writes every gateway's and
// engine's log into dir, plus nginx.log_format and envoy.format.json, as it
// goes: requests are simulated in arrival order and each log line waits in
// a small heap until no later request can be logged before it (a line is
// written when its request ends). Memory stays constant, whatever the
// number of requests: it holds the requests in flight, not the week.
//
// With cfg.Parts > 1 it writes only part cfg.Part, under the same file
// names: the gateway and TGI lines of the part's requests are the whole
// week's lines of those requests, in the same order; their OTLP spans are
// the whole week's spans, batched 8 to a line within the part. The parts
// are disjoint and together hold every line of the week, so they can be
// written, ingested and deleted one at a time.
func WriteWeek(dir string, cfg WeekConfig) ([]File, error) {
	files, _, err := writeWeek(dir, cfg)
	return files, err
}

// writeWeek is WriteWeek; it also returns the most lines that waited in one
// log at once, the memory the week took beyond its fixed buffers.
func writeWeek(dir string, cfg WeekConfig) (files []File, peak int, err error) {
	if cfg.Proxies < 1 || cfg.Servers < 1 || cfg.Days < 1 {
		return nil, 0, fmt.Errorf("fleet: a week needs at least one gateway, one engine and one day")
	}
	if cfg.Parts > 1 && (cfg.Part < 1 || cfg.Part > cfg.Parts) {
		return nil, 0, fmt.Errorf("fleet: part %d of %d: parts are numbered 1 to %d", cfg.Part, cfg.Parts, cfg.Parts)
	}
	if err := writeFormats(dir); err != nil {
		return nil, 0, err
	}
	src := rand.NewPCG(cfg.Seed, 0x7765656b)
	w := &weekWriter{}
	proxies, servers, err := w.open(dir, cfg, rand.New(src))
	if err != nil {
		return nil, 0, err
	}
	next, err := w.resume(cfg, src)
	if err == nil {
		next, err = w.run(cfg, src, next, proxies, servers)
	}
	if err == nil && cfg.Parts > 1 && cfg.Part < cfg.Parts && cfg.State != "" {
		err = w.saveState(cfg, next)
	}
	if err != nil {
		w.close()
		return nil, 0, err
	}
	return w.files, w.peak, w.close()
}

// run simulates the requests from state at on, writing the lines of
// those cfg's part holds, and returns the state at the next part's start
// (the week's end when there is no next part).
func (w *weekWriter) run(cfg WeekConfig, src *rand.PCG, at weekState, proxies, servers []*Host) (weekState, error) {
	rng := rand.New(src)
	client := &Host{Name: "clients", Format: "ttftrace-client"} // sends the ids; writes no log
	sim := Config{MeanOut: cfg.MeanOut, NoIDShare: cfg.NoIDShare}
	mean := float64(cfg.Days) * 86400e9 / float64(max(cfg.Requests, 1)) // ns between arrivals, on average
	from, to := cfg.partBounds()
	t := at.T
	var r Request
	for i := at.Index; i < cfg.Requests; i++ {
		before, last := *src, t
		t += int64(rng.ExpFloat64() * mean / dailyRate(t))
		if t >= to {
			return weekState{Index: i, T: last, Main: before}, nil
		}
		r = Request{Index: i, Seed: rng.Uint64(), Client: client, Proxy: proxies[rng.IntN(len(proxies))]}
		r.Server = servers[rng.IntN(len(servers))]
		r.Model = r.Server.Model
		simulate(rng, sim, &r, t)
		if t < from {
			w.lines(&r) // draws the spans' ids from their engine's generator, as writing them would
			continue
		}
		if err := w.add(&r, t); err != nil {
			return weekState{}, err
		}
	}
	return weekState{Index: cfg.Requests, T: t, Main: *src}, nil
}

// dailyRate is the request rate at true time t relative to the week's
// mean: a daily rhythm peaking at 15:00 UTC at 1.7 times the mean, and at
// 0.3 of it at 03:00.
func dailyRate(t int64) float64 {
	day := float64(t%86_400e9) / 86_400e9
	return 1 + 0.7*math.Sin(2*math.Pi*(day-0.375))
}

// writeFormats writes the log formats the gateways use.
func writeFormats(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx.log_format"), []byte(NginxLogFormat+"\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "envoy.format.json"), []byte(EnvoyLogFormat+"\n"), 0o644)
}

// weekWriter writes the logs of a week as its requests are simulated.
type weekWriter struct {
	logs  map[*Host]*weekLog
	files []File
	order []*weekLog
	// peak is the most lines that waited in one log's heap at once.
	peak int
}

// weekLog is one host's log: lines waiting for their turn, by log time.
type weekLog struct {
	h       *Host
	f       *os.File
	w       *bufio.Writer
	pending lineHeap
	seq     int64
	batch   []byte // OTLP: the spans of the line being filled
	spans   int
	rng     *rand.Rand // draws the OTLP spans' ids
	src     *rand.PCG  // rng's state
}

// open creates the gateways' and engines' logs.
func (w *weekWriter) open(dir string, cfg WeekConfig, rng *rand.Rand) (proxies, servers []*Host, err error) {
	w.logs = map[*Host]*weekLog{}
	skew := func() int64 { return int64((rng.Float64()*2 - 1) * float64(cfg.MaxSkew)) }
	models := []string{"llama-3.1-8b-instruct", "llama-3.1-70b-instruct", "mistral-7b-instruct"}
	for i := range cfg.Proxies {
		h := &Host{Name: fmt.Sprintf("edge-%d", i+1), Format: []string{"nginx", "envoy"}[i%2], OffsetNs: skew()}
		proxies = append(proxies, h)
	}
	for i := range cfg.Servers {
		h := &Host{Name: fmt.Sprintf("gpu-%d", i+1), Format: "otlp", Model: models[i%len(models)], OffsetNs: skew()}
		if i%4 == 3 {
			h.Format = "tgi"
		}
		servers = append(servers, h)
	}
	for _, h := range append(append([]*Host{}, proxies...), servers...) {
		name := h.Name + map[string]string{"nginx": ".access.log", "envoy": ".access.json", "otlp": ".spans.jsonl", "tgi": ".router.log"}[h.Format]
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			w.close()
			return nil, nil, err
		}
		src := rand.NewPCG(uint64(len(w.order)), 3)
		l := &weekLog{h: h, f: f, w: bufio.NewWriterSize(f, 1<<20), rng: rand.New(src), src: src}
		w.logs[h], w.order = l, append(w.order, l)
		w.files = append(w.files, File{Name: name, Format: h.Format, Host: h.Name})
	}
	return proxies, servers, nil
}

// add formats r's lines into its gateway's and engine's logs, after writing
// every line logged before t (no request arriving at t or later can end
// before t).
func (w *weekWriter) add(r *Request, t int64) error {
	for _, l := range w.order {
		if err := l.flush(t); err != nil {
			return err
		}
	}
	proxy, server := w.lines(r)
	p := w.logs[r.Proxy]
	p.push(r.ProxyEnd, proxy)
	w.peak = max(w.peak, len(p.pending))
	if r.Server != nil {
		s := w.logs[r.Server]
		s.push(r.ServerEnd, server)
		w.peak = max(w.peak, len(s.pending))
	}
	return nil
}

// lines formats r's gateway line and, when it reached one, its engine's
// record (an OTLP span draws its ids from the engine log's generator).
func (w *weekWriter) lines(r *Request) (proxy, server []byte) {
	if p := w.logs[r.Proxy]; p.h.Format == "nginx" {
		proxy = appendNginx(nil, r, p.h)
	} else {
		proxy = appendEnvoy(nil, r, p.h)
	}
	if r.Server == nil {
		return proxy, nil
	}
	if s := w.logs[r.Server]; s.h.Format == "tgi" {
		server = appendTGI(nil, r, s.h)
	} else {
		server = appendSpan(nil, r, s.h.OffsetNs, s.rng)
	}
	return proxy, server
}

func (l *weekLog) push(at int64, line []byte) {
	heap.Push(&l.pending, pendingLine{at, l.seq, line})
	l.seq++
}

// flush writes the pending lines logged before t, in log order.
func (l *weekLog) flush(t int64) error {
	for len(l.pending) > 0 && l.pending[0].at < t {
		line := heap.Pop(&l.pending).(pendingLine).line
		if err := l.write(line); err != nil {
			return err
		}
	}
	return nil
}

// write writes one line; OTLP spans go 8 to a line, as an exporter batches.
func (l *weekLog) write(line []byte) error {
	if l.h.Format != "otlp" {
		_, err := l.w.Write(line)
		return err
	}
	if l.spans > 0 {
		l.batch = append(l.batch, ',')
	}
	l.batch, l.spans = append(l.batch, line...), l.spans+1
	if l.spans == 8 {
		return l.endBatch()
	}
	return nil
}

// endBatch writes the OTLP spans gathered as one line.
func (l *weekLog) endBatch() error {
	if l.spans == 0 {
		return nil
	}
	b := append([]byte(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"vllm"}},{"key":"host.name","value":{"stringValue":"`), l.h.Name...)
	b = append(b, `"}}]},"scopeSpans":[{"scope":{"name":"vllm.llm_engine"},"spans":[`...)
	b = append(append(b, l.batch...), "]}]}]}\n"...)
	l.batch, l.spans = l.batch[:0], 0
	_, err := l.w.Write(b)
	return err
}

// close writes what is pending and closes every log.
func (w *weekWriter) close() error {
	var first error
	for _, l := range w.order {
		err := l.flush(math.MaxInt64)
		if err == nil {
			err = l.endBatch()
		}
		if err == nil {
			err = l.w.Flush()
		}
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// pendingLine is a formatted line waiting for its log time.
type pendingLine struct {
	at, seq int64
	line    []byte
}

// lineHeap orders pending lines by log time, then by arrival.
type lineHeap []pendingLine

func (h lineHeap) Len() int { return len(h) }
func (h lineHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h lineHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *lineHeap) Push(x any)   { *h = append(*h, x.(pendingLine)) }
func (h *lineHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
