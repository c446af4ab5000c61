package ingest

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// Span names of the client instrumentations' streaming events.
const (
	// otlpFirstTokenEvent is OpenInference's event at the first streamed token.
	otlpFirstTokenEvent = "First Token Stream Event"
	// otlpChunkEvent is OpenLLMetry's event at every streamed chunk.
	otlpChunkEvent = "llm.content.completion.chunk"
)

// otlpEvent maps a span to an event; otherwise it returns a skip reason, or
// a reject reason and detail.
func otlpEvent(sp *otlpSpan, host string) (ev *schema.Event, skip, reason, detail string) {
	source, skip := otlpSource(sp)
	if skip != "" {
		return nil, skip, "", ""
	}
	if sp.start == nil {
		return nil, "", "missing start time", "span " + truncateDetail(sp.name)
	}
	ev = &schema.Event{Source: source, Format: "otlp", Host: otlpHost(sp.resource, host), Clock: schema.ClockWall,
		TraceID: sp.traceID, SpanID: sp.spanID, StartNs: ptr(*sp.start)}
	if reason, detail = otlpCommon(ev, sp); reason == "" {
		if source == schema.SourceServer {
			reason, detail = otlpServerEvent(ev, sp)
		} else {
			reason, detail = otlpClientEvent(ev, sp)
		}
	}
	if reason != "" {
		return nil, "", reason, detail
	}
	return ev, "", "", ""
}

// otlpSource decides a span's observer: SERVER spans are the server's,
// CLIENT spans the client's; INTERNAL (or unspecified) LLM spans, which
// OpenInference and OpenLLMetry write for the client call, are the client's
// unless they carry the engines' gen_ai.latency.* attributes. Spans without
// gen_ai.* or llm.* attributes, and LLM-framework spans that are not a model
// request (OpenInference CHAIN/TOOL/EMBEDDING…, gen_ai.operation.name
// embeddings/execute_tool…), are skipped.
func otlpSource(sp *otlpSpan) (string, string) {
	if !otlpIsLLM(sp.attrs) {
		return "", "not an LLM span"
	}
	switch {
	case sp.kind == "server":
		return schema.SourceServer, ""
	case sp.kind == "client":
		return schema.SourceClient, ""
	case otlpHasPrefix(sp.attrs, "gen_ai.latency."):
		return schema.SourceServer, ""
	}
	return schema.SourceClient, ""
}

// otlpIsLLM reports whether span attributes describe an LLM request.
func otlpIsLLM(a map[string]any) bool {
	if k, ok := a["openinference.span.kind"].(string); ok {
		return strings.EqualFold(k, "LLM")
	}
	if op, ok := a["gen_ai.operation.name"].(string); ok {
		switch op {
		case "chat", "text_completion", "generate_content", "completion":
		default:
			return false
		}
	}
	if t, ok := a["llm.request.type"].(string); ok && t != "chat" && t != "completion" {
		return false
	}
	return otlpHasPrefix(a, "gen_ai.") || otlpHasPrefix(a, "llm.")
}

