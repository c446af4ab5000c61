package analyze

import (
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// instant is a nanosecond time on one event's clock; ok is false when the
// observer did not log it.
type instant struct {
	ns int64
	ok bool
}

// msBetween returns to − from in milliseconds, and false unless both are known.
func msBetween(from, to instant) (float64, bool) {
	if !from.ok || !to.ok {
		return 0, false
	}
	return float64(to.ns-from.ns) / 1e6, true
}

// request is one event with the instants the metrics need resolved once.
// All instants are on the event's own clock.
type request struct {
	e     event
	start instant
	// first is FirstTokenNs, or the first chunk's arrival when that is unset.
	first instant
	// last is LastTokenNs, or the last chunk's arrival when that is unset.
	last instant
	// lastChunk is the last chunk's arrival, or unknown without chunks.
	lastChunk instant
	end       instant
	headers   instant
	// tokens is the output token count: OutputTokens, else the sum of
	// ChunkTokens, else the number of chunks (one token each); 0 is unknown.
	tokens int64
}

// fields is a set of request fields to resolve: a pass that reads only
// some of them (ttft reads start and first) skips the other columns.
type fields uint8

const (
	fStart fields = 1 << iota
	fFirst        // first, and start for its chunk fallback
	fLast         // last and lastChunk, and start for their chunk fallback
	fEnd
	fHeaders
	fTokens

	allFields = fStart | fFirst | fLast | fEnd | fHeaders | fTokens
)

// newRequest resolves all of e's instants and its output token count.
func newRequest(e event) request {
	var r request
	r.resolve(e, allFields)
	return r
}

// resolve sets r to e with the fields f resolved, each as newRequest
// resolves it, and the others unknown (zero). It writes r in place, field
// by field: a pass reuses one request, which escapes into the metrics'
// sample functions, without copying it whole (under write barriers while
// the garbage collector runs).
func (r *request) resolve(e event, f fields) {
	c := e.c
	if r.e.c != c {
		r.e.c = c
	}
	r.e.i = e.i
	r.start, r.first, r.last, r.lastChunk, r.end, r.headers = instant{}, instant{}, instant{}, instant{}, instant{}, instant{}
	r.tokens = 0
	if f&(fStart|fFirst|fLast) != 0 {
		r.start = e.at(&c.StartNs)
	}
	if f&fFirst != 0 {
		r.first = e.at(&c.FirstTokenNs)
	}
	if f&fLast != 0 {
		r.last = e.at(&c.LastTokenNs)
	}
	if f&fEnd != 0 {
		r.end = e.at(&c.EndNs)
	}
	if f&fHeaders != 0 {
		r.headers = e.at(&c.HeadersNs)
	}
	if f&(fFirst|fLast) != 0 && r.start.ok && c.ChunkOffsetsNs.Has(e.i) {
		r.chunkFallback(e.chunkOffsets(), f)
	}
	if f&fTokens != 0 {
		r.tokens = outputTokens(e)
	}
}

// chunkFallback sets, from chunk offsets off (ns after start), the last
// chunk and the first and last token where their columns are unset, for
// the fields of f.
func (r *request) chunkFallback(off dataset.ChunkOffsets, f fields) {
	if off.Len() == 0 {
		return
	}
	if !r.first.ok && f&fFirst != 0 {
		r.first = instant{r.start.ns + off.First, true}
	}
	if f&fLast != 0 {
		r.lastChunk = instant{r.start.ns + off.Last, true}
		if !r.last.ok {
			r.last = r.lastChunk
		}
	}
}

// outputTokens is the event's output token count as request.tokens describes.
func outputTokens(e event) int64 {
	if n, ok := e.outputTokens(); ok {
		return max(n, 0)
	}
	if ct := e.chunkTokensList(); len(ct) > 0 {
		sum := int64(0)
		for _, k := range ct {
			sum += int64(max(k, 0))
		}
		return sum
	}
	return int64(e.c.ChunkOffsetsNs.Len(e.i))
}

// chunkTokens returns the tokens chunk i carried: tokens[i] when every
// chunk's count is listed (len(tokens) = chunks) and it is positive (capped
// at maxWeight against corrupt counts), else 1 (SPEC §2: k = 1 when unknown).
func chunkTokens(tokens []int32, chunks, i int) int64 {
	if len(tokens) == chunks && tokens[i] > 0 {
		return min(int64(tokens[i]), maxWeight)
	}
	return 1
}

// succeeded reports whether e counts for latency metrics: no error class,
// status 2xx or not logged, and the stream not known to be cut short.
func succeeded(e event) bool {
	if e.errorClass() != schema.ErrorNone {
		return false
	}
	if st, ok := e.status(); ok && (st < 200 || st > 299) {
		return false
	}
	done, ok := e.completed()
	return !ok || done
}

// failureClass returns the error class of a request that did not succeed:
// its Error when set, "interrupted" when the stream was cut short, else the
// class of its HTTP status (429 rate_limited; 408, 504 timeout; 499
// interrupted; other 4xx client_error; 5xx server_error), and "other_status"
// for a status outside 2xx that none of these name (1xx, 3xx).
func failureClass(e event) string {
	if c := e.errorClass(); c != schema.ErrorNone {
		return c
	}
	st, hasStatus := e.status()
	if done, ok := e.completed(); ok && !done && (!hasStatus || st/100 == 2) {
		return schema.ErrorInterrupted
	}
	if !hasStatus {
		return schema.ErrorInterrupted
	}
	switch s := st; {
	case s == 429:
		return schema.ErrorRateLimited
	case s == 408 || s == 504:
		return schema.ErrorTimeout
	case s == 499:
		return schema.ErrorInterrupted
	case s >= 400 && s < 500:
		return schema.ErrorClient
	case s >= 500 && s < 600:
		return schema.ErrorServer
	}
	return "other_status"
}
