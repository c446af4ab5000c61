package report

import (
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// definition explains one metric: what it measures and the instants it spans.
type definition struct {
	Metric, Meaning, Spans, Here string
}

// metricMeanings follows SPEC §2; Spans names the two instants, each on the
// observer's own clock.
var metricMeanings = []definition{
	{"ttft", "Time to first token: first chunk carrying content, reasoning or a tool call. A role-only or usage-only chunk never counts.", "start → first_token", ""},
	{"time_to_headers", "Time until response headers. Not TTFT: servers send headers before the first token.", "start → headers", ""},
	{"itl", "Inter-token latency, pooled: each gap g between content chunks, where the later chunk carries k tokens, gives k samples of g/k.", "chunk arrival → next chunk arrival", ""},
	{"chunk_gap", "Raw gaps between consecutive content chunks, one sample per chunk (vLLM bench's ITL).", "chunk arrival → next chunk arrival", ""},
	{"tpot", "Time per output token after the first: (last_token − first_token) / (output_tokens − 1), only when output_tokens > 1.", "first_token → last_token", ""},
	{"tps_user", "Tokens per second one user sees: 1000 / tpot.", "first_token → last_token", ""},
	{"e2e", "End-to-end latency of the request.", "start → end", ""},
	{"queue", "Server queue time: queued → scheduled.", "queued → scheduled", ""},
	{"prefill", "Server prefill: scheduled → first token produced.", "scheduled → first_token", ""},
	{"decode", "Server decode: first → last token produced.", "first_token → last_token", ""},
}

// definitions lists the known metrics, and any other metric the analysis
// holds, with the instants each spans in this analysis.
func definitions(a *analyze.Analysis) []definition {
	here := map[string][]string{}
	for _, m := range sortedMetrics(a.Metrics) {
		s := m.Source + ": " + spans(m)
		if p := proxySpans(a, m.Metric); m.Source == "proxy" && p != "" {
			s = "proxy: " + p
		}
		if !contains(here[m.Metric], s) {
			here[m.Metric] = append(here[m.Metric], s)
		}
	}
	var out []definition
	known := map[string]bool{}
	for _, d := range metricMeanings {
		known[d.Metric] = true
		d.Here = strings.Join(here[d.Metric], "; ")
		out = append(out, d)
	}
	extra := sortedKeys(here)
	sort.Strings(extra)
	for _, m := range extra {
		if !known[m] {
			out = append(out, definition{Metric: m, Meaning: "Added by the analysis (e.g. a --compat peer formula).",
				Spans: "—", Here: strings.Join(here[m], "; ")})
		}
	}
	return out
}

// peerMapping is one row of SPEC §2's table of peer tools' names.
type peerMapping struct{ Peer, Name, Formula, Ours string }

var peerMappings = []peerMapping{
	{"vLLM bench serve", "ITL", "pooled gaps between chunks", "chunk_gap"},
	{"vLLM bench serve", "TPOT", "(e2e − ttft) / (T − 1), e2e ends at the last chunk", "tpot"},
	{"GenAI-Perf / AIPerf", "inter_token_latency", "(request_latency − ttft) / (T − 1)", "tpot"},
	{"guidellm", "ITL", "(last − first) / (T − 1), token-weighted", "tpot, weighted by tokens"},
	{"guidellm", "TPOT", "(last − start) / T, includes TTFT", "— (no equivalent)"},
	{"llmperf", "inter_token_latency", "≈ last content time / chunks, includes TTFT", "— (no equivalent)"},
}