func otlpHasPrefix(a map[string]any, prefix string) bool {
	for k := range a {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// otlpHost returns the resource's host.name, else service.instance.id, else fallback.
func otlpHost(resource map[string]any, fallback string) string {
	if h := otlpString(resource, "host.name", "service.instance.id"); h != "" {
		return h
	}
	return fallback
}

// otlpServerEvent sets the instants of a vLLM or SGLang llm_request span.
// Both engines start the span at the request's arrival (vLLM:
// start_time=arrival_time in OutputProcessor.do_tracing) and give latencies
// in seconds as attributes (vllm/tracing.py SpanAttributes; SGLang
// APIServerReqTimeStats.convert_to_gen_ai_span_attrs):
//
//   - first_token = start + gen_ai.latency.time_to_first_token
//   - end = start + gen_ai.latency.e2e. vLLM ends the span when it exports
//     it, after the request finished, so e2e is trusted over the span's end,
//     which is used only when e2e is absent.
//   - queue = gen_ai.latency.time_in_queue (vLLM: queued → scheduled)
//   - prefill = gen_ai.latency.time_in_model_prefill (vLLM: scheduled →
//     first token; SGLang: dispatched → first token, which includes queueing)
//   - decode = gen_ai.latency.time_in_model_decode (first → last token), and
//     last_token = first_token + decode
//   - inference = gen_ai.latency.time_in_model_inference
func otlpServerEvent(ev *schema.Event, sp *otlpSpan) (string, string) {
	keys := []string{"time_to_first_token", "e2e", "time_in_queue", "time_in_model_prefill",
		"time_in_model_decode", "time_in_model_inference"}
	d := make([]*int64, len(keys))
	for i, k := range keys {
		v, bad := otlpSeconds(sp.attrs, "gen_ai.latency."+k)
		if bad {
			return "bad duration", fmt.Sprintf("gen_ai.latency.%s=%v", k, sp.attrs["gen_ai.latency."+k])
		}
		d[i] = v
	}
	start := *ev.StartNs
	if d[0] != nil {
		ev.FirstTokenNs = ptr(start + *d[0])
	}
	switch {
	case d[1] != nil:
		ev.EndNs = ptr(start + *d[1])
	case sp.end != nil:
		ev.EndNs = ptr(*sp.end)
	}
	ev.QueueNs, ev.PrefillNs, ev.DecodeNs, ev.InferenceNs = d[2], d[3], d[4], d[5]
	if ev.FirstTokenNs != nil && ev.DecodeNs != nil {
		ev.LastTokenNs = ptr(*ev.FirstTokenNs + *ev.DecodeNs)
	}
	return "", ""
}

// otlpClientEvent sets the instants of an LLM client span: start and end
// are the span's. first_token is, in this order, OpenInference's "First Token
// Stream Event", start + gen_ai.response.time_to_first_chunk (seconds), or
// the first OpenLLMetry chunk event ("llm.content.completion.chunk"); the
// chunk events also give the chunk offsets. attrs["first_token_from"] names
// the source (first_token_event, time_to_first_chunk, chunk_event).
//
// All three mark the first streamed chunk, not a chunk known to carry
// content: OpenInference adds its event on the first chunk it iterates
// (openinference-instrumentation-openai _Stream._process_chunk), and an
// OpenAI-compatible server's first chunk is usually role-only. vLLM and
// OpenAI send that role chunk together with the first content chunk, so the
// error is small there; where chunk events say their type (OpenLLMetry's
// Anthropic instrumentation sets chunk.type), only content_block_delta
// chunks count and the first token is exact.
func otlpClientEvent(ev *schema.Event, sp *otlpSpan) (string, string) {
	start := *ev.StartNs
	if sp.end != nil {
		ev.EndNs = ptr(*sp.end)
	}
	from := ""
	for _, e := range sp.events {
		switch {
		case e.at == nil:
		case e.name == otlpFirstTokenEvent && from == "":
			ev.FirstTokenNs, from = ptr(*e.at), "first_token_event"
		case e.name == otlpChunkEvent && otlpContentChunk(e.attrs):
			ev.ChunkOffsetsNs = append(ev.ChunkOffsetsNs, *e.at-start)
		}
	}
	slices.Sort(ev.ChunkOffsetsNs)
	const ttfc = "gen_ai.response.time_to_first_chunk"
	v, bad := otlpSeconds(sp.attrs, ttfc)
	switch {
	case bad:
		return "bad duration", fmt.Sprintf("%s=%v", ttfc, sp.attrs[ttfc])
	case from == "" && v != nil:
		ev.FirstTokenNs, from = ptr(start+*v), "time_to_first_chunk"
	case from == "" && len(ev.ChunkOffsetsNs) > 0:
		ev.FirstTokenNs, from = ptr(start+ev.ChunkOffsetsNs[0]), "chunk_event"
	}
	if from != "" {
		ev.Attrs["first_token_from"] = from
	}
	if ev.Stream == nil && (ev.FirstTokenNs != nil || len(ev.ChunkOffsetsNs) > 0) {
		ev.Stream = ptr(true)
	}
	return "", ""
}

// otlpContentChunk reports whether a chunk event may carry content: true
// unless its chunk.type names a non-content Anthropic stream event.
func otlpContentChunk(a map[string]any) bool {
	t, ok := a["chunk.type"].(string)
	return !ok || t == "content_block_delta"
}

// otlpCommon sets the ids, model, endpoint, status, error class, token
// counts and attributes shared by server and client spans.
func otlpCommon(ev *schema.Event, sp *otlpSpan) (string, string) {
	a := sp.attrs
	ev.RequestID = otlpString(a, "gen_ai.request.id")
	ev.ResponseID = otlpString(a, "gen_ai.response.id")
	if ev.Source == schema.SourceServer {
		ev.Model = otlpString(a, "gen_ai.response.model", "gen_ai.request.model")
	} else {
		ev.Model = otlpString(a, "gen_ai.request.model", "llm.model_name", "gen_ai.response.model")
	}
	ev.Endpoint = otlpEndpoint(a)
	status, key, bad := otlpInt(a, "http.response.status_code", "http.status_code")
	if bad {
		return "bad status", fmt.Sprintf("%s=%v", key, a[key])
	}
	if reason, detail := otlpTokens(ev, a); reason != "" {
		return reason, detail
	}
	if reason, detail := otlpOutcome(ev, sp, status); reason != "" {
		return reason, detail
	}
	if b, ok := a["gen_ai.request.stream"].(bool); ok {
		ev.Stream = ptr(b)
	} else if b, ok := a["llm.is_streaming"].(bool); ok {
		ev.Stream = ptr(b)
	}
	ev.Attrs = otlpEventAttrs(sp)
	return "", ""
}

// otlpTokens sets the token counts the span reports (provenance usage):
// gen_ai.usage.input_tokens / prompt_tokens or OpenInference's
// llm.token_count.prompt, and the output counterparts.
func otlpTokens(ev *schema.Event, a map[string]any) (string, string) {
	counts := []struct {
		dst  **int64
		src  *string
		keys []string
	}{
		{&ev.PromptTokens, &ev.PromptTokensSource, []string{"gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"}},
		{&ev.OutputTokens, &ev.OutputTokensSource, []string{"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"}},
	}
	for _, c := range counts {
		v, key, bad := otlpInt(a, c.keys...)
		if bad {
			return "bad token count", fmt.Sprintf("%s=%v", key, a[key])
		}
		if *c.dst = v; v != nil {
			*c.src = schema.TokensUsage
		}
	}
	return "", ""
}

// otlpEndpoint returns the URL path of url.path, http.route or http.target,
// else the path of url.full or http.url, else "".
func otlpEndpoint(a map[string]any) string {
	if p := otlpString(a, "url.path", "http.route", "http.target"); p != "" {
		return EndpointPath(p)
	}
	if u, err := url.Parse(otlpString(a, "url.full", "http.url")); err == nil {
		return u.Path
	}
	return ""
}

// otlpOutcome sets the status, error class and completion: a span with
// status code ERROR or an HTTP status ≥ 400 failed; its class comes from
// the HTTP status, else error.type naming a timeout, else server_error.
func otlpOutcome(ev *schema.Event, sp *otlpSpan, status *int64) (string, string) {
	code := 0
	if status != nil {
		if *status > 999 {
			return "bad status", strconv.FormatInt(*status, 10)
		}
		code = int(*status)
		ev.Status = ptr(int32(code))
	}
	failed := sp.failed || code >= 400
	ev.Completed = ptr(!failed)
	switch {
	case !failed:
	case code >= 400:
		ev.Error = ErrorClass(code)
	case strings.Contains(strings.ToLower(otlpString(sp.attrs, "error.type")), "timeout"):
		ev.Error = schema.ErrorTimeout
	default:
		ev.Error = schema.ErrorServer
	}
	return "", ""
}

// otlpEventAttrs keeps the span name, service, LLM system and finish
// reasons; nothing else of the span (no prompt or completion text).
func otlpEventAttrs(sp *otlpSpan) map[string]string {
	out := map[string]string{}
	if sp.name != "" {
		out["span_name"] = sp.name
	}
	if s := otlpString(sp.resource, "service.name"); s != "" {
		out["service"] = s
	}
	if s := otlpString(sp.attrs, "gen_ai.system", "gen_ai.provider.name", "llm.system", "llm.provider"); s != "" {
		out["system"] = s
	}
	switch fr := sp.attrs["gen_ai.response.finish_reasons"].(type) {
	case string:
		out["finish_reasons"] = truncateDetail(fr)
	case []any:
		var parts []string
		for _, p := range fr {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		out["finish_reasons"] = truncateDetail(strings.Join(parts, ","))
	}
	return out
}

// otlpString returns the first non-empty string attribute of keys.
func otlpString(a map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := a[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// otlpInt returns the first of keys present as a non-negative integer
// (int64, a whole float64 or a numeric string); bad reports a present value
// that is not one, with its key.
func otlpInt(a map[string]any, keys ...string) (v *int64, key string, bad bool) {
	for _, k := range keys {
		var i int64
		switch x := a[k].(type) {
		case nil:
			continue
		case int64:
			i = x
		case float64:
			if x != math.Trunc(x) || x > 1<<53 || x < 0 {
				return nil, k, true
			}
			i = int64(x)
		case string:
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return nil, k, true
			}
			i = n
		default:
			return nil, k, true
		}
		if i < 0 {
			return nil, k, true
		}
		return ptr(i), k, false
	}
	return nil, "", false
}

// otlpSeconds returns attribute key, a duration in seconds, as nanoseconds;
// bad reports a value that is not a finite duration of 0 to 10^6 s.
func otlpSeconds(a map[string]any, key string) (*int64, bool) {
	var f float64
	switch x := a[key].(type) {
	case nil:
		return nil, false
	case float64:
		f = x
	case int64:
		f = float64(x)
	case string:
		var err error
		if f, err = strconv.ParseFloat(x, 64); err != nil {
			return nil, true
		}
	default:
		return nil, true
	}
	if math.IsNaN(f) || f < 0 || f > 1e6 {
		return nil, true
	}
	return ptr(int64(math.Round(f * 1e9))), false
}
