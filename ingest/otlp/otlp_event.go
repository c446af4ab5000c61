package otlp

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
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
	return otlpEventInto(sp, host, &schema.Event{}, nil)
}

// otlpEventInto is otlpEvent filling ev, which the caller may reuse once a
// sink has copied it (decode.Sink.Event), with its Attrs map and the values
// of its pointer fields from mem (nil: allocated afresh). The values are
// never reused.
func otlpEventInto(sp *otlpSpan, host string, ev *schema.Event, mem *otlpMem) (_ *schema.Event, skip, reason, detail string) {
	source, skip := otlpSource(sp)
	if skip != "" {
		return nil, skip, "", ""
	}
	if sp.start == nil {
		return nil, "", "missing start time", "span " + decode.TruncateDetail(sp.name)
	}
	b := otlpEventBox{ev: ev, vals: mem.values()}
	attrs := otlpEventAttrsOf(sp) // apart from b, whose pointers escape with the event's values
	*ev = schema.Event{Source: source, Format: "otlp", Host: otlpHost(sp.resource, host), Clock: schema.ClockWall,
		TraceID: sp.traceID, SpanID: sp.spanID, StartNs: b.int64(*sp.start)}
	if reason, detail = otlpCommon(b, sp); reason == "" {
		if source == schema.SourceServer {
			reason, detail = otlpServerEvent(b, sp)
		} else {
			reason, detail = otlpClientEvent(b, sp, &attrs)
		}
	}
	if reason != "" {
		return nil, "", reason, detail
	}
	ev.Attrs = mem.attrMap().get(&attrs)
	return ev, "", "", ""
}

// otlpEventBox is an event being built and the values its pointer fields
// point at: one small allocation per event instead of one per field.
type otlpEventBox struct {
	ev   *schema.Event
	vals *otlpEventValues
}

// otlpEventValues holds the values of an event's pointer fields.
type otlpEventValues struct {
	i64       [12]int64
	n         int
	status    int32
	completed bool
	stream    bool
}

// int64 returns a pointer to v, kept with the event's values while there
// is room.
func (b otlpEventBox) int64(v int64) *int64 {
	x := b.vals
	if x.n == len(x.i64) {
		return decode.Ptr(v)
	}
	x.i64[x.n] = v
	x.n++
	return &x.i64[x.n-1]
}

// setStream sets the event's stream flag.
func (b otlpEventBox) setStream(v bool) {
	b.vals.stream = v
	b.ev.Stream = &b.vals.stream
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
	case sp.attrs.prefixes&otlpLatency != 0:
		return schema.SourceServer, ""
	}
	return schema.SourceClient, ""
}

// otlpIsLLM reports whether span attributes describe an LLM request.
func otlpIsLLM(a *otlpAttrSet) bool {
	if k, ok := a.str(akOIKind); ok {
		return strings.EqualFold(k, "LLM")
	}
	if op, ok := a.str(akOperation); ok {
		switch op {
		case "chat", "text_completion", "generate_content", "completion":
		default:
			return false
		}
	}
	if t, ok := a.str(akRequestType); ok && t != "chat" && t != "completion" {
		return false
	}
	return a.prefixes&(otlpGenAI|otlpLLM) != 0
}

