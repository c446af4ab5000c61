package envoy

import (
	"bytes"
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// This file holds the per-value rules of the Envoy reader (envoy_read.go).

// ms records a duration in ms; it reports false for a value that is not a
// non-negative decimal number.
func (d *envoyDurs) ms(k int, v []byte) bool {
	ns, ok := textscan.DecimalScaledBytes(v, 6)
	if !ok || ns < 0 {
		return false
	}
	d.ns[k], d.set[k] = ns, true
	return true
}

// common records a %COMMON_DURATION% value: a point the event has, else
// an attribute; it returns the reject reason and detail of a bad argument
// or value.
func (d *envoyReader) common(durs *envoyDurs, op *envoyOpPlan, v []byte) (string, string) {
	if op.scale < 0 {
		return "bad duration", op.bad
	}
	ns, ok := textscan.DecimalScaledBytes(v, op.scale)
	if !ok {
		return "bad duration", "COMMON_DURATION(" + op.op.arg + ")=" + string(v)
	}
	if op.point >= 0 && ns >= 0 {
		durs.ns[op.point], durs.set[op.point] = ns, true
		return "", ""
	}
	d.scratch = strconv.AppendInt(d.scratch[:0], ns, 10)
	d.attrs = append(d.attrs, decode.AttrKV{Key: op.attr, Val: d.strs.Get(d.scratch)})
	return "", ""
}

// field records the attributes, model and tokens.
func (d *envoyReader) field(op *envoyOpPlan, v []byte) {
	ev := &d.ev
	switch op.code {
	case ecAttr:
		d.attrs = append(d.attrs, decode.AttrKV{Key: op.attr, Val: d.strs.Get(v)})
	case ecModel, ecRespModel:
		if ev.Model == "" || op.code == ecRespModel {
			ev.Model = d.strs.Get(v)
		}
	case ecInTokens:
		if n, ok := textscan.DecimalScaledBytes(v, 0); ok && n >= 0 {
			ev.PromptTokens, ev.PromptTokensSource = d.arena.Int64(n), schema.TokensUsage
		}
	case ecOutTokens:
		if n, ok := textscan.DecimalScaledBytes(v, 0); ok && n >= 0 {
			ev.OutputTokens, ev.OutputTokensSource = d.arena.Int64(n), schema.TokensUsage
		}
	}
}

// instants places the durations on the start instant: headers at
// DS_RX_BEG:US_RX_BEG, else RESPONSE_DURATION; first token at
// US_RX_BODY_BEG; end at DS_TX_END, else DURATION, else RESPONSE_DURATION
// + RESPONSE_TX_DURATION.
func (d *envoyReader) instants(durs *envoyDurs, start int64) {
	ev := &d.ev
	at := func(k int) *int64 { return d.arena.Int64(start + durs.ns[k]) }
	switch {
	case durs.set[edHeaders]:
		ev.HeadersNs = at(edHeaders)
	case durs.set[edRespDuration]:
		ev.HeadersNs = at(edRespDuration)
	}
	if durs.set[edFirstByte] {
		ev.FirstTokenNs = at(edFirstByte)
	}
	switch {
	case durs.set[edEnd]:
		ev.EndNs = at(edEnd)
	case durs.set[edDuration]:
		ev.EndNs = at(edDuration)
	case durs.set[edRespDuration] && durs.set[edRespTx]:
		ev.EndNs = d.arena.Int64(start + (durs.ns[edRespDuration] + durs.ns[edRespTx]))
	}
}

// ids sets RequestID and TraceID, as one string from d.ids' blocks.
func (d *envoyReader) ids(rid []byte, tid *decode.TraceID) {
	if len(rid)+tid.N == 0 {
		return
	}
	d.scratch = append(append(d.scratch[:0], rid...), tid.ID[:tid.N]...)
	s := d.idStrs.Get(d.scratch)
	d.ev.RequestID, d.ev.TraceID = s[:len(rid)], s[len(rid):]
}

// classify sets the error class and completion: a response flag with a
// class wins (timeout before interrupted before the others), then the
// status; status 0 (no response sent) without a flag is interrupted.
func (d *envoyReader) classify(flags []byte, noResponse bool) {
	ev := &d.ev
	for rest := flags; len(flags) > 0; {
		part, more := rest, false
		if i := bytes.IndexByte(rest, ','); i >= 0 {
			part, rest, more = rest[:i], rest[i+1:], true
		}
		if c := envoyFlagClass[string(bytes.TrimSpace(part))]; envoyClassRank(c) > envoyClassRank(ev.Error) {
			ev.Error = c
		}
		if !more {
			break
		}
	}
	if len(flags) > 0 {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "response_flags", Val: d.strs.Get(flags)})
	}
	if ev.Error == "" && ev.Status != nil {
		ev.Error = decode.ErrorClass(int(*ev.Status))
	}
	if ev.Error == "" && noResponse {
		ev.Error = schema.ErrorInterrupted
	}
	if ev.Status != nil || ev.Error != "" {
		ev.Completed = d.arena.Bool(ev.Error == schema.ErrorNone)
	}
}

// envoyClassRank orders the error classes a response flag can give:
// timeout before interrupted before rate_limited, server and client errors.
func envoyClassRank(c string) int {
	switch c {
	case schema.ErrorTimeout:
		return 5
	case schema.ErrorInterrupted:
		return 4
	case schema.ErrorRateLimited:
		return 3
	case schema.ErrorServer:
		return 2
	case schema.ErrorClient:
		return 1
	}
	return 0
}
