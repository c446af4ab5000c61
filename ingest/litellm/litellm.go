// Package litellm reads LiteLLM proxy logs: the decoder is Format,
// whose doc says which instant each field marks.
package litellm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes LiteLLM proxy logs (proxy source): StandardLoggingPayload
// objects (what LiteLLM hands every logging callback as
// kwargs["standard_logging_object"], see docs/proxy/logging_spec.md and
// litellm_logging.py get_standard_logging_object_payload), one per line or
// in a JSON array, and LiteLLM_SpendLogs rows exported as JSON. Fields and
// the instants they mark:
//
//   - startTime: epoch seconds (float) when LiteLLM started handling the call
//     → start. Spend-log rows write ISO dates; a date without a zone is read
//     in decode.Options.TZ (UTC when nil).
//   - completionStartTime: when the first chunk came back from the provider
//     on a streaming call; LiteLLM sets it to endTime on a non-streaming one.
//     → first_token only when the call streamed (stream is true, or, when
//     stream is absent, completionStartTime differs from endTime).
//   - endTime: when the response was complete (last chunk on a stream) → end.
//   - id: the provider's response id ("chatcmpl-…") → ResponseID (spend
//     logs: request_id); litellm_call_id (returned to clients as the
//     x-litellm-call-id header) → RequestID; trace_id (LiteLLM's own, not
//     W3C) and the provider's x-request-id from
//     hidden_params.additional_headers → OtherIDs.
//   - model_group (the name clients ask for), else model → Model; model →
//     attrs["deployment_model"]; api_base, custom_llm_provider, call_type,
//     response_cost (USD), cache_hit → attrs.
//   - metadata.user_api_key_request_route, else call_type → Endpoint.
//   - status "success" → status 200, completed (LiteLLM logs success once the
//     response, streamed or not, is complete); "failure" → error_information
//     error_code as the status and its class, else server_error.
//   - prompt_tokens, completion_tokens → token counts, provenance usage.
//
// messages, response and error_str (prompt, output and error text) are never
// read.
//
// A reject's column: a record encoding/json refuses, at the byte it
// refuses (for a value of the wrong type, where its UnmarshalTypeError
// says; see decode.JSONErrorAt); a record with a bad or missing value, at
// its '{' (in an array, the element's own column). A JSON-lines record's
// columns are counted as if its first line started with its '{'.
type Format struct{}

func (Format) Name() string   { return "litellm" }
func (Format) Source() string { return schema.SourceProxy }
func (Format) Describe() string {
	return "LiteLLM StandardLoggingPayload / spend-log JSON: start, first chunk (streaming), end, usage tokens, response and call ids; no per-chunk times"
}

// Sniff claims JSON whose first record has LiteLLM's camelCase times and one
// of its own keys.
func (Format) Sniff(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n[")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	if !bytes.Contains(t, []byte(`"startTime"`)) || !bytes.Contains(t, []byte(`"endTime"`)) {
		return false
	}
	for _, k := range []string{`"completionStartTime"`, `"litellm_call_id"`, `"call_type"`, `"model_group"`} {
		if bytes.Contains(t, []byte(k)) {
			return true
		}
	}
	return false
}

// litellmRecord holds the fields read from one payload; prompt and output
// text fields are deliberately absent.
type litellmRecord struct {
	ID                  string          `json:"id"`
	RequestID           string          `json:"request_id"` // spend logs
	CallID              string          `json:"litellm_call_id"`
	TraceID             string          `json:"trace_id"`
	CallType            string          `json:"call_type"`
	Stream              *bool           `json:"stream"`
	Status              string          `json:"status"`
	StartTime           json.RawMessage `json:"startTime"`
	EndTime             json.RawMessage `json:"endTime"`
	CompletionStartTime json.RawMessage `json:"completionStartTime"`
	Model               string          `json:"model"`
	ModelGroup          string          `json:"model_group"`
	APIBase             string          `json:"api_base"`
	Provider            string          `json:"custom_llm_provider"`
	PromptTokens        *int64          `json:"prompt_tokens"`
	CompletionTokens    *int64          `json:"completion_tokens"`
	ResponseCost        json.Number     `json:"response_cost"`
	CacheHit            *bool           `json:"cache_hit"`
	Metadata            struct {
		Route  string `json:"user_api_key_request_route"`
		Status string `json:"status"` // spend logs keep the status here
	} `json:"metadata"`
	HiddenParams struct {
		AdditionalHeaders map[string]json.RawMessage `json:"additional_headers"`
	} `json:"hidden_params"`
	ErrorInformation struct {
		Code  json.RawMessage `json:"error_code"`
		Class string          `json:"error_class"`
	} `json:"error_information"`
}

