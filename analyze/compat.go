package analyze

// compatMetrics are the peer tools' formulas (SPEC §2's table), added under
// the peer's prefix by Options.Compat. Each reproduces the peer's figure
// from the same events; the names say whose formula it is.
var compatMetrics = map[string][]metricDef{
	"vllm": {
		// vLLM bench serve ITL: the list of gaps between consecutive
		// streamed chunks, pooled over requests, whatever each chunk
		// carried: our chunk_gap.
		{"vllm.itl", "ms", "chunk", "chunk", false, chunkGaps},
		// vLLM bench serve TPOT: (latency − ttft) / (output_len − 1), where
		// latency ends at the last chunk's arrival, one value per request
		// with more than one output token.
		{"vllm.tpot", "ms", "first_token", "last_chunk", true, one(vllmTPOT)},
	},
	"genai-perf": {
		// GenAI-Perf / AIPerf inter_token_latency: (request_latency − ttft)
		// / (output_tokens − 1), where request_latency ends at the last
		// response (our end, which includes [DONE] and usage chunks).
		{"genai-perf.inter_token_latency", "ms", "first_token", "end", true, one(genaiPerfITL)},
	},
	"guidellm": {
		// guidellm ITL: (last_token − first_token) / (output_tokens − 1)
		// per request, aggregated with weight output_tokens − 1 (every gap
		// weighs the same); the weight is applied by repeating the value.
		{"guidellm.itl", "ms", "first_token", "last_token", false, guidellmITL},
		// guidellm TPOT: (last_token − start) / output_tokens per request,
		// so it includes TTFT, aggregated with weight output_tokens.
		{"guidellm.tpot", "ms", "start", "last_token", false, guidellmTPOT},
	},
}

// vllmTPOT is (last chunk − first token) / (T − 1) in ms: vLLM's e2e ends
// at the last chunk, so without chunk times it falls back to last_token and
// then to end.
func vllmTPOT(r *request) (float64, bool) {
	last := r.lastChunk
	if !last.ok {
		last = r.last
	}
	if !last.ok {
		last = r.end
	}
	d, ok := msBetween(r.first, last)
	if !ok || r.tokens <= 1 {
		return 0, false
	}
	return d / float64(r.tokens-1), true
}

// genaiPerfITL is (end − first token) / (T − 1) in ms.
func genaiPerfITL(r *request) (float64, bool) {
	d, ok := msBetween(r.first, r.end)
	if !ok || r.tokens <= 1 {
		return 0, false
	}
	return d / float64(r.tokens-1), true
}

// guidellmITL appends our tpot, repeated output_tokens − 1 times.
func guidellmITL(r *request, dst []float64) []float64 {
	v, ok := tpot(r)
	if !ok {
		return dst
	}
	return repeat(dst, v, r.tokens-1)
}

// guidellmTPOT appends (last_token − start) / T, repeated T times.
func guidellmTPOT(r *request, dst []float64) []float64 {
	d, ok := msBetween(r.start, r.last)
	if !ok || r.tokens < 1 {
		return dst
	}
	return repeat(dst, d/float64(r.tokens), r.tokens)
}

// repeat appends v to dst n times, at most maxWeight times.
func repeat(dst []float64, v float64, n int64) []float64 {
	for range min(n, maxWeight) {
		dst = append(dst, v)
	}
	return dst
}
