package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/analyze/reconcile"
	"github.com/ttftrace/ttftrace/schema"
)

// The fixture is a realistic analysis of a day of chat traffic seen by a
// client fleet, an nginx edge and two vLLM servers, with enough data for
// every chart. It is generated from a fixed seed, so it never changes.

func fp(v float64) *float64 { return &v }

func sp(s string) *string { return &s }

// lognormal draws n samples with the given median and shape.
func lognormal(r *rand.Rand, n int, median, sigma float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Round(median*math.Exp(sigma*r.NormFloat64())*100) / 100
	}
	sort.Float64s(out)
	return out
}

// quantile is type 7 on sorted xs; the fixture needs plausible figures only.
func quantile(xs []float64, q float64) float64 {
	h := q * float64(len(xs)-1)
	lo := math.Floor(h)
	if int(lo)+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[int(lo)] + (h-lo)*(xs[int(lo)+1]-xs[int(lo)])
}

func metricOf(source, metric, unit, from, to string, group map[string]string, xs []float64) analyze.Metric {
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	if group == nil {
		group = map[string]string{}
	}
	ci := map[string]analyze.Interval{}
	for _, k := range []struct {
		key string
		q   float64
	}{{"p50", .5}, {"p90", .9}, {"p95", .95}, {"p99", .99}, {"p999", .999}} {
		w := 1.96 * math.Sqrt(k.q*(1-k.q)/float64(len(xs)))
		lo, hi := k.q-w, k.q+w
		iv := analyze.Interval{}
		if lo >= 0 {
			iv[0] = fp(quantile(xs, lo))
		}
		if hi <= 1 {
			iv[1] = fp(quantile(xs, hi))
		}
		ci[k.key] = iv
	}
	return analyze.Metric{Source: source, Metric: metric, Unit: unit, From: from, To: to, Group: group,
		Count: int64(len(xs)), Mean: mean, Std: math.Sqrt(sq / float64(len(xs))), Min: xs[0],
		P50: quantile(xs, .5), P90: quantile(xs, .9), P95: quantile(xs, .95), P99: quantile(xs, .99),
		P999: quantile(xs, .999), Max: xs[len(xs)-1], CI95: ci}
}

func distributionOf(source, metric, unit string, xs []float64) analyze.Distribution {
	const bins = 40
	hi := quantile(xs, .995)
	d := analyze.Distribution{Source: source, Metric: metric, Unit: unit}
	for i := 0; i <= bins; i++ {
		d.Edges = append(d.Edges, hi*float64(i)/bins)
	}
	d.Counts = make([]int64, bins)
	for _, x := range xs {
		if b := int(x / hi * bins); b < bins {
			d.Counts[b]++
		}
	}
	for i := 0; i < 200; i++ {
		q := float64(i) / 199
		d.CDF = append(d.CDF, [2]float64{quantile(xs, q), q})
	}
	return d
}

// fixture builds the analysis; its figures come from seeded samples.
func fixture() *analyze.Analysis {
	r := rand.New(rand.NewPCG(7, 11))
	a := &analyze.Analysis{SchemaVersion: analyze.SchemaVersion,
		Options: analyze.OptionsEcho{By: []string{"model", "host"}, Window: "1h",
			SLO: map[string]float64{"ttft": 500, "tpot": 50}}}
	addLatencies(a, r)
	addGroups(a, r)
	addTime(a, r)
	addCrossSource(a)
	addQuality(a)
	addThroughput(a)
	return a
}

