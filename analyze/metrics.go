package analyze

// maxWeight caps how many times a token-weighted value is repeated for one
// request (guidellm compat metrics), so a corrupt token count cannot exhaust
// memory.
const maxWeight = 1 << 16

// metricDef is one per-request metric: its name, unit, the instants it spans
// and how one successful request contributes samples to it.
type metricDef struct {
	name, unit, from, to string
	// scalar is true when a request contributes at most one sample (the
	// metric can then be checked against an SLO per request).
	scalar bool
	// reads are the request fields samples reads: a pass drawing this
	// metric's samples resolves only these (TestMetricReads checks them).
	reads fields
	// samples appends the request's samples, in the metric's unit, to dst.
	samples func(r *request, dst []float64) []float64
}

// one adapts a (value, ok) function to metricDef.samples.
func one(f func(r *request) (float64, bool)) func(*request, []float64) []float64 {
	return func(r *request, dst []float64) []float64 {
		if v, ok := f(r); ok {
			return append(dst, v)
		}
		return dst
	}
}

// nsToMs converts an optional nanosecond duration to milliseconds.
func nsToMs(d instant) (float64, bool) {
	if !d.ok {
		return 0, false
	}
	return float64(d.ns) / 1e6, true
}

// coreMetrics are our own metrics (SPEC §2), in the order they are reported.
var coreMetrics = []metricDef{
	{"ttft", "ms", "start", "first_token", true, fStart | fFirst, one(func(r *request) (float64, bool) { return msBetween(r.start, r.first) })},
	{"time_to_headers", "ms", "start", "headers", true, fStart | fHeaders, one(func(r *request) (float64, bool) { return msBetween(r.start, r.headers) })},
	{"e2e", "ms", "start", "end", true, fStart | fEnd, one(func(r *request) (float64, bool) { return msBetween(r.start, r.end) })},
	{"tpot", "ms", "first_token", "last_token", true, fFirst | fLast | fTokens, one(tpot)},
	{"itl", "ms", "chunk", "chunk", false, 0, itlSamples},
	{"chunk_gap", "ms", "chunk", "chunk", false, 0, chunkGaps},
	{"tps_user", "tokens/s", "first_token", "last_token", true, fFirst | fLast | fTokens, one(tpsUser)},
	{"queue", "ms", "queued", "scheduled", true, 0, one(func(r *request) (float64, bool) { return nsToMs(r.e.at(&r.e.c.QueueNs)) })},
	{"prefill", "ms", "scheduled", "first_token", true, 0, one(func(r *request) (float64, bool) { return nsToMs(r.e.at(&r.e.c.PrefillNs)) })},
	{"decode", "ms", "first_token", "last_token", true, 0, one(func(r *request) (float64, bool) { return nsToMs(r.e.at(&r.e.c.DecodeNs)) })},
}

// sampleNeeds are cheap necessary conditions for a request to give a
// metric a sample: when no request of a group meets its metric's condition
// (a gateway logs no queue time), metrics skips the pass drawing none
// (TestSampleNeeds checks each on random requests).
var sampleNeeds = map[string]func(e event) bool{
	"time_to_headers": func(e event) bool { return e.c.HeadersNs.Has(e.i) },
	"e2e":             func(e event) bool { return e.c.EndNs.Has(e.i) },
	"tpot":            lastTokenKnown,
	"tps_user":        lastTokenKnown,
	"queue":           func(e event) bool { return e.c.QueueNs.Has(e.i) },
	"prefill":         func(e event) bool { return e.c.PrefillNs.Has(e.i) },
	"decode":          func(e event) bool { return e.c.DecodeNs.Has(e.i) },
	"itl":             twoChunks, // a gap is between two chunks
	"chunk_gap":       twoChunks,
}

// twoChunks reports whether e logs at least two chunks.
func twoChunks(e event) bool { return e.c.ChunkOffsetsNs.Len(e.i) > 1 }

// lastTokenKnown reports whether e logs its last token or chunks.
func lastTokenKnown(e event) bool {
	return e.c.LastTokenNs.Has(e.i) || e.c.ChunkOffsetsNs.Len(e.i) > 0
}

// tpot is (last_token − first_token) / (output_tokens − 1) in ms, for
// requests with more than one output token.
func tpot(r *request) (float64, bool) {
	d, ok := msBetween(r.first, r.last)
	if !ok || r.tokens <= 1 {
		return 0, false
	}
	return d / float64(r.tokens-1), true
}

// tpsUser is 1000 / tpot: the tokens per second one user sees.
func tpsUser(r *request) (float64, bool) {
	t, ok := tpot(r)
	if !ok || t <= 0 {
		return 0, false
	}
	return 1000 / t, true
}

// itlSamples appends the request's per-token gaps in ms: for consecutive
// chunks with arrival gap g, where the later chunk carries k tokens, k
// samples of g/k.
func itlSamples(r *request, dst []float64) []float64 {
	off, tokens := r.e.chunkOffsets(), r.e.chunkTokensList()
	n := off.Len()
	for i := 1; i < n; i++ {
		k := chunkTokens(tokens, n, i)
		g := float64(off.Gap(i)) / 1e6 / float64(k)
		for range k {
			dst = append(dst, g)
		}
	}
	return dst
}

// chunkGaps appends the raw gaps between consecutive chunks in ms.
func chunkGaps(r *request, dst []float64) []float64 {
	off := r.e.chunkOffsets()
	for i := 1; i < off.Len(); i++ {
		dst = append(dst, float64(off.Gap(i))/1e6)
	}
	return dst
}

// metricsFor returns the metrics to compute: ours, then the named peer's
// (nil compat metrics for an unknown or empty compat name).
func metricsFor(compat string) []metricDef {
	defs := append([]metricDef(nil), coreMetrics...)
	return append(defs, compatMetrics[compat]...)
}
