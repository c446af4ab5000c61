package client

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// This file turns one decoded ttftrace-client record into a schema.Event;
// client.go documents the format and its decisions.

// event builds the schema event of a decoded record; the error is a
// *clientReject.
func (r *clientRecord) event() (*schema.Event, error) {
	if r.Start == nil {
		return nil, clientRejectf("missing start", "request_id "+r.RequestID)
	}
	t, err := time.Parse(time.RFC3339Nano, *r.Start)
	if err != nil || t.Year() < 1970 || t.Year() > 2200 { // keeps start + offsets within int64 ns
		return nil, clientRejectf("bad start", *r.Start)
	}
	start := t.UnixNano()
	ev := &schema.Event{
		Source: schema.SourceClient, Format: "ttftrace-client", Clock: schema.ClockWall,
		RequestID: r.RequestID, TraceID: clientTraceID(r.TraceID),
		Model: r.Model, Endpoint: decode.EndpointPath(r.Endpoint), Stream: r.Stream,
		StartNs: &start,
	}
	if r.fast != nil {
		ev.Attrs = r.fast.attrs
	} else {
		ev.Attrs = clientAttrs(r.Attrs)
	}
	if err := r.instants(ev, start); err != nil {
		return nil, err
	}
	if err := r.tokens(ev); err != nil {
		return nil, err
	}
	if r.Status != nil {
		if *r.Status < 0 || *r.Status > 999 {
			return nil, clientRejectf("bad status", strconv.Itoa(int(*r.Status)))
		}
		ev.Status = r.Status
	}
	r.outcome(ev)
	return ev, nil
}

// instants fills the chunk offsets and the headers, first token, last token
// and end instants (ns, client wall clock).
func (r *clientRecord) instants(ev *schema.Event, start int64) error {
	if err := r.chunks(ev); err != nil {
		return err
	}
	if n := len(ev.ChunkOffsetsNs); n > 0 {
		ev.FirstTokenNs = decode.Ptr(start + ev.ChunkOffsetsNs[0])
		ev.LastTokenNs = decode.Ptr(start + ev.ChunkOffsetsNs[n-1])
	}
	if r.HeadersMs != nil {
		off, ok := clientMsToNs(*r.HeadersMs)
		if !ok {
			return clientRejectf("bad headers_ms", clientFloat(*r.HeadersMs))
		}
		ev.HeadersNs = decode.Ptr(start + off)
	}
	if r.EndMs != nil {
		off, ok := clientMsToNs(*r.EndMs)
		if !ok {
			return clientRejectf("bad end_ms", clientFloat(*r.EndMs))
		}
		if n := len(ev.ChunkOffsetsNs); n > 0 && off < ev.ChunkOffsetsNs[n-1] {
			return clientRejectf("bad end_ms", clientFloat(*r.EndMs)+" before the last chunk")
		}
		ev.EndNs = decode.Ptr(start + off)
	}
	return nil
}

// chunks lists the token-carrying chunks in arrival order.
func (r *clientRecord) chunks(ev *schema.Event) error {
	if r.fast != nil {
		ev.ChunkOffsetsNs, ev.ChunkTokens = r.fast.offsets, r.fast.tokens
		clientSortChunks(ev)
		return nil
	}
	counted := false
	for i, c := range r.Chunks {
		where := "chunk " + strconv.Itoa(i) + ": "
		if c.TMs == nil {
			return clientRejectf("bad chunk", where+"no t_ms")
		}
		off, ok := clientMsToNs(*c.TMs)
		if !ok {
			return clientRejectf("bad chunk", where+"t_ms "+clientFloat(*c.TMs))
		}
		switch c.Kind {
		case "role", "usage":
			continue
		case "content", "reasoning", "tool_call":
		default:
			return clientRejectf("bad chunk", where+"kind "+strconv.Quote(c.Kind))
		}
		k := int32(1)
		if c.Tokens != nil {
			if k = *c.Tokens; k < 0 {
				return clientRejectf("bad chunk", where+"tokens "+strconv.Itoa(int(k)))
			}
			counted = true
		}
		if k == 0 {
			continue
		}
		ev.ChunkOffsetsNs = append(ev.ChunkOffsetsNs, off)
		ev.ChunkTokens = append(ev.ChunkTokens, k)
	}
	if !counted {
		ev.ChunkTokens = nil
	}
	clientSortChunks(ev)
	return nil
}