// addThroughput adds the whole-day throughput of each source and the
// slowest client requests. Client: 4,142 requests over 86,379 s.
func addThroughput(a *analyze.Analysis) {
	good := []int64{3650, 0, 0}
	for i, s := range a.Sources {
		t := analyze.Throughput{Source: s.Source, First: s.First, Last: s.Last, Seconds: 86379, Requests: s.Events,
			Succeeded: s.Succeeded}
		if s.Source != "proxy" { // nginx logs no tokens
			t.OutputTokens = float64(s.Succeeded) * 220
			t.OutputTokensSq = float64(s.Succeeded) * 220 * 260
		}
		t.RequestRate, t.OutputTPS = float64(t.Requests)/t.Seconds, t.OutputTokens/t.Seconds
		if s.Source == "client" {
			t.Good, t.Goodput, t.GoodShare = &good[i], fp(float64(good[i])/t.Seconds), fp(float64(good[i])/float64(t.Requests))
		}
		a.Throughput = append(a.Throughput, t)
	}
	a.ReferenceClocks = []analyze.ReferenceClock{{Host: "loadgen-1", Requests: 3890}}
	for i := 0; i < 20; i++ {
		k := float64(i)
		sr := analyze.SlowRequest{Key: fmt.Sprintf("req-%04x", 0xbe00+i), RequestID: fmt.Sprintf("req-%04x", 0xbe00+i),
			Host: "loadgen-1", Model: "Qwen/Qwen2.5-72B-Instruct", Start: fmt.Sprintf("2026-11-23T%02d:17:03.25Z", i),
			ClientTTFTMs: 3400 - 90*k}
		if i%5 != 4 { // every fifth was not joined to the server
			sr.Reference, sr.ProxyJoin, sr.ServerJoin = "loadgen-1", "id", "trace"
			sr.ServerTTFTMs, sr.ClientToProxyMs, sr.ProxyToServerMs = fp(2700-80*k), fp(9.5), fp(120+k)
			sr.ServerQueueMs, sr.ServerPrefillMs, sr.ServerOtherMs = fp(2100-80*k), fp(590), fp(10)
			sr.ReturnPathMs = fp(3400 - 90*k - 9.5 - (120 + k) - (2700 - 80*k))
		}
		a.Slowest = append(a.Slowest, sr)
	}
}

type sample struct {
	source, metric, unit, from, to string
	median, sigma                  float64
	n                              int
	dist                           bool
}

var fixtureSamples = []sample{
	{"client", "ttft", "ms", "start", "first_token", 420, 0.55, 4000, true},
	{"client", "time_to_headers", "ms", "start", "headers", 190, 0.5, 4000, false},
	{"client", "itl", "ms", "chunk", "next_chunk", 22, 0.35, 20000, true},
	{"client", "chunk_gap", "ms", "chunk", "next_chunk", 24, 0.4, 20000, false},
	{"client", "tpot", "ms", "first_token", "last_token", 23, 0.25, 4000, true},
	{"client", "tps_user", "tokens/s", "first_token", "last_token", 43, 0.25, 4000, false},
	{"client", "e2e", "ms", "start", "end", 5200, 0.5, 4000, true},
	{"proxy", "time_to_headers", "ms", "start", "headers", 160, 0.5, 4100, false},
	{"proxy", "ttft", "ms", "start", "first_token", 360, 0.5, 4100, true},
	{"proxy", "e2e", "ms", "start", "end", 5100, 0.5, 4100, true},
	{"server", "ttft", "ms", "start", "first_token", 210, 0.45, 4150, true},
	{"server", "queue", "ms", "queued", "scheduled", 25, 0.9, 4150, false},
	{"server", "prefill", "ms", "scheduled", "first_token", 150, 0.4, 4150, false},
	{"server", "decode", "ms", "first_token", "last_token", 4700, 0.5, 4150, false},
	{"server", "e2e", "ms", "start", "end", 4950, 0.5, 4150, true},
}

func addLatencies(a *analyze.Analysis, r *rand.Rand) {
	for _, s := range fixtureSamples {
		xs := lognormal(r, s.n, s.median, s.sigma)
		a.Metrics = append(a.Metrics, metricOf(s.source, s.metric, s.unit, s.from, s.to, nil, xs))
		if s.dist {
			a.Distributions = append(a.Distributions, distributionOf(s.source, s.metric, s.unit, xs))
		}
	}
	for i, src := range []string{"client", "server"} {
		ps := analyze.PositionSeries{Source: src}
		for pos := 1; pos <= 256; pos++ {
			base := 21 - 2.5*float64(i) + 6*math.Exp(-float64(pos)/12) + float64(pos)*0.012
			ps.Points = append(ps.Points, analyze.PositionPoint{Position: pos, Count: int64(4000 - pos*10),
				P50: math.Round(base*100) / 100, P90: math.Round(base*1.6*100) / 100})
		}
		a.ITLByPosition = append(a.ITLByPosition, ps)
	}
	sc := analyze.Scatter{Source: "client", X: "prompt_tokens", Y: "ttft_ms"}
	for i := 0; i < 400; i++ {
		p := math.Round(200 + 7800*r.Float64())
		sc.Points = append(sc.Points, [2]float64{p, math.Round((180+0.06*p)*math.Exp(0.3*r.NormFloat64())*10) / 10})
	}
	a.TTFTByPrompt = []analyze.Scatter{sc}
	delta := metricOf("client", "ttft_client_minus_server", "ms", "server first_token", "client first_token", nil,
		lognormal(r, 3900, 180, 0.6))
	a.TTFTDelta = &delta
}

