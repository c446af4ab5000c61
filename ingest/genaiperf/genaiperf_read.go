package genaiperf

import (
	"slices"

	"github.com/ttftrace/ttftrace/schema"
)

// The request reader's loop and scratch. Decoding a request with
// encoding/json (unescape each response string, then validate and walk each
// SSE event) scanned every response byte about five times on a generated
// export. Here a request object is read straight from the scanner's buffer
// (genaiperf_request.go) and each response string as SSE lines in its
// escaped form (genaiperf_read_sse.go, genaiperf_esc.go), counting events
// without unescaping them, and mostly without reading them: a stream's
// events repeat each other's bytes (genaiperf_esc_memo.go). From the line
// where the escaped scan stops, a response is unescaped and fed to the
// stream (an SSE line split over two reads goes so). Before the struct
// decoding of requests was deleted, this reader was fuzzed against it; its
// outputs on the edge inputs are in testdata/edges/edges.golden.

// gpAhead is how much of the document the reader wants in the
// buffer before it reads a request: more than most request objects hold.
const gpAhead = 256 << 10

// read reads the next request value (gpQuick.request). It returns the
// request's event or reject and its bytes; ok is false when the value is not
// JSON or the input ends inside it, the scanner then standing at the value.
func (w *gpWalker) read() (ev *schema.Event, raw []byte, reason, detail string, ok bool) {
	sc := w.sc
	if _, err := sc.peek(); err != nil {
		return nil, nil, "", "", false
	}
	sc.ahead(gpAhead)
	for {
		ev, reason, detail, end, inline := w.quick.request(sc.buf, sc.pos)
		if end >= 0 {
			if inline {
				w.onePassRead++
			}
			raw = sc.buf[sc.pos:end]
			sc.pos = end
			return ev, raw, reason, detail, true
		}
		if end != gpMore || !sc.ahead(2*(len(sc.buf)-sc.pos)) {
			return nil, nil, "", "", false
		}
	}
}

// gpQuick holds the reader's scratch, reused by every request.
type gpQuick struct {
	esc       gpEsc
	s         gpStream
	times     []int64   // scratch for a request's response times
	outs      []gpEntry // scratch for its output entries
	facts     gpFacts
	offsets   []int64 // scratch for s.offsets
	tokens    []int32 // scratch for s.tokens
	pending   []byte  // scratch for s.pending
	stack     []byte  // scratch for jsonValueEnd
	unescaped []byte  // scratch for the payload and unescaped responses
	lineStart int     // where the SSE line being read by lines began
}

// gpRequestKeys are the request keys the reader reads, in the
// order perf_analyzer writes them.
var gpRequestKeys = []string{"timestamp", "request_inputs", "response_timestamps", "response_outputs"}

// gpInputKeys and gpOutputKeys are the keys read in request_inputs and in
// a response_outputs entry.
var gpInputKeys, gpOutputKeys = []string{"payload"}, []string{"response", "text_output", "output_ids"}

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
	q.esc = gpEsc{b: b}
	q.s = gpStream{offsets: q.offsets[:0], tokens: q.tokens[:0], pending: q.pending[:0], stack: q.stack}
}

// gpOwned returns a copy of scratch for an event to keep, nil when empty.
func gpOwned[T any](scratch []T) []T {
	if len(scratch) == 0 {
		return nil
	}
	return slices.Clone(scratch)
}