// clientSortChunks puts chunks written out of order into arrival order.
func clientSortChunks(ev *schema.Event) {
	if slices.IsSorted(ev.ChunkOffsetsNs) {
		return
	}
	idx := make([]int, len(ev.ChunkOffsetsNs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return int(ev.ChunkOffsetsNs[a] - ev.ChunkOffsetsNs[b])
	})
	offs := make([]int64, len(idx))
	var toks []int32
	for i, j := range idx {
		offs[i] = ev.ChunkOffsetsNs[j]
		if ev.ChunkTokens != nil {
			toks = append(toks, ev.ChunkTokens[j])
		}
	}
	ev.ChunkOffsetsNs, ev.ChunkTokens = offs, toks
}

// tokens fills the prompt and output token counts with their provenance.
func (r *clientRecord) tokens(ev *schema.Event) error {
	if p := r.PromptTokens; p != nil {
		if *p < 0 {
			return clientRejectf("bad prompt_tokens", strconv.FormatInt(*p, 10))
		}
		ev.PromptTokens, ev.PromptTokensSource = p, schema.TokensUsage
	}
	switch o := r.OutputTokens; {
	case o != nil && *o < 0:
		return clientRejectf("bad output_tokens", strconv.FormatInt(*o, 10))
	case o != nil:
		ev.OutputTokens, ev.OutputTokensSource = o, schema.TokensUsage
	case ev.ChunkTokens != nil:
		var sum int64
		for _, k := range ev.ChunkTokens {
			sum += int64(k)
		}
		ev.OutputTokens, ev.OutputTokensSource = &sum, schema.TokensCounted
	case len(r.Chunks) > 0 || (r.fast != nil && r.fast.chunks > 0):
		ev.OutputTokens = decode.Ptr(int64(len(ev.ChunkOffsetsNs)))
		ev.OutputTokensSource = schema.TokensCounted
	}
	return nil
}

// outcome sets the error class and whether the response was seen to its end.
func (r *clientRecord) outcome(ev *schema.Event) {
	ev.Error = clientErrorClass(r.Error, r.Status)
	ok2xx := r.Status == nil || (*r.Status >= 200 && *r.Status < 300)
	if ev.Error == schema.ErrorNone && !ok2xx {
		ev.Error = schema.ErrorServer
	}
	ended := ev.EndNs != nil || (r.Stream != nil && !*r.Stream)
	if ev.Error == schema.ErrorNone && !ended {
		ev.Error = schema.ErrorInterrupted
	}
	ev.Completed = decode.Ptr(ev.Error == schema.ErrorNone)
}

// clientErrorClass maps the record's error string and status to an error
// class; see Format.
func clientErrorClass(msg string, status *int32) string {
	byStatus := schema.ErrorNone
	if status != nil {
		byStatus = decode.ErrorClass(int(*status))
	}
	m := strings.ToLower(strings.TrimSpace(msg))
	switch {
	case m == "":
		return byStatus
	case strings.Contains(m, "interrupt"):
		return schema.ErrorInterrupted
	case strings.Contains(m, "timeout"):
		return schema.ErrorTimeout
	case m == schema.ErrorRateLimited, m == schema.ErrorClient, m == schema.ErrorServer:
		return m
	case byStatus != schema.ErrorNone:
		return byStatus
	}
	return schema.ErrorServer
}

// clientTraceID accepts a bare trace id or a W3C traceparent.
func clientTraceID(s string) string {
	if strings.Count(s, "-") == 3 && len(s) == 55 {
		return decode.TraceIDFromTraceparent(s)
	}
	return decode.NormalizeTraceID(s)
}

// clientAttrs keeps string, number and boolean attributes as strings.
func clientAttrs(raw map[string]gojson.RawMessage) map[string]string {
	var out map[string]string
	for k, v := range raw {
		v = bytes.TrimSpace(v)
		if len(v) == 0 {
			continue
		}
		var s string
		switch v[0] {
		case '"':
			if gojson.Unmarshal(v, &s) != nil {
				continue
			}
		case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			s = string(v)
		default: // null, objects and arrays
			continue
		}
		if out == nil {
			out = make(map[string]string, len(raw))
		}
		out[k] = s
	}
	return out
}

// clientMaxMs bounds ms offsets (about 3 years) so that start + offset
// cannot overflow int64 ns.
const clientMaxMs = 1e11

// clientMsToNs converts a non-negative offset in ms to ns, rounding to the
// nearest ns, and reports false for a negative or out-of-range value.
func clientMsToNs(ms float64) (int64, bool) {
	if !(ms >= 0 && ms <= clientMaxMs) {
		return 0, false
	}
	return int64(math.Round(ms * 1e6)), true
}

func clientFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
