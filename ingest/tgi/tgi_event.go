package tgi

import (
	"bytes"
	"fmt"
	"math"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// This file turns a record read in place (d.rec) into an event, a skip or
// a reject, as Format's doc describes.

// emit reports the record of line n; raw is the line as read.
func (d *tgiReader) emit(in *decode.Input, sink decode.Sink, n int64, raw []byte) {
	r := &d.rec
	handler, found := d.handlerSpan()
	isError := string(r.level) == "ERROR"
	success := bytes.HasPrefix(r.message, []byte("Success"))
	successLine := found && string(r.level) == "INFO" && success && len(d.field(&handler, tkTotal)) > 0
	switch {
	case !isError && !success && bytes.Contains(raw, []byte("total_time=")):
		// Timings without the "Success" that ends every such line: the line
		// was cut short, and the request it recorded is lost.
		sink.Reject(decode.At(n), "malformed request line", decode.TruncateDetail(string(raw)))
		return
	case !found || !isError && !successLine:
		sink.Skip(n, "not a request record")
		return
	case r.isFar:
		sink.Reject(decode.At(n), textscan.TimeRangeReason, r.far.Format(time.RFC3339Nano))
		return
	}
	d.base(in, n, handler)
	if isError {
		if ns, ok := tgiDuration(d.field(&handler, tkTotal)); ok {
			d.ev.StartNs = d.arena.Int64(*d.ev.EndNs - ns)
		}
		kind, class := tgiErrorKind(string(r.message))
		d.ev.Completed, d.ev.Error = d.arena.Bool(false), class
		d.attrs = append(d.attrs, decode.AttrKV{Key: "tgi_error", Val: kind})
	} else if key, v, ok := d.success(handler); !ok {
		sink.Reject(decode.AtCol(n, decode.ColIn(raw, v)), "bad duration", decode.TruncateDetail(fmt.Sprintf("%s=%q", key, v)))
		return
	}
	d.ev.Attrs = d.maps.Get(d.attrs)
	sink.Event(n, raw, &d.ev)
}

// handlerSpan returns the innermost span that carries the request timings
// (a total_time) or is a request handler (tgiHandlers).
func (d *tgiReader) handlerSpan() (tgiSpan, bool) {
	for i := len(d.rec.spans) - 1; i >= 0; i-- {
		sp := &d.rec.spans[i]
		if len(d.field(sp, tkTotal)) > 0 || tgiHandlers[string(d.text(&sp.name))] {
			return *sp, true
		}
	}
	return tgiSpan{}, false
}

// base fills what every TGI event has: the end instant (log time), ids and
// endpoint from the HTTP request span, status, and the handler name.
func (d *tgiReader) base(in *decode.Input, n int64, handler tgiSpan) {
	name := d.text(&handler.name)
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
		d.spanIDs(&d.rec.spans[i], &rid, &path, &tid)
	}
	if len(path) > 0 {
		d.ev.Endpoint = d.strs.Get(path)
	}
	if len(rid)+tid.N > 0 {
		d.scratch = append(append(d.scratch[:0], rid...), tid.ID[:tid.N]...)
		s := string(d.scratch)
		d.ev.RequestID, d.ev.TraceID = s[:len(rid)], s[len(rid):]
	}
}

// clearEvent readies d.ev for line n: the fields the reader sets are
// cleared (the others stay zero), the input's fields set. The sink copies
// the event it is given, so d.ev is reused.
func (d *tgiReader) clearEvent(in *decode.Input, n int64) {
	ev := &d.ev
	if ev.Format == "" {
		*ev = schema.Event{Source: schema.SourceServer, Format: "tgi", Clock: schema.ClockWall}
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	ev.StartNs, ev.EndNs, ev.ValidationNs, ev.QueueNs, ev.InferenceNs, ev.TimePerTokenNs = nil, nil, nil, nil, nil, nil
	ev.Status, ev.Completed, ev.Stream, ev.Error, ev.Attrs = nil, nil, nil, "", nil
	ev.RequestID, ev.TraceID, ev.Endpoint, ev.OutputTokens, ev.OutputTokensSource = "", "", "", nil, ""
}

// spanIDs reads one span's trace id (W3C), request id, route (http.route,
// url.path or http.target, the first found) and status (100-599); later
// spans override earlier ones.
func (d *tgiReader) spanIDs(sp *tgiSpan, rid, path *[]byte, tid *decode.TraceID) {
	if v := d.field(sp, tkTraceID); len(v) > 0 {
		var t decode.TraceID
		if t.Set(v, false); t.N > 0 {
			*tid = t
		}
	}
	if v := d.field(sp, tkRequestID); len(v) > 0 {
		*rid = v
	}
	for _, k := range [...]int{tkRoute, tkURLPath, tkTarget} {
		if v := d.field(sp, k); len(v) > 0 && len(*path) == 0 {
			*path = decode.EndpointPathBytes(v)
		}
	}
	for _, k := range [...]int{tkStatus, tkRespStatus} {
		if code, ok := tgiAtoi(d.field(sp, k)); ok && code >= 100 && code < 600 {
			d.ev.Status = d.arena.Int32(int32(code))
		}
	}
}

// tgiTimingKeys are the names of the handler's timings, by tk* index.
var tgiTimingKeys = [...]string{"total_time", "validation_time", "queue_time", "inference_time", "time_per_token"}

// success sets the event of a "Success" line from the handler's timings:
// start = end − total_time, status 200, output tokens round(inference /
// time per token). It returns the key and value of a duration that does
// not parse (a reject).
func (d *tgiReader) success(handler tgiSpan) (key string, v []byte, ok bool) {
	var ns [len(tgiTimingKeys)]int64
	var set [len(tgiTimingKeys)]bool
	for i := range ns {
		if v = d.field(&handler, i); len(v) == 0 {
			continue
		}
		if ns[i], ok = tgiDuration(v); !ok {
			return tgiTimingKeys[i], v, false
		}
		set[i] = true
	}
	ev := &d.ev
	ev.StartNs = d.arena.Int64(*ev.EndNs - ns[tkTotal])
	for i, dst := range [...]**int64{nil, &ev.ValidationNs, &ev.QueueNs, &ev.InferenceNs, &ev.TimePerTokenNs} {
		if dst != nil && set[i] {
			*dst = d.arena.Int64(ns[i])
		}
	}
	ev.Status, ev.Completed = d.arena.Int32(200), d.arena.Bool(true)
	if set[tkInference] && set[tkPerToken] && ns[tkPerToken] > 0 {
		n := int64(math.Round(float64(ns[tkInference]) / float64(ns[tkPerToken])))
		ev.OutputTokens, ev.OutputTokensSource = d.arena.Int64(n), schema.TokensDerived
	}
	return "", nil, true
}
