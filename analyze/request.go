package analyze

import (
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

// newRequest resolves e's instants and output token count.
func newRequest(e event) request {
	c := e.c
	r := request{
		e:       e,
		start:   e.at(&c.StartNs),
		first:   e.at(&c.FirstTokenNs),
		last:    e.at(&c.LastTokenNs),
		end:     e.at(&c.EndNs),
		headers: e.at(&c.HeadersNs),
	}
	if off := e.chunkOffsets(); len(off) > 0 && r.start.ok {
		first := instant{r.start.ns + off[0], true}
		r.lastChunk = instant{r.start.ns + off[len(off)-1], true}
		if !r.first.ok {
			r.first = first
		}
		if !r.last.ok {
			r.last = r.lastChunk
		}
	}
	r.tokens = outputTokens(e)
	return r
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
	return int64(len(e.chunkOffsets()))
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