func addGroups(a *analyze.Analysis, r *rand.Rand) {
	groups := []struct {
		key, value string
		median     float64
	}{{"model", "meta-llama/Llama-3.1-8B-Instruct", 330}, {"model", "Qwen/Qwen2.5-72B-Instruct", 610},
		{"host", "gpu-7", 400}, {"host", "gpu-9", 445}}
	for _, g := range groups {
		group := map[string]string{g.key: g.value}
		a.Metrics = append(a.Metrics,
			metricOf("client", "ttft", "ms", "start", "first_token", group, lognormal(r, 2000, g.median, 0.5)),
			metricOf("server", "ttft", "ms", "start", "first_token", group, lognormal(r, 2000, g.median*0.5, 0.45)))
		a.Errors = append(a.Errors, analyze.ErrorCount{Source: "client", Group: group, Class: "rate_limited", Count: int64(r.IntN(60))})
	}
	a.Errors = append(a.Errors,
		analyze.ErrorCount{Source: "client", Group: map[string]string{}, Class: "rate_limited", Count: 102},
		analyze.ErrorCount{Source: "client", Group: map[string]string{}, Class: "interrupted", Count: 31},
		analyze.ErrorCount{Source: "client", Group: map[string]string{}, Class: "timeout", Count: 9},
		analyze.ErrorCount{Source: "proxy", Group: map[string]string{}, Class: "rate_limited", Count: 104},
		analyze.ErrorCount{Source: "proxy", Group: map[string]string{}, Class: "server_error", Count: 12},
		analyze.ErrorCount{Source: "server", Group: map[string]string{}, Class: "server_error", Count: 12})
	a.Sources = []analyze.SourceSummary{
		{Source: "client", Events: 4142, Succeeded: 4000, Failed: 142, Formats: []string{"ttftrace-client"},
			Hosts: []string{"loadgen-1"}, Clock: "wall", First: "2026-11-23T00:00:02Z", Last: "2026-11-23T23:59:41Z"},
		{Source: "proxy", Events: 4216, Succeeded: 4100, Failed: 116, Formats: []string{"nginx"},
			Hosts: []string{"edge-1"}, Clock: "wall", First: "2026-11-23T00:00:02Z", Last: "2026-11-23T23:59:41Z"},
		{Source: "server", Events: 4162, Succeeded: 4150, Failed: 12, Formats: []string{"otlp"},
			Hosts: []string{"gpu-7", "gpu-9"}, Clock: "wall", First: "2026-11-23T00:00:02Z", Last: "2026-11-23T23:59:41Z"},
	}
}

func addTime(a *analyze.Analysis, r *rand.Rand) {
	t0 := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	mk := func(src, metric, unit string, f func(h int) analyze.Point) analyze.Series {
		s := analyze.Series{Source: src, Metric: metric, Unit: unit, Window: "1h"}
		for h := 0; h < 24; h++ {
			p := f(h)
			p.T = t0.Add(time.Duration(h) * time.Hour).Format(time.RFC3339)
			s.Points = append(s.Points, p)
		}
		return s
	}
	load := func(h int) float64 { return 1 + 0.8*math.Sin(float64(h-6)*math.Pi/12) }
	lat := func(base float64) func(h int) analyze.Point {
		return func(h int) analyze.Point {
			if h == 4 {
				return analyze.Point{Count: 0} // a window without samples: a gap
			}
			p50 := base * (0.8 + 0.3*load(h)) * (1 + 0.05*r.NormFloat64())
			return analyze.Point{Count: int64(170 * load(h)), P50: fp(math.Round(p50*10) / 10), P99: fp(math.Round(p50*3.1*10) / 10)}
		}
	}
	val := func(f func(h int) float64) func(h int) analyze.Point {
		return func(h int) analyze.Point {
			v := math.Round(f(h)*1000) / 1000
			return analyze.Point{Count: 170, Value: &v}
		}
	}
	a.Timeseries = []analyze.Series{
		mk("client", "ttft", "ms", lat(420)), mk("server", "ttft", "ms", lat(210)),
		mk("client", "itl", "ms", lat(22)),
		mk("client", "request_rate", "requests/s", val(func(h int) float64 { return 0.048 * load(h) })),
		mk("client", "output_tps", "tokens/s", val(func(h int) float64 { return 10.5 * load(h) })),
		mk("server", "concurrency", "requests", val(func(h int) float64 { return 0.25 * load(h) * load(h) })),
		mk("proxy", "output_tps", "tokens/s", func(int) analyze.Point { return analyze.Point{Value: fp(0)} }), // nginx logs no tokens: not drawn
		mk("client", "error_rate", "fraction", val(func(h int) float64 { return 0.034 * load(h) })),
		mk("client", "error_rate.rate_limited", "fraction", val(func(h int) float64 { return 0.025 * load(h) })),
		mk("client", "goodput", "requests/s", val(func(h int) float64 { return 0.044 * load(h) * (1.05 - 0.1*load(h)) })),
	}
}

