package genaiperf

import (
	"slices"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// A request object read in one pass. Reading it whole (validate the
// request object, walk it, unescape each response string, then validate
// and walk each SSE event) on a generated export scanned every response
// byte about five times. Here a request object is read in one pass straight
// from the scanner's buffer: timestamps are parsed as they
// are scanned and each response string is read as SSE lines in its escaped
// form (see genaiperf_esc.go), counting events without unescaping them,
// and mostly without reading them: a stream's events repeat each other's
// bytes (genaiperf_esc_memo.go). Anything unusual bails: from the line where
// the escaped scan stops, a response is unescaped and fed to the stream (an
// SSE line split over two reads goes so), and a request it does not handle
// (other layouts, odd keys or key orders, bad values, rejects) is read
// whole (genaiperf_whole.go) from its start. Before the struct decoding
// that read those was deleted, both were fuzzed against it; its outputs on
// the edge inputs are in testdata/edges/edges.golden.

// gpAhead is how much of the document the one-pass reading wants in the
// buffer before it reads a request: more than most request objects hold.
const gpAhead = 256 << 10

// read reads the next request value: in one pass when it can
// (gpQuick.request), else whole (gpQuick.wholeRequest). It returns the
// request's event or reject and its bytes; ok is false when the value is not
// JSON or the input ends inside it, the scanner then standing at the value.
func (w *gpWalker) read() (ev *schema.Event, raw []byte, reason, detail string, ok bool) {
	sc := w.sc
	if _, err := sc.peek(); err != nil {
		return nil, nil, "", "", false
	}
	sc.ahead(gpAhead)
	for {
		end := gpBail
		if sc.buf[sc.pos] == '{' {
			ev, end = w.quick.request(sc.buf, sc.pos)
			if end >= 0 {
				w.onePassRead++
			}
		}
		if end == gpBail {
			ev, reason, detail, end = w.quick.wholeRequest(sc.buf, sc.pos)
		}
		if end >= 0 {
			raw = sc.buf[sc.pos:end]
			sc.pos = end
			return ev, raw, reason, detail, true
		}
		if end != gpMore || !sc.ahead(2*(len(sc.buf)-sc.pos)) {
			return nil, nil, "", "", false
		}
	}
}

// gpQuick holds the one-pass reading's scratch, reused by every request.
type gpQuick struct {
	esc       gpEsc
	times     []int64
	s         gpStream
	facts     gpFacts
	offsets   []int64 // scratch for s.offsets
	tokens    []int32 // scratch for s.tokens
	pending   []byte  // scratch for s.pending
	stack     []byte  // scratch for jsonValueEnd
	unescaped []byte  // scratch for the payload and unescaped responses
	lineStart int     // where the SSE line being read by lines began
	start     int64   // the request's timestamp
	payload   []byte  // its request_inputs.payload literal; nil when absent
}

// gpRequestKeys are the request keys the one-pass reading reads, in the
// order perf_analyzer writes them.
var gpRequestKeys = []string{"timestamp", "request_inputs", "response_timestamps", "response_outputs"}

// gpInputKeys and gpOutputKeys are the keys read in request_inputs and in
// a response_outputs entry.
var gpInputKeys, gpOutputKeys = []string{"payload"}, []string{"response", "text_output", "output_ids"}

// request reads the request object at b[i] (its '{') and builds its event
// as wholeRequest would; end is the index past the object, or gpBail (read
// it whole) or gpMore.
func (q *gpQuick) request(b []byte, i int) (ev *schema.Event, end int) {
	q.reset(b)
	seen := 0
	i, empty := gpOuterOpen(b, i, '{', '}')
	if i < 0 || empty {
		return nil, gpBail
	}
	for more := true; more; {
		key, j := gpOuterKey(b, i)
		if j < 0 {
			return nil, j
		}
		k, ok := gpEscKey(key, gpRequestKeys)
		if !ok || (k >= 0 && seen&(1<<k) != 0) || (k == 3 && seen&5 != 5) {
			return nil, gpBail // odd or repeated keys, or outputs before their times
		}
		if i = q.member(b, k, j); i < 0 {
			return nil, i
		}
		if k >= 0 {
			seen |= 1 << k
		}
		if i, more = gpOuterNext(b, i, '}'); i < 0 {
			return nil, i
		}
	}
	if seen&1 == 0 || (seen&8 == 0 && !q.timesOK(q.start)) {
		return nil, gpBail
	}
	if ev = q.event(q.start, q.payload); ev == nil {
		return nil, gpBail
	}
	return ev, i
}

// member reads the value at b[j] of gpRequestKeys[k] (k < 0: another key).
func (q *gpQuick) member(b []byte, k, j int) (end int) {
	switch k {
	case 0:
		q.start, end = gpOuterInt(b, j)
	case 1:
		q.payload, end = q.inputs(b, j)
	case 2:
		end = q.timesArray(b, j)
	case 3:
		end = q.outputs(b, j, q.start)
	default:
		end = gpOuterSkip(b, j, &q.stack)
	}
	return end
}

// event builds the request's event once its object was read; nil means
// the payload needs the request read whole.
func (q *gpQuick) event(start int64, payload []byte) *schema.Event {
	var p string
	if payload != nil {
		u, ok := jsonwalk.AppendUnescaped(q.unescaped[:0], payload)
		if q.unescaped = u; !ok {
			return nil
		}
		p = string(u)
	}
	return q.finish(start, q.times, p)
}

// finish builds the event of the request sent at start whose responses,
// timed at times, q.s has accounted for; payload is the request JSON.
func (q *gpQuick) finish(start int64, times []int64, payload string) *schema.Event {
	s := &q.s
	s.start = start
	if n := len(times); n > 0 {
		s.lastNs = times[n-1]
	}
	q.offsets, q.tokens, q.pending, q.stack = s.offsets[:0], s.tokens[:0], s.pending[:0], s.stack
	s.offsets, s.tokens = gpOwned(s.offsets), gpOwned(s.tokens)
	return s.result(len(times), payload)
}

// reset readies q's scratch and stream for a request held in b.
func (q *gpQuick) reset(b []byte) {
	q.esc, q.times, q.start, q.payload = gpEsc{b: b}, q.times[:0], 0, nil
	q.s = gpStream{offsets: q.offsets[:0], tokens: q.tokens[:0], pending: q.pending[:0], stack: q.stack}
}

// gpOwned returns a copy of scratch for an event to keep, nil when empty.
func gpOwned[T any](scratch []T) []T {
	if len(scratch) == 0 {
		return nil
	}
	return slices.Clone(scratch)
}

// timesOK reports whether start and the response times pass gpCheckTimes
// (the request is rejected otherwise).
func (q *gpQuick) timesOK(start int64) bool {
	if start <= 0 {
		return false
	}
	reason, _ := gpCheckTimes(0, q.times, start)
	return reason == ""
}

// inputs reads request_inputs at b[i], keeping its payload string literal.
func (q *gpQuick) inputs(b []byte, i int) ([]byte, int) {
	var payload []byte
	i, empty := gpOuterOpen(b, i, '{', '}')
	for more := !empty; more && i >= 0; {
		key, j := gpOuterKey(b, i)
		if j < 0 {
			return nil, j
		}
		k, ok := gpEscKey(key, gpInputKeys)
		switch {
		case !ok || (k == 0 && (payload != nil || b[j] != '"')):
			return nil, gpBail
		case k == 0:
			i = gpOuterSkip(b, j, &q.stack)
			if i >= 0 {
				payload = b[j:i]
			}
		default:
			i = gpOuterSkip(b, j, &q.stack)
		}
		if i >= 0 {
			i, more = gpOuterNext(b, i, '}')
		}
	}
	return payload, i
}

// timesArray reads response_timestamps at b[i] into q.times.
func (q *gpQuick) timesArray(b []byte, i int) int {
	i, empty := gpOuterOpen(b, i, '[', ']')
	for more := !empty; more && i >= 0; {
		var v int64
		if v, i = gpOuterInt(b, i); i >= 0 {
			q.times = append(q.times, v)
			i, more = gpOuterNext(b, i, ']')
		}
	}
	return i
}

// outputs reads response_outputs at b[i], accounting for each response at
// its time; start is the request's send time.
func (q *gpQuick) outputs(b []byte, i int, start int64) int {
	if !q.timesOK(start) {
		return gpBail
	}
	q.s.start = start
	i, empty := gpOuterOpen(b, i, '[', ']')
	for n, more := 0, !empty; more && i >= 0; n++ {
		if n >= len(q.times) {
			return gpBail // more outputs than timestamps: a reject
		}
		if i = q.output(b, i, q.times[n]); i >= 0 {
			i, more = gpOuterNext(b, i, ']')
		}
	}
	return i
}

// output reads one response_outputs entry at b[i], read at tNs.
func (q *gpQuick) output(b []byte, i int, tNs int64) int {
	i, empty := gpOuterOpen(b, i, '{', '}')
	if empty && i >= 0 {
		return gpBail // no response: read whole
	}
	for more, seen := !empty, false; more && i >= 0; {
		key, j := gpOuterKey(b, i)
		if j < 0 {
			return j
		}
		k, ok := gpEscKey(key, gpOutputKeys)
		switch {
		case !ok || k >= 1 || (k == 0 && seen):
			return gpBail
		case k == 0:
			seen = true
			i = q.response(b, j, tNs)
		default:
			i = gpOuterSkip(b, j, &q.stack)
		}
		if i >= 0 {
			i, more = gpOuterNext(b, i, '}')
		}
		if !more && !seen && i >= 0 {
			return gpBail // no response: another layout (output_ids), read whole
		}
	}
	return i
}