// litellmEndpoints maps call types to the OpenAI-style path that triggers them.
var litellmEndpoints = map[string]string{
	"completion": "/v1/chat/completions", "acompletion": "/v1/chat/completions",
	"text_completion": "/v1/completions", "atext_completion": "/v1/completions",
	"responses": "/v1/responses", "aresponses": "/v1/responses",
	"embedding": "/v1/embeddings", "aembedding": "/v1/embeddings",
	"anthropic_messages": "/v1/messages",
}

// Decode reads JSON lines, pretty-printed objects or an array of objects.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	loc := in.Opts.TZ
	if loc == nil {
		loc = time.UTC
	}
	f := newLiteLLMReader()
	br := bufio.NewReaderSize(in.R, 64<<10)
	if decode.PeekJSONArray(br) {
		return f.stream(in, loc, sink, br)
	}
	return decode.JSONRecordsFast(br, sink, func(line int64, t []byte) bool {
		return f.decode(in, loc, line, t, sink)
	}, func(line int64, raw []byte) {
		f.record(in, loc, sink, decode.At(line), raw)
	})
}

// event builds the event of one payload in b.ev, or returns a reject
// reason and detail.
func (r *litellmRecord) event(loc *time.Location, b *litellmBuild) (string, string) {
	start, hasStart, ok1 := litellmTime(r.StartTime, loc)
	end, hasEnd, ok2 := litellmTime(r.EndTime, loc)
	if !ok1 || !ok2 {
		return litellmTimeReason(loc, r.StartTime, r.EndTime), "startTime=" + string(r.StartTime) + " endTime=" + string(r.EndTime)
	}
	if !hasStart {
		return "missing start time", "no startTime"
	}
	ev := &b.ev
	ev.StartNs, ev.Stream = b.int64(start), r.Stream
	if hasEnd {
		ev.EndNs = b.int64(end)
	}
	if first, has, ok := litellmTime(r.CompletionStartTime, loc); ok && has && hasEnd {
		streamed := r.Stream != nil && *r.Stream || r.Stream == nil && first != end
		if streamed && first >= start && first <= end {
			ev.FirstTokenNs, ev.Stream = b.int64(first), b.bool(true)
		}
	}
	r.ids(ev)
	r.describe(b)
	r.outcome(b)
	b.setAttrs()
	return "", ""
}

// ids sets the response, request and other ids.
func (r *litellmRecord) ids(ev *schema.Event) {
	ev.ResponseID = r.ID
	if ev.ResponseID == "" {
		ev.ResponseID = r.RequestID
	}
	ev.RequestID = r.CallID
	if r.TraceID != "" {
		ev.OtherIDs = append(ev.OtherIDs, r.TraceID)
	}
	keys := make([]string, 0, len(r.HiddenParams.AdditionalHeaders))
	for k := range r.HiddenParams.AdditionalHeaders {
		keys = append(keys, k)
	}
	sort.Strings(keys) // map order is random; the event must not be
	for _, k := range keys {
		s := decode.JSONString(r.HiddenParams.AdditionalHeaders[k])
		if s != "" && strings.HasSuffix(strings.ToLower(k), "x-request-id") {
			ev.OtherIDs = append(ev.OtherIDs, s)
		}
	}
}

