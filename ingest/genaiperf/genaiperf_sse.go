package genaiperf

import (
	"bytes"
	"strconv"
	"strings"

	gojson "github.com/goccy/go-json"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Response shapes of a genai-perf request, fixed by its first output.
const (
	gpUnknown  = iota
	gpSSE      // OpenAI-compatible stream: "data: {…}\n\n" events
	gpBody     // one JSON body, possibly read in several parts
	gpTriton   // Triton {"text_output": …} outputs
	gpEngine   // TensorRT-LLM engine {"output_ids": …} outputs, one per token batch
	gpGenerate // HuggingFace generate bodies, [{"generated_text": …}], one per response
)

// gpStream accounts for the responses of one request as they are read. It
// keeps only counts, ids and times: event text is dropped once counted.
type gpStream struct {
	start, lastNs int64
	mode          int
	pending       []byte // an SSE line not yet ended by "\n", or the body so far
	eventTokens   int32  // token events in the response being read
	stack         []byte // scratch for the JSON scanner

	offsets []int64
	tokens  []int32
	done    bool // [DONE] or a finish_reason seen
	sawAny  bool // at least one non-empty output
	// layout is set by an output entry in no layout this decoder reads (none
	// of response, text_output and output_ids); a request with no entry in a
	// known layout is rejected with it (unreadableLayout).
	layout     string
	badEvent   bool // a complete SSE line that is not JSON
	usageOut   *int64
	usageIn    *int64
	model, id  string
	object     string
	errorClass string
}

// gpChunk is the part of an OpenAI chunk, completion or error body that
// ttftrace reads; text fields stay raw so that they are never copied.
type gpChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Delta        *gpMessage        `json:"delta"`
		Message      *gpMessage        `json:"message"`
		Text         gojson.RawMessage `json:"text"`
		FinishReason *string           `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     *int64 `json:"prompt_tokens"`
		CompletionTokens *int64 `json:"completion_tokens"`
	} `json:"usage"`
	Error gojson.RawMessage `json:"error"`
	Type  string            `json:"type"` // vLLM error bodies: {"object":"error","type":…,"code":400}
	Code  gojson.RawMessage `json:"code"`
}

// gpMessage is a delta (streams) or message (bodies).
type gpMessage struct {
	Content          gojson.RawMessage `json:"content"`
	ReasoningContent gojson.RawMessage `json:"reasoning_content"`
	Reasoning        gojson.RawMessage `json:"reasoning"`
	ToolCalls        gojson.RawMessage `json:"tool_calls"`
}

// carriesToken reports whether m has non-empty content, reasoning or tool calls.
func (m *gpMessage) carriesToken() bool {
	return m != nil && (gpNonEmpty(m.Content) || gpNonEmpty(m.ReasoningContent) ||
		gpNonEmpty(m.Reasoning) || gpNonEmpty(m.ToolCalls))
}

// gpNonEmpty reports whether a raw JSON value is neither null nor an empty
// string, array or object.
func gpNonEmpty(v gojson.RawMessage) bool {
	switch string(bytes.TrimSpace(v)) {
	case "", "null", `""`, "[]", "{}":
		return false
	}
	return true
}

// gpOut is one response read: its unescaped "response" text (raw body
// bytes), Triton "text_output" or the number of TensorRT-LLM "output_ids"
// (a number is one id), and which of them it had.
type gpOut struct {
	resp, text       []byte
	ids              int32
	hasResp, hasText bool
	hasIDs           bool
}

// output accounts for one response read at tNs (ns, client wall clock); it
// returns a reject reason for a malformed response.
func (s *gpStream) output(o gpOut, tNs int64) string {
	if !o.hasResp && !o.hasText && !o.hasIDs {
		s.layout = "response_outputs entries without response, text_output or output_ids"
		return ""
	}
	if s.mode == gpUnknown {
		s.mode = gpModeOf(o)
	}
	switch s.mode {
	case gpEngine:
		if o.ids > 0 {
			s.sawAny = true
			s.offsets = append(s.offsets, tNs-s.start)
			s.tokens = append(s.tokens, o.ids)
		}
		return ""
	case gpGenerate:
		return s.generate(o, tNs)
	case gpTriton:
		if o.hasText && len(o.text) > 0 {
			s.sawAny = true
			s.offsets = append(s.offsets, tNs-s.start)
			s.tokens = append(s.tokens, 1)
		}
		return ""
	case gpBody:
		if o.hasResp {
			s.pending = append(s.pending, o.resp...)
		}
		return ""
	}
	if !o.hasResp || len(o.resp) == 0 {
		return ""
	}
	s.sawAny = true
	s.feed(o.resp)
	if s.badEvent {
		return "bad sse event"
	}
	s.flush(tNs)
	return ""
}

// feed appends SSE text to the unended line and handles each line it
// completes.
func (s *gpStream) feed(text []byte) {
	s.pending = append(s.pending, text...)
	done := 0
	for {
		i := bytes.IndexByte(s.pending[done:], '\n')
		if i < 0 {
			break
		}
		s.line(s.pending[done : done+i])
		done += i + 1
	}
	s.pending = s.pending[:copy(s.pending, s.pending[done:])] // keep the unended line
}

// gpModeOf tells the response shape from the first output with text: SSE
// when it starts with an SSE field, else a body.
func gpModeOf(o gpOut) int {
	switch {
	case o.hasIDs:
		return gpEngine
	case !o.hasResp && o.hasText:
		return gpTriton
	case !o.hasResp:
		return gpUnknown
	}
	t := bytes.TrimLeft(o.resp, " \t\r\n")
	if len(t) == 0 {
		return gpUnknown
	}
	if t[0] == '[' {
		return gpGenerate
	}
	for _, field := range []string{"data:", ":", "event:", "id:", "retry:"} {
		if bytes.HasPrefix(t, []byte(field)) {
			return gpSSE
		}
	}
	return gpBody // a JSON body, or an error page from a proxy
}

// flush records the token events of the response read at tNs as one chunk.
func (s *gpStream) flush(tNs int64) {
	if s.eventTokens > 0 {
		s.offsets = append(s.offsets, tNs-s.start)
		s.tokens = append(s.tokens, s.eventTokens)
		s.eventTokens = 0
	}
}

// line handles one complete SSE line: "data:" lines are events; comments,
// "event:", "id:" and "retry:" lines and blank lines carry nothing counted.
func (s *gpStream) line(l []byte) {
	l = bytes.TrimRight(l, "\r")
	data, ok := bytes.CutPrefix(l, []byte("data:"))
	if !ok {
		return
	}
	data = bytes.TrimSpace(data)
	if string(data) == "[DONE]" {
		s.done = true
		return
	}
	if len(data) == 0 {
		return
	}
	if !s.decodeChunk(data) {
		s.badEvent = true
	}
}

// decodeChunk accounts for one event's or body's JSON, decoded into
// gpChunk; it reports false when data is not a JSON object of the expected
// shape. (The events of ordinary streams are read in their escaped form
// instead: genaiperf_esc_facts.go.)
func (s *gpStream) decodeChunk(data []byte) bool {
	var c gpChunk
	if gojson.Unmarshal(data, &c) != nil {
		return false
	}
	var f gpFacts
	f.fromChunk(&c)
	s.chunk(&f)
	return true
}

// chunk accounts for the facts of one decoded event or body.
func (s *gpStream) chunk(f *gpFacts) {
	if s.id == "" {
		s.id = string(f.id)
	}
	if s.model == "" {
		s.model = string(f.model)
	}
	if s.object == "" {
		s.object = string(f.object)
	}
	if f.errorClass != "" {
		s.errorClass = f.errorClass
	}
	if f.hasOut {
		s.usageOut = decode.Ptr(f.usageOut)
	}
	if f.hasIn {
		s.usageIn = decode.Ptr(f.usageIn)
	}
	if f.finished {
		s.done = true
	}
	if f.token && s.mode == gpSSE {
		s.eventTokens++
	}
}

// gpErrorClass classifies an error object by its code, read as an HTTP
// status, else by its type: OpenAI's {"error": {"type", "code"}} and
// vLLM's {"object": "error", "type", "code"} both work.
func gpErrorClass(c *gpChunk) string {
	typ, code := c.Type, c.Code
	var inner struct {
		Type string            `json:"type"`
		Code gojson.RawMessage `json:"code"`
	}
	if gpNonEmpty(c.Error) && gojson.Unmarshal(c.Error, &inner) == nil {
		typ, code = inner.Type, inner.Code
	}
	if n, err := strconv.Atoi(strings.Trim(string(code), `" `)); err == nil {
		if class := decode.ErrorClass(n); class != schema.ErrorNone {
			return class
		}
	}
	t := strings.ToLower(typ + " " + strings.Trim(string(code), `"`))
	switch {
	case strings.Contains(t, "rate_limit"), strings.Contains(t, "ratelimit"):
		return schema.ErrorRateLimited
	case strings.Contains(t, "timeout"):
		return schema.ErrorTimeout
	case strings.Contains(t, "invalid_request"), strings.Contains(t, "badrequest"),
		strings.Contains(t, "notfound"), strings.Contains(t, "not_found"):
		return schema.ErrorClient
	}
	return schema.ErrorServer
}

