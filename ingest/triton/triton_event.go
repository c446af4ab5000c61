package triton

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// The events of the triton decoder, built by the same code for both routes
// from the traces each route gathered.

// tritonOut reports a file's traces. The sink copies an event with its
// slices and map (decode.Sink's contract), so one event, Attrs map and chunk
// offset buffer serve every trace; the values the event's pointer fields
// point to are kept by the sink, so they are cut from a slab instead.
type tritonOut struct {
	raw   []byte            // the trace's canonical text
	ev    schema.Event      // the event being reported
	attrs map[string]string // its Attrs
	offs  []int64           // its ChunkOffsetsNs
	boxes []tritonBox       // slab the events' pointer fields point into
	ids   decode.DecimalTexts
	names []string // the timestamp names of the previous trace
	order []int    // their indexes in name order
}

// nameOrder returns the indexes of tr.stamps in the order of their names:
// that of the previous trace when its names were the same, in the same
// order (traces of one server usually are).
func (o *tritonOut) nameOrder(tr *tritonTrace) []int {
	if len(o.names) == len(tr.stamps) {
		same := true
		for i := range tr.stamps {
			if tr.stamps[i].name != o.names[i] {
				same = false
				break
			}
		}
		if same {
			return o.order
		}
	}
	o.names = o.names[:0]
	for i := range tr.stamps {
		o.names = append(o.names, tr.stamps[i].name)
	}
	o.order = tritonNameOrder(o.order[:0], tr)
	return o.order
}

// tritonBox holds the values one event's pointer fields point to.
type tritonBox struct {
	ns   [8]int64
	n    int
	done bool
}

// ptr stores v in the box and returns a pointer to it.
func (b *tritonBox) ptr(v int64) *int64 {
	b.ns[b.n] = v
	b.n++
	return &b.ns[b.n-1]
}

// box returns a zeroed box for one event, cut from the slab.
func (o *tritonOut) box() *tritonBox {
	if len(o.boxes) == 0 {
		o.boxes = make([]tritonBox, 256)
	}
	b := &o.boxes[0]
	o.boxes = o.boxes[1:]
	return b
}

// finishAll reports the traces in order, each at the line of its first
// element.
func (o *tritonOut) finishAll(in *decode.Input, order []*tritonTrace, sink decode.Sink) {
	for k, tr := range order {
		switch {
		case tr.bad != "":
			sink.Reject(decode.Pos{Line: tr.line}, "bad timestamp", tr.bad)
		case len(tr.stamps) == 0:
			sink.Skip(tr.line, "no timestamps")
		case tr.child:
			sink.Skip(tr.line, "ensemble composing model")
		default:
			ev, reason, detail := o.event(in, tr, o.ids.Get(k, len(order), func(i int) int64 { return order[i].id }))
			if reason != "" {
				sink.Reject(decode.Pos{Line: tr.line}, reason, detail)
				continue
			}
			o.raw = tritonRawOrdered(o.raw[:0], tr, o.nameOrder(tr))
			sink.Event(tr.line, o.raw, ev)
		}
	}
}

// event maps a trace's timestamps to an event (see Format's doc); id is
// the decimal text of its id.
func (o *tritonOut) event(in *decode.Input, tr *tritonTrace, id string) (*schema.Event, string, string) {
	first, last := tr.first, tr.last
	start, ok := tritonFirstOf(first, "HTTP_RECV_START", "GRPC_WAITREAD_END", "REQUEST_START")
	if !ok {
		return nil, "missing timestamps", "no HTTP_RECV_START, GRPC_WAITREAD_END or REQUEST_START"
	}
	end, ok := tritonFirstOf(last, "HTTP_SEND_END", "GRPC_SEND_END", "REQUEST_END")
	if !ok {
		return nil, "missing timestamps", "no HTTP_SEND_END, GRPC_SEND_END or REQUEST_END"
	}
	if end < start {
		return nil, "timestamps out of order", fmt.Sprintf("end %d before start %d", end, start)
	}
	box, ev := o.box(), &o.ev
	*ev = schema.Event{
		Source: schema.SourceServer, Format: "triton", Host: in.Host, Clock: schema.ClockSteady,
		RequestID: tr.requestID, Model: tr.model, StartNs: box.ptr(start), EndNs: box.ptr(end),
		Attrs: o.attrsOf(tr, id), InputFile: in.Name, InputLine: tr.line,
	}
	if _, ok := first("REQUEST_END"); ok {
		box.done = true
		ev.Completed = &box.done
	}
	queue, okQ := first("QUEUE_START")
	compute, okC := first("COMPUTE_START")
	if okQ && okC && compute >= queue {
		ev.QueueNs = box.ptr(compute - queue)
	}
	if computeEnd, ok := last("COMPUTE_END"); ok && okC && computeEnd >= compute {
		ev.InferenceNs = box.ptr(computeEnd - compute)
	}
	o.responses(box, tr.values("INFER_RESPONSE_COMPLETE"), start, compute, okC)
	return ev, "", ""
}

// attrsOf returns the Attrs of a trace's event: its id, model version and
// protocol (from the last HTTP_ or GRPC_ timestamp name).
func (o *tritonOut) attrsOf(tr *tritonTrace, id string) map[string]string {
	if o.attrs == nil {
		o.attrs = make(map[string]string, 3)
	}
	m := o.attrs
	clear(m)
	m["triton_trace_id"] = id
	if tr.version != "" {
		m["model_version"] = tr.version
	}
	for _, st := range tr.stamps {
		if name := st.name; strings.HasPrefix(name, "HTTP_") {
			m["protocol"] = "http"
		} else if strings.HasPrefix(name, "GRPC_") {
			m["protocol"] = "grpc"
		}
	}
	return m
}

// responses sets the token instants of a decoupled model's stream from its
// response-complete times (two or more).
func (o *tritonOut) responses(box *tritonBox, responses []int64, start, compute int64, okCompute bool) {
	if len(responses) < 2 {
		return
	}
	ev := &o.ev
	rs := responses
	slices.Sort(rs) // in place: tritonRaw sorts them too
	firstTok, lastTok := rs[0], rs[len(rs)-1]
	ev.FirstTokenNs, ev.LastTokenNs = box.ptr(firstTok), box.ptr(lastTok)
	ev.DecodeNs = box.ptr(lastTok - firstTok)
	if okCompute && firstTok >= compute {
		ev.PrefillNs = box.ptr(firstTok - compute)
	}
	o.offs = o.offs[:0]
	for _, r := range rs {
		o.offs = append(o.offs, r-start)
	}
	ev.ChunkOffsetsNs = o.offs[:len(o.offs):len(o.offs)]
}