// describe sets model, endpoint, tokens and attributes.
func (r *litellmRecord) describe(b *litellmBuild) {
	ev := &b.ev
	ev.Model = r.ModelGroup
	if ev.Model == "" {
		ev.Model = r.Model
	}
	if r.Model != ev.Model {
		b.attr("deployment_model", r.Model)
	}
	ev.Endpoint = decode.EndpointPath(r.Metadata.Route)
	if !strings.HasPrefix(ev.Endpoint, "/") {
		ev.Endpoint = litellmEndpoints[r.CallType]
	}
	b.attr("call_type", r.CallType)
	b.attr("api_base", r.APIBase)
	b.attr("provider", r.Provider)
	b.attr("response_cost_usd", r.ResponseCost.String())
	if r.CacheHit != nil && *r.CacheHit {
		b.attr("cache_hit", "true")
	}
	if r.PromptTokens != nil && *r.PromptTokens >= 0 && (*r.PromptTokens > 0 || r.status() == "success") {
		ev.PromptTokens, ev.PromptTokensSource = r.PromptTokens, schema.TokensUsage
	}
	if r.CompletionTokens != nil && *r.CompletionTokens >= 0 && (*r.CompletionTokens > 0 || r.status() == "success") {
		ev.OutputTokens, ev.OutputTokensSource = r.CompletionTokens, schema.TokensUsage
	}
}

func (r *litellmRecord) status() string {
	if r.Status != "" {
		return r.Status
	}
	return r.Metadata.Status
}

// outcome sets status, error class and completion.
func (r *litellmRecord) outcome(b *litellmBuild) {
	ev := &b.ev
	switch r.status() {
	case "success":
		ev.Status, ev.Completed = b.int32(200), b.bool(true)
	case "failure":
		ev.Completed = b.bool(false)
		if code, err := strconv.Atoi(decode.JSONString(r.ErrorInformation.Code)); err == nil && code >= 100 && code <= 599 {
			ev.Status = b.int32(int32(code))
			ev.Error = decode.ErrorClass(code)
		}
		switch {
		case strings.Contains(r.ErrorInformation.Class, "Timeout"):
			ev.Error = schema.ErrorTimeout
		case r.ErrorInformation.Class == "RateLimitError":
			ev.Error = schema.ErrorRateLimited
		case ev.Error == "":
			ev.Error = schema.ErrorServer
		}
		b.attr("error_class", r.ErrorInformation.Class)
	}
}

// litellmTime reads an epoch-seconds number or an ISO date into Unix
// nanoseconds; has is false for absent or null, ok false for a bad value.
func litellmTime(raw json.RawMessage, loc *time.Location) (ns int64, has, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false, true
	}
	if raw[0] != '"' {
		ns, ok := textscan.DecimalScaledBytes(raw, 9)
		return ns, true, ok && ns > 0
	}
	if len(raw) >= 2 && raw[len(raw)-1] == '"' {
		if ns, ok := textscan.LooseRFC3339Ns(raw[1:len(raw)-1], loc); ok {
			return ns, true, true
		}
	}
	ns, err := litellmParseISO(decode.JSONString(raw), loc)
	return ns, err == nil, err == nil
}

// litellmISOLayouts are the ISO date shapes LiteLLM writes besides RFC 3339.
var litellmISOLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"}

// litellmParseISO reads the ISO date s (in loc when it has no zone) into
// Unix nanoseconds; textscan.ErrTimeRange for an instant int64 ns cannot hold.
func litellmParseISO(s string, loc *time.Location) (int64, error) {
	ns, err := textscan.ParseNs(time.RFC3339Nano, s, time.UTC)
	for _, layout := range litellmISOLayouts {
		if err == nil || errors.Is(err, textscan.ErrTimeRange) {
			break
		}
		ns, err = textscan.ParseNs(layout, s, loc)
	}
	return ns, err
}

// litellmTimeReason is the reject reason of the times startTime and
// endTime, one of which litellmTime could not read: "time out of range"
// for a date or epoch beyond int64 ns, else "bad timestamp".
func litellmTimeReason(loc *time.Location, raws ...json.RawMessage) string {
	for _, raw := range raws {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '"' {
			if f, err := strconv.ParseFloat(string(raw), 64); err == nil && math.Abs(f) >= math.MaxInt64/1e9 {
				return textscan.TimeRangeReason
			}
			continue
		}
		if _, err := litellmParseISO(decode.JSONString(raw), loc); errors.Is(err, textscan.ErrTimeRange) {
			return textscan.TimeRangeReason
		}
	}
	return "bad timestamp"
}
