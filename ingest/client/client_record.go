package client

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// This file turns one ttftrace-client line, as read, into a schema.Event;
// client.go documents the format and its decisions.

// event builds the schema event of a line; the error is a *clientReject.
// c's scratch lists hold the chunks while they are listed.
func (r *clientLine) event(c *clientReader) (*schema.Event, error) {
	if r.start == nil {
		return nil, clientRejectf("missing start", "request_id "+r.requestID)
	}
	t, err := time.Parse(time.RFC3339Nano, *r.start)
	if err != nil || t.Year() < 1970 || t.Year() > 2200 { // keeps start + offsets within int64 ns
		return nil, clientRejectf("bad start", *r.start)
	}
	start := t.UnixNano()
	ev := &schema.Event{
		Source: schema.SourceClient, Format: "ttftrace-client", Clock: schema.ClockWall,
		RequestID: r.requestID, TraceID: clientTraceID(r.traceID),
		Model: r.model, Endpoint: decode.EndpointPath(r.endpoint), Stream: r.stream,
		StartNs: &start, Attrs: r.attrs,
	}
	if err := r.instants(c, ev, start); err != nil {
		return nil, err
	}
	if err := r.tokens(ev); err != nil {
		return nil, err
	}
	if r.status != nil {
		if *r.status < 0 || *r.status > 999 {
			return nil, clientRejectf("bad status", strconv.Itoa(int(*r.status)))
		}
		ev.Status = r.status
	}
	r.outcome(ev)
	return ev, nil
}

// instants fills the chunk offsets and the headers, first token, last token
// and end instants (ns, client wall clock).
func (r *clientLine) instants(c *clientReader, ev *schema.Event, start int64) error {
	if err := r.listChunks(c, ev); err != nil {
		return err
	}
	if n := len(ev.ChunkOffsetsNs); n > 0 {
		ev.FirstTokenNs = decode.Ptr(start + ev.ChunkOffsetsNs[0])
		ev.LastTokenNs = decode.Ptr(start + ev.ChunkOffsetsNs[n-1])
	}
	if r.headersMs != nil {
		off, ok := clientMsToNs(*r.headersMs)
		if !ok {
			return clientRejectf("bad headers_ms", clientFloat(*r.headersMs))
		}
		ev.HeadersNs = decode.Ptr(start + off)
	}
	if r.endMs != nil {
		off, ok := clientMsToNs(*r.endMs)
		if !ok {
			return clientRejectf("bad end_ms", clientFloat(*r.endMs))
		}
		if n := len(ev.ChunkOffsetsNs); n > 0 && off < ev.ChunkOffsetsNs[n-1] {
			return clientRejectf("bad end_ms", clientFloat(*r.endMs)+" before the last chunk")
		}
		ev.EndNs = decode.Ptr(start + off)
	}
	return nil
}

// Chunk kinds, by clientKind.
const (
	clientKindOther   = iota // not a kind of the format
	clientKindNoToken        // role and usage chunks, which carry no token
	clientKindToken          // content, reasoning and tool_call chunks
)

// clientKind classifies a chunk's kind.
func clientKind(kind []byte) int8 {
	switch string(kind) {
	case "role", "usage":
		return clientKindNoToken
	case "content", "reasoning", "tool_call":
		return clientKindToken
	}
	return clientKindOther
}

// listChunks lists the token-carrying chunks in arrival order, in lists of
// their own (c's scratch holds them meanwhile).
func (r *clientLine) listChunks(c *clientReader, ev *schema.Event) error {
	c.offs, c.toks = c.offs[:0], c.toks[:0]
	counted := false
	for i := range r.chunks {
		ch := &r.chunks[i]
		if !ch.hasTMs {
			return clientChunkReject(i, "no t_ms")
		}
		off, ok := clientMsToNs(ch.tMs)
		if !ok {
			return clientChunkReject(i, "t_ms "+clientFloat(ch.tMs))
		}
		switch ch.class {
		case clientKindNoToken:
			continue
		case clientKindOther:
			return clientChunkReject(i, "kind "+strconv.Quote(ch.other))
		}
		k := int32(1)
		if ch.hasTokens {
			if k = ch.tokens; k < 0 {
				return clientChunkReject(i, "tokens "+strconv.Itoa(int(k)))
			}
			counted = true
		}
		if k != 0 {
			c.offs = append(c.offs, off)
			c.toks = append(c.toks, k)
		}
	}
	if len(c.offs) > 0 {
		ev.ChunkOffsetsNs = slices.Clone(c.offs)
		if counted {
			ev.ChunkTokens = slices.Clone(c.toks)
		}
	}
	clientSortChunks(ev)
	return nil
}

// clientChunkReject is the reject of chunk i (0-based) for why.
func clientChunkReject(i int, why string) error {
	return clientRejectf("bad chunk", "chunk "+strconv.Itoa(i)+": "+why)
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
func (r *clientLine) tokens(ev *schema.Event) error {
	if p := r.promptTokens; p != nil {
		if *p < 0 {
			return clientRejectf("bad prompt_tokens", strconv.FormatInt(*p, 10))
		}
		ev.PromptTokens, ev.PromptTokensSource = p, schema.TokensUsage
	}
	switch o := r.outputTokens; {
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
	case len(r.chunks) > 0:
		ev.OutputTokens = decode.Ptr(int64(len(ev.ChunkOffsetsNs)))
		ev.OutputTokensSource = schema.TokensCounted
	}
	return nil
}

// outcome sets the error class and whether the response was seen to its end.
func (r *clientLine) outcome(ev *schema.Event) {
	ev.Error = clientErrorClass(r.errorText, r.status)
	ok2xx := r.status == nil || (*r.status >= 200 && *r.status < 300)
	if ev.Error == schema.ErrorNone && !ok2xx {
		ev.Error = schema.ErrorServer
	}
	ended := ev.EndNs != nil || (r.stream != nil && !*r.stream)
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