// finish handles what is left after the last response: an SSE line without
// its "\n" (counted if it is a whole event, dropped if the stream was cut
// inside it) or the whole non-streamed body.
func (s *gpStream) finish() {
	switch s.mode {
	case gpSSE:
		if rest := bytes.TrimSpace(s.pending); len(rest) > 0 {
			s.line(rest)
			s.badEvent = false // a cut-off event: the stream is incomplete, not malformed
			s.flush(s.lastNs)
		}
	case gpBody:
		body := bytes.TrimSpace(s.pending)
		if len(body) == 0 {
			return
		}
		s.sawAny = true
		if !s.decodeChunk(body) {
			s.errorClass = schema.ErrorServer // e.g. an HTML error page from a proxy
			break
		}
		if s.object == "chat.completion" || s.object == "text_completion" {
			s.done = true // a whole completion body is complete, finish_reason or not
		}
	}
	s.pending = nil
}

// event builds the client event of the request from what its responses
// showed; responses is the number of response timestamps.
func (s *gpStream) event(responses int) *schema.Event {
	ev := &schema.Event{
		Source: schema.SourceClient, Format: "genai-perf", Clock: schema.ClockWall,
		ResponseID: s.id, Model: s.model, Endpoint: gpEndpointOf(s.object),
		StartNs: decode.Ptr(s.start), ChunkOffsetsNs: s.offsets, ChunkTokens: s.tokens,
	}
	if responses > 0 {
		ev.EndNs = decode.Ptr(s.lastNs)
	}
	if n := len(s.offsets); n > 0 {
		ev.FirstTokenNs = decode.Ptr(s.start + s.offsets[0])
		ev.LastTokenNs = decode.Ptr(s.start + s.offsets[n-1])
	}
	switch s.mode {
	case gpSSE:
		ev.Stream = decode.Ptr(true)
	case gpBody:
		ev.Stream = decode.Ptr(false)
	}
	s.tokenCounts(ev)
	done := s.done || ((s.mode == gpTriton || s.mode == gpEngine) && s.sawAny)
	switch {
	case s.errorClass != schema.ErrorNone:
		ev.Error = s.errorClass
	case !s.sawAny:
		ev.Error = schema.ErrorServer
	case !done:
		ev.Error = schema.ErrorInterrupted
	}
	ev.Completed = decode.Ptr(ev.Error == schema.ErrorNone)
	return ev
}

// tokenCounts sets the token counts: the usage block when one was sent,
// else the counted token events of a stream.
func (s *gpStream) tokenCounts(ev *schema.Event) {
	if s.usageIn != nil && *s.usageIn >= 0 {
		ev.PromptTokens, ev.PromptTokensSource = s.usageIn, schema.TokensUsage
	}
	if s.usageOut != nil && *s.usageOut >= 0 {
		ev.OutputTokens, ev.OutputTokensSource = s.usageOut, schema.TokensUsage
		return
	}
	if s.mode == gpSSE || s.mode == gpTriton || s.mode == gpEngine || s.mode == gpGenerate {
		var n int64
		for _, k := range s.tokens {
			n += int64(k)
		}
		ev.OutputTokens, ev.OutputTokensSource = &n, schema.TokensCounted
	}
}

// gpEndpointOf names the API path an OpenAI object type answers.
func gpEndpointOf(object string) string {
	switch object {
	case "chat.completion.chunk", "chat.completion":
		return "/v1/chat/completions"
	case "text_completion":
		return "/v1/completions"
	}
	return ""
}