// otlpHost returns the resource's host.name, else service.instance.id, else fallback.
func otlpHost(resource *otlpAttrSet, fallback string) string {
	if h := resource.firstString(akHostName, akInstanceID); h != "" {
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
func otlpServerEvent(b otlpEventBox, sp *otlpSpan) (string, string) {
	var d [6]int64
	var has [6]bool
	for i := range d {
		k := akTTFT + otlpKey(i)
		v, ok, bad := sp.attrs.seconds(k)
		if bad {
			return "bad duration", sp.attrs.detail(k)
		}
		d[i], has[i] = v, ok
	}
	ev := b.ev
	start := *ev.StartNs
	if has[0] {
		ev.FirstTokenNs = b.int64(start + d[0])
	}
	switch {
	case has[1]:
		ev.EndNs = b.int64(start + d[1])
	case sp.end != nil:
		ev.EndNs = b.int64(*sp.end)
	}
	for i, dst := range []**int64{&ev.QueueNs, &ev.PrefillNs, &ev.DecodeNs, &ev.InferenceNs} {
		if has[i+2] {
			*dst = b.int64(d[i+2])
		}
	}
	if ev.FirstTokenNs != nil && ev.DecodeNs != nil {
		ev.LastTokenNs = b.int64(*ev.FirstTokenNs + *ev.DecodeNs)
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
func otlpClientEvent(b otlpEventBox, sp *otlpSpan, attrs *otlpEventAttrs) (string, string) {
	ev := b.ev
	start := *ev.StartNs
	if sp.end != nil {
		ev.EndNs = b.int64(*sp.end)
	}
	from := ""
	for _, e := range sp.events {
		switch {
		case !e.timed:
		case e.name == otlpFirstTokenEvent && from == "":
			ev.FirstTokenNs, from = b.int64(e.at), "first_token_event"
		case e.name == otlpChunkEvent && e.content:
			ev.ChunkOffsetsNs = append(ev.ChunkOffsetsNs, e.at-start)
		}
	}
	slices.Sort(ev.ChunkOffsetsNs)
	v, ok, bad := sp.attrs.seconds(akTTFC)
	switch {
	case bad:
		return "bad duration", sp.attrs.detail(akTTFC)
	case from == "" && ok:
		ev.FirstTokenNs, from = b.int64(start+v), "time_to_first_chunk"
	case from == "" && len(ev.ChunkOffsetsNs) > 0:
		ev.FirstTokenNs, from = b.int64(start+ev.ChunkOffsetsNs[0]), "chunk_event"
	}
	if from != "" {
		attrs.firstTokenFrom = from
	}
	if ev.Stream == nil && (ev.FirstTokenNs != nil || len(ev.ChunkOffsetsNs) > 0) {
		b.setStream(true)
	}
	return "", ""
}

// otlpContentChunk reports whether a chunk event may carry content: true
// unless its chunk.type names a non-content Anthropic stream event.
func otlpContentChunk(a *otlpAttrSet) bool {
	t, ok := a.str(akChunkType)
	return !ok || t == "content_block_delta"
}

// otlpCommon sets the ids, model, endpoint, status, error class and token
// counts shared by server and client spans (otlpEventInto their Attrs).
func otlpCommon(b otlpEventBox, sp *otlpSpan) (string, string) {
	ev, a := b.ev, sp.attrs
	ev.RequestID = a.firstString(akRequestID)
	ev.ResponseID = a.firstString(akResponseID)
	if ev.Source == schema.SourceServer {
		ev.Model = a.firstString(akResponseModel, akRequestModel)
	} else {
		ev.Model = a.firstString(akRequestModel, akModelName, akResponseModel)
	}
	ev.Endpoint = otlpEndpoint(a)
	status, hasStatus, key, bad := a.firstInt(akStatus, akStatusOld)
	if bad {
		return "bad status", a.detail(key)
	}
	if reason, detail := otlpTokens(b, a); reason != "" {
		return reason, detail
	}
	if reason, detail := otlpOutcome(b, sp, status, hasStatus); reason != "" {
		return reason, detail
	}
	if v, ok := a.bool(akStream); ok {
		b.setStream(v)
	} else if v, ok := a.bool(akStreaming); ok {
		b.setStream(v)
	}
	return "", ""
}

// otlpTokens sets the token counts the span reports (provenance usage):
// gen_ai.usage.input_tokens / prompt_tokens or OpenInference's
// llm.token_count.prompt, and the output counterparts.
func otlpTokens(b otlpEventBox, a *otlpAttrSet) (string, string) {
	ev := b.ev
	counts := [2]struct {
		dst   **int64
		src   *string
		first otlpKey // and the two keys after it
	}{
		{&ev.PromptTokens, &ev.PromptTokensSource, akInputTokens},
		{&ev.OutputTokens, &ev.OutputTokensSource, akOutputTokens},
	}
	for _, c := range counts {
		v, ok, key, bad := a.firstInt(c.first, c.first+1, c.first+2)
		if bad {
			return "bad token count", a.detail(key)
		}
		if ok {
			*c.dst, *c.src = b.int64(v), schema.TokensUsage
		}
	}
	return "", ""
}

// otlpEndpoint returns the URL path of url.path, http.route or http.target,
// else the path of url.full or http.url, else "".
func otlpEndpoint(a *otlpAttrSet) string {
	if p := a.firstString(akURLPath, akRoute, akTarget); p != "" {
		return decode.EndpointPath(p)
	}
	full := a.firstString(akURLFull, akURL)
	if full == "" { // url.Parse("") gives the empty path too, after an allocation
		return ""
	}
	if u, err := url.Parse(full); err == nil {
		return u.Path
	}
	return ""
}

// otlpOutcome sets the status, error class and completion: a span with
// status code ERROR or an HTTP status ≥ 400 failed; its class comes from
// the HTTP status, else error.type naming a timeout, else server_error.
func otlpOutcome(b otlpEventBox, sp *otlpSpan, status int64, hasStatus bool) (string, string) {
	ev, code := b.ev, 0
	if hasStatus {
		if status > 999 {
			return "bad status", strconv.FormatInt(status, 10)
		}
		code = int(status)
		b.vals.status = int32(code)
		ev.Status = &b.vals.status
	}
	failed := sp.failed || code >= 400
	b.vals.completed = !failed
	ev.Completed = &b.vals.completed
	switch {
	case !failed:
	case code >= 400:
		ev.Error = decode.ErrorClass(code)
	case strings.Contains(strings.ToLower(sp.attrs.firstString(akErrorType)), "timeout"):
		ev.Error = schema.ErrorTimeout
	default:
		ev.Error = schema.ErrorServer
	}
	return "", ""
}

// otlpEventAttrs are the attributes an event keeps (Event.Attrs): the span
// name, service, LLM system and finish reasons, and for a client span
// where its first token came from; nothing else of the span (no prompt or
// completion text). "" is absent, but for finish reasons (hasFinish).
type otlpEventAttrs struct {
	spanName, service, system, finish, firstTokenFrom string
	hasFinish                                         bool
}

// otlpEventAttrsOf returns the attributes of a span's event (all but
// firstTokenFrom).
func otlpEventAttrsOf(sp *otlpSpan) otlpEventAttrs {
	a := otlpEventAttrs{spanName: sp.name, service: sp.resource.firstString(akServiceName),
		system: sp.attrs.firstString(akSystem, akProvider, akLLMSystem, akLLMProvider)}
	switch fr := sp.attrs.val(akFinishReasons).any().(type) {
	case string:
		a.finish, a.hasFinish = decode.TruncateDetail(fr), true
	case []any:
		var parts []string
		for _, p := range fr {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		a.finish, a.hasFinish = decode.TruncateDetail(strings.Join(parts, ",")), true
	}
	return a
}

// fill puts the attributes into the empty map m.
func (a *otlpEventAttrs) fill(m map[string]string) {
	if a.spanName != "" {
		m["span_name"] = a.spanName
	}
	if a.service != "" {
		m["service"] = a.service
	}
	if a.system != "" {
		m["system"] = a.system
	}
	if a.hasFinish {
		m["finish_reasons"] = a.finish
	}
	if a.firstTokenFrom != "" {
		m["first_token_from"] = a.firstTokenFrom
	}
}

// otlpAttrMap gives a reader's events their Attrs map: the previous
// event's map when the attributes are the same (a vLLM log's always are),
// else that map refilled. A sink copies the map before the next event
// (decode.Sink), so building a map per span (0.23 s of CPU per GB of OTLP)
// is not needed.
type otlpAttrMap struct {
	m  map[string]string
	of otlpEventAttrs
}

// get returns a map holding a; a nil c gives a new one.
func (c *otlpAttrMap) get(a *otlpEventAttrs) map[string]string {
	if c == nil {
		m := map[string]string{}
		a.fill(m)
		return m
	}
	if c.m == nil || c.of != *a {
		if c.m == nil {
			c.m = map[string]string{}
		}
		clear(c.m)
		a.fill(c.m)
		c.of = *a
	}
	return c.m
}
