package fleet

import (
	"io"
	"math/rand/v2"
	"strconv"
	"time"
)

// writeOTLP writes h's requests as vLLM `llm_request` SERVER spans in OTLP/JSON
// file-exporter lines, up to 8 spans per line, in the order requests end.
// vLLM's span starts at arrival and carries its latencies as seconds:
// time_to_first_token = other + queue + prefill on our truth.
func (f *Fleet) writeOTLP(w io.Writer, h *Host) error {
	reqs := f.Logged(h)
	rng := rand.New(rand.NewPCG(uint64(len(h.Name)), 3))
	b := make([]byte, 0, 64<<10)
	for i := 0; i < len(reqs); i += 8 {
		b = append(b[:0], `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"vllm"}},{"key":"host.name","value":{"stringValue":"`...)
		b = append(b, h.Name...)
		b = append(b, `"}}]},"scopeSpans":[{"scope":{"name":"vllm.llm_engine"},"spans":[`...)
		for j, r := range reqs[i:min(i+8, len(reqs))] {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendSpan(b, r, h.OffsetNs, rng)
		}
		b = append(b, "]}]}]}\n"...)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func appendSpan(b []byte, r *Request, offset int64, rng *rand.Rand) []byte {
	trace := r.TraceID
	if trace == "" {
		trace = hexID(rng, 32)
	}
	b = append(b, `{"traceId":"`...)
	b = append(b, trace...)
	b = append(b, `","spanId":"`...)
	b = append(b, hexID(rng, 16)...)
	b = append(b, `","name":"llm_request","kind":2,"startTimeUnixNano":"`...)
	b = strconv.AppendInt(b, r.ServerStart+offset, 10)
	b = append(b, `","endTimeUnixNano":"`...)
	b = strconv.AppendInt(b, r.ServerEnd+offset, 10)
	b = append(b, `","attributes":[`...)
	b = strAttr(b, "gen_ai.response.model", r.Model)
	b = strAttr(b, "gen_ai.request.id", r.ServerID)
	b = intAttr(b, "gen_ai.usage.prompt_tokens", r.PromptTokens)
	b = intAttr(b, "gen_ai.usage.completion_tokens", r.OutputTokens)
	b = dblAttr(b, "gen_ai.latency.time_in_queue", r.QueueNs)
	if r.ServerFirst != 0 {
		b = dblAttr(b, "gen_ai.latency.time_to_first_token", r.ServerFirst-r.ServerStart)
		b = dblAttr(b, "gen_ai.latency.time_in_model_prefill", r.PrefillNs)
		b = dblAttr(b, "gen_ai.latency.time_in_model_decode", r.ServerLast-r.ServerFirst)
	}
	b = dblAttr(b, "gen_ai.latency.e2e", r.ServerEnd-r.ServerStart)
	b = b[:len(b)-1] // the last attribute's comma
	b = append(b, `],"status":{`...)
	if r.Status == 500 {
		b = append(b, `"code":2,"message":"EngineCore encountered an issue"`...)
	}
	return append(b, "}}"...)
}

func strAttr(b []byte, k, v string) []byte {
	b = append(b, `{"key":"`...)
	b = append(b, k...)
	b = append(b, `","value":{"stringValue":`...)
	b = strconv.AppendQuote(b, v)
	return append(b, "}},"...)
}

func intAttr(b []byte, k string, v int) []byte {
	b = append(b, `{"key":"`...)
	b = append(b, k...)
	b = append(b, `","value":{"intValue":"`...)
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, `"}},`...)
}

func dblAttr(b []byte, k string, ns int64) []byte {
	b = append(b, `{"key":"`...)
	b = append(b, k...)
	b = append(b, `","value":{"doubleValue":`...)
	b = strconv.AppendFloat(b, float64(ns)/1e9, 'f', -1, 64)
	return append(b, "}},"...)
}

// writeTGI writes h's requests as text-generation-inference router log lines,
// logged when each request ends: total_time spans the whole request,
// validation_time + queue_time + inference_time add up to it (our "other"
// time stands for validation), and time_per_token = inference / tokens.
// A startup line comes first, as in a real log.
func (f *Fleet) writeTGI(w io.Writer, h *Host) error {
	reqs := f.Logged(h)
	b := make([]byte, 0, 2048)
	if len(reqs) > 0 {
		b = tgiTime(b, reqs[0].ServerStart+h.OffsetNs-5e9)
		b = append(b, "  INFO text_generation_router::server: router/src/server.rs:2266: Connected\n"...)
	}
	for _, r := range reqs {
		b = appendTGI(b, r, h)
	}
	_, err := w.Write(b)
	return err
}

// appendTGI appends r's router log line as engine h logs it.
func appendTGI(b []byte, r *Request, h *Host) []byte {
	end := r.ServerEnd + h.OffsetNs
	total := r.ServerEnd - r.ServerStart
	infer := total - r.OtherNs - r.QueueNs
	b = tgiTime(b, end)
	if r.Status == 500 {
		return append(b, " ERROR generate_stream{parameters=GenerateParameters { best_of: None, temperature: Some(0.7), max_new_tokens: Some(1024), stop: [], details: false, seed: None }}: text_generation_router::infer: router/src/infer/mod.rs:134: `inference` failed: Request failed during generation: Server error: CUDA out of memory\n"...)
	}
	b = append(b, "  INFO generate_stream{parameters=GenerateParameters { best_of: None, temperature: Some(0.7), top_p: Some(0.95), max_new_tokens: Some(1024), stop: [\"</s>\"], details: false, seed: None } total_time=\""...)
	b = rustDuration(b, total)
	b = append(b, `" validation_time="`...)
	b = rustDuration(b, r.OtherNs)
	b = append(b, `" queue_time="`...)
	b = rustDuration(b, r.QueueNs)
	b = append(b, `" inference_time="`...)
	b = rustDuration(b, infer)
	b = append(b, `" time_per_token="`...)
	b = rustDuration(b, infer/int64(max(1, r.OutputTokens)))
	return append(b, `" seed="None"}: text_generation_router::server: router/src/server.rs:512: Success`+"\n"...)
}

func tgiTime(b []byte, ns int64) []byte {
	return time.Unix(0, ns).UTC().AppendFormat(b, "2006-01-02T15:04:05.000000Z")
}

// rustDuration formats ns as Rust's Debug for Duration does: "1.234567s",
// "12.3ms", "25.3µs", "800ns".
func rustDuration(b []byte, ns int64) []byte {
	unit, div := "ns", 1.0
	switch {
	case ns >= 1e9:
		unit, div = "s", 1e9
	case ns >= 1e6:
		unit, div = "ms", 1e6
	case ns >= 1e3:
		unit, div = "µs", 1e3
	}
	b = strconv.AppendFloat(b, float64(ns)/div, 'f', -1, 64)
	return append(b, unit...)
}