func addCrossSource(a *analyze.Analysis) {
	a.Matching = []reconcile.Matching{
		{Outer: "client", Inner: "proxy", Matched: 4090, ByTrace: 0, ByID: 4052, ByTime: 38, Ambiguous: 3, UnmatchedOuter: 52, UnmatchedInner: 126},
		{Outer: "proxy", Inner: "server", Matched: 4150, ByTrace: 4150, UnmatchedOuter: 66, UnmatchedInner: 3, InnerElsewhere: 9},
		{Outer: "client", Inner: "server", Matched: 9, ByID: 9, UnmatchedOuter: 40, OuterExcluded: 4090, UnmatchedInner: 3, InnerElsewhere: 4150},
	}
	a.ClockOffsets = []reconcile.ClockOffset{
		{Host: "edge-1", Reference: "loadgen-1", OffsetMs: 3.42, LowMs: 1.9, HighMs: 4.95, Requests: 4090, Consistent: true},
		{Host: "gpu-7", Reference: "edge-1", OffsetMs: -12.8, LowMs: -13.6, HighMs: -12.0, Requests: 2071, Consistent: true},
		{Host: "gpu-9", Reference: "edge-1", OffsetMs: 41.1, LowMs: 38.2, HighMs: 44.0, Requests: 2079, Consistent: false},
		{Host: "gpu-7", Reference: "loadgen-1", OffsetMs: -9.38, LowMs: -11.7, HighMs: -7.05, Requests: 2071, Consistent: true, Via: "edge-1"},
	}
	// Parts add up to ClientTTFTMs: all 6.1+41.7+31.2+168.9+4.3+198.4 = 450.6;
	// p50 5.8+36.2+18.0+151.4+3.9+186.7 = 402.0; p90 6.9+58.8+92.5+224.0+5.1+311.5 = 698.8;
	// p99 9.7+120.3+610.2+301.8+8.8+553.6 = 1604.4.
	a.TTFTBreakdown = []reconcile.BreakdownBand{
		{Band: "all", Requests: 3890, ClientToProxyMs: 6.1, ProxyToServerMs: 41.7, ServerQueueMs: 31.2, ServerPrefillMs: 168.9, ServerOtherMs: 4.3, ReturnPathMs: 198.4, ClientTTFTMs: 450.6},
		{Band: "p50", Requests: 389, ClientToProxyMs: 5.8, ProxyToServerMs: 36.2, ServerQueueMs: 18.0, ServerPrefillMs: 151.4, ServerOtherMs: 3.9, ReturnPathMs: 186.7, ClientTTFTMs: 402.0},
		{Band: "p90", Requests: 78, ClientToProxyMs: 6.9, ProxyToServerMs: 58.8, ServerQueueMs: 92.5, ServerPrefillMs: 224.0, ServerOtherMs: 5.1, ReturnPathMs: 311.5, ClientTTFTMs: 698.8},
		{Band: "p99", Requests: 39, ClientToProxyMs: 9.7, ProxyToServerMs: 120.3, ServerQueueMs: 610.2, ServerPrefillMs: 301.8, ServerOtherMs: 8.8, ReturnPathMs: 553.6, ClientTTFTMs: 1604.4},
	}
	// The network parts' ranges for offsets anywhere in their intervals:
	// edge-1 3.42 in [1.9, 4.95] moves client → proxy by −1.53 … +1.52,
	// gpu-7 −12.8 in [−13.6, −12.0] proxy → server by ±0.8, gpu-7 from
	// loadgen-1 −9.38 in [−11.7, −7.05] the return path by −2.33 … +2.32.
	for k := range a.TTFTBreakdown {
		b := &a.TTFTBreakdown[k]
		b.ClientToProxyRangeMs = reconcile.RangeMs{LowMs: b.ClientToProxyMs - 1.53, HighMs: b.ClientToProxyMs + 1.52}
		b.ProxyToServerRangeMs = reconcile.RangeMs{LowMs: b.ProxyToServerMs - 0.8, HighMs: b.ProxyToServerMs + 0.8}
		b.ReturnPathRangeMs = reconcile.RangeMs{LowMs: b.ReturnPathMs - 2.33, HighMs: b.ReturnPathMs + 2.32}
	}
	for i := 0; i < 3; i++ {
		k := float64(i)
		a.Examples = append(a.Examples, reconcile.Timeline{Key: fmt.Sprintf("req-%04x", 0xbe00+i), Bars: []reconcile.TimelineSpan{
			{Source: "client", Host: "loadgen-1", StartMs: 0, FirstTokenMs: fp(1450 + 200*k), EndMs: fp(7800 + 500*k)},
			{Source: "proxy", Host: "edge-1", StartMs: 4.1, FirstTokenMs: fp(1310 + 200*k), EndMs: fp(7770 + 500*k)},
			{Source: "server", Host: "gpu-7", StartMs: 48.3, FirstTokenMs: fp(1120 + 200*k), EndMs: fp(7710 + 500*k)},
		}})
	}
	a.Examples[2].Bars[1].FirstTokenMs = nil // nginx logs no first token
}

