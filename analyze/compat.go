package analyze

import "math"

// compatMetrics are the peer tools' formulas (SPEC §2's table), added under
// the peer's prefix by Options.Compat. Each reproduces the peer's figure
// from the same events, as the peer's code computes it (cited beside each);
// the names say whose formula it is.
//
// Token counts: where a peer counts output tokens with its tokenizer
// (GenAI-Perf, llmperf, vLLM without usage), ttftrace uses the count the
// input gives (request.tokens: the usage count, else the counted chunks or
// token ids); the figures agree whenever the two counts agree.
var compatMetrics = map[string][]metricDef{
	"vllm": {
		// vLLM bench serve ITL (vllm/benchmarks/serve.py, calculate_metrics:
		// itls += outputs[i].itl): the gaps between consecutive streamed
		// chunks, pooled over requests, whatever each chunk carried: our
		// chunk_gap.
		{"vllm.itl", "ms", "chunk", "chunk", false, 0, chunkGaps},
		// vLLM bench serve TPOT (calculate_metrics: (latency − ttft) /
		// (output_len − 1) when output_len > 1).
		{"vllm.tpot", "ms", "first_token", "last_token", true, fFirst | fLast | fEnd | fTokens, one(vllmTPOT)},
	},
	"genai-perf": {
		// GenAI-Perf request latency (genai_perf/profile_data_parser/
		// llm_profile_data_parser.py, _parse_requests: res_timestamps[-1] −
		// timestamp, after _preprocess_response removed every response
		// without content): it ends at the last content response.
		{"genai-perf.request_latency", "ms", "start", "last_chunk", true, fStart | fLast | fEnd, one(genaiPerfLatency)},
		// GenAI-Perf inter_token_latency (_parse_requests: round((req_latency
		// − ttft) / (total_output_token − 1)) in ns).
		{"genai-perf.inter_token_latency", "ms", "first_token", "last_chunk", true, fFirst | fLast | fEnd | fTokens, one(genaiPerfITL)},
		// AIPerf inter_token_latency (aiperf/metrics/types/
		// inter_token_latency_metric.py: (request_latency − ttft) /
		// (output_sequence_length − 1), request_latency ending at the last
		// response with content, openai_parsers.py dropping the others): the
		// same quotient without GenAI-Perf's rounding to whole ns.
		{"aiperf.inter_token_latency", "ms", "first_token", "last_chunk", true, fFirst | fLast | fEnd | fTokens, one(aiperfITL)},
	},
	"guidellm": {
		// guidellm ITL (benchmark.py, GenerativeTextResponseStats
		// .inter_token_latency_ms: (last_token − first_token) /
		// (output_tokens − 1)), summarized with weight output_tokens − 1
		// (guidellmWeighted).
		{"guidellm.itl", "ms", "first_token", "last_token", false, fFirst | fLast | fTokens, weightedSamples(guidellmITL)},
		// guidellm TPOT (time_per_output_token_ms: (last_token − start) /
		// output_tokens, so it includes TTFT; the last token falls back to
		// the request's end), summarized with weight output_tokens.
		{"guidellm.tpot", "ms", "start", "last_token", false, fStart | fLast | fEnd | fTokens, weightedSamples(guidellmTPOT)},
	},
	"llmperf": {
		// llmperf inter_token_latency (openai_chat_completions_client.py:
		// the sum of time_to_next_token, which runs from the request's start
		// to the last chunk with content; token_benchmark_ray.py divides it
		// by the tokenizer's count of the output text): (last content chunk
		// − start) / output tokens, TTFT included. llmperf reports seconds;
		// this is in ms.
		{"llmperf.inter_token_latency", "ms", "start", "last_chunk", true, fStart | fLast | fEnd | fTokens, one(llmperfITL)},
	},
}

// vllmTPOT is (latency − ttft) / (T − 1) in ms. latency is the recorded
// last_token (vllm-bench writes start + its latencies[i] there: on the chat
// backend of most vLLM versions the last non-[DONE] message, usage chunk
// included, as its clock moved on every such message), else the last chunk
// (where the completions backend stops its clock), else end.
func vllmTPOT(r *request) (float64, bool) {
	last := r.last
	if !last.ok {
		last = r.end
	}
	d, ok := msBetween(r.first, last)
	if !ok || r.tokens <= 1 {
		return 0, false
	}
	return d / float64(r.tokens-1), true
}

// lastContent is the instant of the last response with content: the last
// chunk, else (no chunk list: one response) the last token, else end.
func lastContent(r *request) instant {
	switch {
	case r.lastChunk.ok:
		return r.lastChunk
	case r.last.ok:
		return r.last
	}
	return r.end
}

// genaiPerfLatency is last content response − start in ms. A request known
// to have no content (0 output tokens) has none: GenAI-Perf skips a request
// whose responses were all removed.
func genaiPerfLatency(r *request) (float64, bool) {
	if noContent(r) {
		return 0, false
	}
	return msBetween(r.start, lastContent(r))
}

// noContent reports whether r is known to have carried no output token (a
// request built without a row knows nothing).
func noContent(r *request) bool {
	if r.e.c == nil {
		return false
	}
	n, ok := r.e.outputTokens()
	return ok && n == 0
}

// genaiPerfITL is (last content − first content) / (T − 1) rounded to the
// nearest ns, halves to even (Python's round), then in ms. Without token
// times (a non-streamed body, GenAI-Perf's one response) the first content
// is the last, so the figure is 0, as GenAI-Perf's.
func genaiPerfITL(r *request) (float64, bool) {
	first, last := r.first, lastContent(r)
	if !first.ok {
		first = last // one non-streamed response: its ttft is its latency
	}
	if !first.ok || !last.ok || r.tokens <= 1 || noContent(r) {
		return 0, false
	}
	ns := math.RoundToEven(float64(last.ns-first.ns) / float64(r.tokens-1))
	return ns / 1e6, true
}

// aiperfITL is (last content − first content) / (T − 1) in ms, unrounded.
func aiperfITL(r *request) (float64, bool) {
	first, last := r.first, lastContent(r)
	if !first.ok {
		first = last
	}
	if !first.ok || !last.ok || r.tokens <= 1 || noContent(r) {
		return 0, false
	}
	return float64(last.ns-first.ns) / 1e6 / float64(r.tokens-1), true
}

// llmperfITL is (last content chunk − start) / T in ms.
func llmperfITL(r *request) (float64, bool) {
	d, ok := msBetween(r.start, lastContent(r))
	if !ok || r.tokens < 1 {
		return 0, false
	}
	return d / float64(r.tokens), true
}
