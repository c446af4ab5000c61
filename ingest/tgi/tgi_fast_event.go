package tgi

import (
	"bytes"
	"math"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// This file builds the event of the TGI fast path (tgi_fast.go) from a
// record read in place, as tgi.emit does from a tgiRecord.

// emit is tgi.emit: raw is the line as read; it reports false, having told
// sink nothing, when the general route must decide.
func (d *tgiFast) emit(in *decode.Input, sink decode.Sink, n int64, raw []byte) bool {
	r := &d.rec
	handler, found, ok := d.handlerSpan()
	if !ok {
		return false
	}
	success := bytes.HasPrefix(r.message, []byte("Success"))
	level := string(r.level)
	switch {
	case level != "ERROR" && !success && bytes.Contains(raw, []byte("total_time=")):
		return false // a reject
	case !found:
		sink.Skip(n, "not a request record")
		return true
	case level == "ERROR":
		if !d.base(in, n, handler) {
			return false
		}
		total, _, ok := d.field(&handler, tkTotal)
		if !ok {
			return false
		}
		if ns, ok := tgiDuration(total); ok {
			d.ev.StartNs = d.arena.Int64(*d.ev.EndNs - ns)
		}
		kind, class := tgiErrorKind(string(r.message))
		d.ev.Completed, d.ev.Error = d.arena.Bool(false), class
		d.attrs = append(d.attrs, decode.AttrKV{Key: "tgi_error", Val: kind})
	case level == "INFO" && success:
		total, _, ok := d.field(&handler, tkTotal)
		if !ok {
			return false
		}
		if len(total) == 0 {
			sink.Skip(n, "not a request record")
			return true
		}
		if !d.base(in, n, handler) || !d.success(handler) {
			return false
		}
	default:
		sink.Skip(n, "not a request record")
		return true
	}
	d.ev.Attrs = d.maps.Get(d.attrs)
	sink.Event(n, raw, &d.ev)
	return true
}

// handlerSpan is tgiHandlerSpan: the innermost span with a total_time or a
// handler's name.
func (d *tgiFast) handlerSpan() (sp tgiFastSpan, found, ok bool) {
	for i := len(d.rec.spans) - 1; i >= 0; i-- {
		sp := &d.rec.spans[i]
		total, _, ok := d.field(sp, tkTotal)
		name, nok := d.text(&sp.name)
		if !ok || !nok {
			return *sp, false, false
		}
		if len(total) > 0 || tgiHandlers[string(name)] {
			return *sp, true, true
		}
	}
	return tgiFastSpan{}, false, true
}

// base is tgiBase: the end instant, ids, endpoint, status and handler.
func (d *tgiFast) base(in *decode.Input, n int64, handler tgiFastSpan) bool {
	name, ok := d.text(&handler.name)
	if !ok {
		return false
	}
	d.clearEvent(in, n)
	d.ev.EndNs = d.arena.Int64(d.rec.timeNs)
	d.attrs = append(d.attrs[:0], decode.AttrKV{Key: "handler", Val: d.strs.Get(name)})
	switch string(name) {
	case "generate":
		d.ev.Stream = d.arena.Bool(false)
	case "generate_stream":
		d.ev.Stream = d.arena.Bool(true)
	}
	var rid, path []byte
	var tid decode.TraceID
	for i := range d.rec.spans {
		if !d.spanIDs(&d.rec.spans[i], &rid, &path, &tid) {
			return false
		}
	}
	if len(path) > 0 {
		d.ev.Endpoint = d.strs.Get(path)
	}
	if len(rid)+tid.N > 0 {
		d.scratch = append(append(d.scratch[:0], rid...), tid.ID[:tid.N]...)
		s := string(d.scratch)
		d.ev.RequestID, d.ev.TraceID = s[:len(rid)], s[len(rid):]
	}
	return true
}

// clearEvent readies d.ev for line n: the fields the fast path sets are
// cleared (the others stay zero), the input's fields set. The sink copies
// the event it is given, so d.ev is reused.
func (d *tgiFast) clearEvent(in *decode.Input, n int64) {
	ev := &d.ev
	if ev.Format == "" {
		*ev = schema.Event{Source: schema.SourceServer, Format: "tgi", Clock: schema.ClockWall}
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	ev.StartNs, ev.EndNs, ev.ValidationNs, ev.QueueNs, ev.InferenceNs, ev.TimePerTokenNs = nil, nil, nil, nil, nil, nil
	ev.Status, ev.Completed, ev.Stream, ev.Error, ev.Attrs = nil, nil, nil, "", nil
	ev.RequestID, ev.TraceID, ev.Endpoint, ev.OutputTokens, ev.OutputTokensSource = "", "", "", nil, ""
}

// spanIDs reads one span's ids, route and status as tgiBase does.
func (d *tgiFast) spanIDs(sp *tgiFastSpan, rid, path *[]byte, tid *decode.TraceID) bool {
	v, _, ok := d.field(sp, tkTraceID)
	if !ok {
		return false
	}
	if len(v) > 0 {
		var t decode.TraceID
		if t.Set(v, false); t.N > 0 {
			*tid = t
		}
	}
	if v, _, ok = d.field(sp, tkRequestID); !ok {
		return false
	} else if len(v) > 0 {
		*rid = v
	}
	for _, k := range [...]int{tkRoute, tkURLPath, tkTarget} {
		if v, _, ok = d.field(sp, k); !ok {
			return false
		} else if len(v) > 0 && len(*path) == 0 {
			*path = decode.EndpointPathBytes(v)
		}
	}
	for _, k := range [...]int{tkStatus, tkRespStatus} {
		if v, _, ok = d.field(sp, k); !ok {
			return false
		}
		if code, ok := tgiAtoi(v); ok && code >= 100 && code < 600 {
			d.ev.Status = d.arena.Int32(int32(code))
		}
	}
	return true
}

// success is tgiSuccess's timings; it reports false for a duration that
// does not parse (a reject).
func (d *tgiFast) success(handler tgiFastSpan) bool {
	var ns [tkPerToken + 1]int64
	var set [tkPerToken + 1]bool
	for i := range ns {
		v, _, ok := d.field(&handler, i)
		if !ok {
			return false
		}
		if len(v) == 0 {
			continue
		}
		if ns[i], ok = tgiDuration(v); !ok {
			return false
		}
		set[i] = true
	}
	ev := &d.ev
	ev.StartNs = d.arena.Int64(*ev.EndNs - ns[0])
	for i, dst := range [...]**int64{nil, &ev.ValidationNs, &ev.QueueNs, &ev.InferenceNs, &ev.TimePerTokenNs} {
		if dst != nil && set[i] {
			*dst = d.arena.Int64(ns[i])
		}
	}
	ev.Status, ev.Completed = d.arena.Int32(200), d.arena.Bool(true)
	if set[3] && set[4] && ns[4] > 0 {
		n := int64(math.Round(float64(ns[3]) / float64(ns[4])))
		ev.OutputTokens, ev.OutputTokensSource = d.arena.Int64(n), schema.TokensDerived
	}
	return true
}