func addQuality(a *analyze.Analysis) {
	a.Inputs = []schema.InputStats{
		{Path: "logs/client/loadgen-1.jsonl", Format: "ttftrace-client", Host: "loadgen-1", Read: 4150, Records: 4142, Skipped: 2, Rejected: 6, Clock: "wall",
			RejectsByReason: map[string]int64{"invalid json": 5, "bad timestamp": 1}},
		{Path: "logs/edge/access.log.1.gz", Format: "nginx", Host: "edge-1", Read: 4230, Records: 4216, Duplicates: 3, Skipped: 0, Rejected: 11, Truncated: true, Clock: "wall",
			RejectsByReason: map[string]int64{"field count": 11}},
		{Path: "logs/gpu/traces.json", Format: "otlp", Host: "gpu-7", Read: 4162, Records: 4162, Clock: "wall"},
		{Path: "logs/gpu/old.json.zst", Format: "", Host: "", Error: sp("zstd: invalid header")},
	}
	a.RejectsByReason = map[string]int64{"invalid json": 5, "bad timestamp": 1, "field count": 11}
	a.Notes = []string{"gpu-9's clock offset to edge-1 is inconsistent: its bounds contradict each other (a clock step?); its requests were left out of the TTFT breakdown.",
		"logs/edge/access.log.1.gz ended early (truncated gzip); 4,216 records before the break were kept."}
}

// slowerFixture is the fixture a week later: server TTFT 30% slower with
// tight intervals (a real regression), client tokens/s 10% faster, client
// failures up from 142 to 190 of 4,142 requests, and 10% fewer requests.
func slowerFixture() *analyze.Analysis {
	a := fixture()
	a.Sources[0].Failed, a.Sources[0].First, a.Sources[0].Last = 190, "2026-11-30T00:00:05Z", "2026-11-30T23:59:12Z"
	a.Throughput[0].RequestRate *= 0.9
	for i := range a.Metrics {
		m := &a.Metrics[i]
		switch {
		case m.Source == "server" && m.Metric == "ttft" && len(m.Group) == 0:
			scaleMetric(m, 1.3)
		case m.Metric == "tps_user":
			scaleMetric(m, 1.1)
		}
	}
	return a
}

func scaleMetric(m *analyze.Metric, f float64) {
	m.Mean, m.Min, m.Max = m.Mean*f, m.Min*f, m.Max*f
	m.P50, m.P90, m.P95, m.P99, m.P999 = m.P50*f, m.P90*f, m.P95*f, m.P99*f, m.P999*f
	ci := map[string]analyze.Interval{}
	for k, iv := range m.CI95 {
		var out analyze.Interval
		for j, b := range iv {
			if b != nil {
				out[j] = fp(*b * f)
			}
		}
		ci[k] = out
	}
	m.CI95 = ci
}
