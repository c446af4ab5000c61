package haproxy

import (
	"bytes"
	"strconv"
	"time"
	"unicode"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The fields of an HAProxy line after its head (haproxy_read.go).

// timers reads "TR/Tw/Tc/Tr/Ta" (four slashes, checked) and sets the
// instants and phases; a '+' before Ta (logasap) means the line was logged
// before the response ended. It reports false for a bad timer.
func (d *haproxyReader) timers(field []byte, start int64) bool {
	var ms [5]int64
	logasap := false
	for i, p := 0, 0; i < 5; i, p = i+1, p+1 {
		n := bytes.IndexByte(field[p:], '/')
		if n < 0 {
			n = len(field) - p // the last part (four slashes, checked)
		}
		part := field[p : p+n]
		v, ok := haproxyTimer(part)
		if !ok {
			return false
		}
		ms[i], p = v, p+n
		logasap = i == 4 && len(part) > 0 && part[0] == '+'
	}
	const msNs = int64(time.Millisecond)
	ev := &d.ev
	if ms[1] >= 0 {
		ev.QueueNs = d.arena.Int64(ms[1] * msNs)
	}
	if ms[2] >= 0 {
		ev.ConnectNs = d.arena.Int64(ms[2] * msNs)
	}
	if ms[0] >= 0 && ms[1] >= 0 && ms[2] >= 0 && ms[3] >= 0 {
		ev.HeadersNs = d.arena.Int64(start + (ms[0]+ms[1]+ms[2]+ms[3])*msNs)
	}
	if ms[4] >= 0 && !logasap {
		ev.EndNs = d.arena.Int64(start + ms[4]*msNs)
	}
	if logasap {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "logasap", Val: "true"})
	}
	return true
}

// haproxyTimer reads a timer in milliseconds: one '+' dropped, then an
// integer of at least -1 as strconv.ParseInt reads it (which takes a sign
// too); "+"?"-"?digits is read in place.
func haproxyTimer(b []byte) (int64, bool) {
	if len(b) > 0 && b[0] == '+' {
		b = b[1:]
	}
	digits := b
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		digits = b[1:]
	}
	v, ok := textscan.Digits(digits)
	if !ok {
		var err error
		v, err = strconv.ParseInt(string(b), 10, 64)
		return v, err == nil && v >= -1
	}
	if neg {
		v = -v
	}
	return v, v >= -1
}

// status reads the status as strconv.Atoi does (a negative one, as -1 when
// HAProxy has none, sets no status); it reports false when Atoi fails.
func (d *haproxyReader) status(b []byte) bool {
	code, ok := textscan.Digits(b)
	if !ok || len(b) > 9 {
		c, err := strconv.Atoi(string(b))
		if err != nil {
			return false
		}
		code = int64(c)
	}
	if code > 0 {
		d.ev.Status = d.arena.Int32(int32(code))
	}
	return true
}

// tail reads what follows the queue counters: captured headers in braces
// (ids among the first), the quoted request line and an appended unique
// id. RequestID and TraceID share one allocation. rest ends the line, so
// trimming its left trims it as strings.TrimSpace would.
func (d *haproxyReader) tail(rest []byte) {
	ev := &d.ev
	_, rest, _ = bytes.Cut(rest, []byte(" ")) // srv_queue/backend_queue
	var rid []byte
	var tid decode.TraceID
	rest = bytes.TrimLeftFunc(rest, unicode.IsSpace)
	for first := true; len(rest) > 0 && rest[0] == '{'; first = false {
		end := bytes.IndexByte(rest, '}')
		if end < 0 {
			break
		}
		if first {
			haproxyCapturedIDs(rest[1:end], &rid, &tid)
		}
		rest = bytes.TrimLeftFunc(rest[end+1:], unicode.IsSpace)
	}
	if len(rest) > 0 && rest[0] == '"' {
		req, trailing := rest[1:], []byte(nil)
		if last := bytes.LastIndexByte(rest, '"'); last > 0 {
			req, trailing = rest[1:last], bytes.TrimLeftFunc(rest[last+1:], unicode.IsSpace)
		}
		d.request(req)
		if id, _, _ := bytes.Cut(trailing, []byte(" ")); len(id) > 0 && !(len(id) == 1 && id[0] == '-') {
			rid = id
		}
	}
	if len(rid)+tid.N > 0 {
		d.scratch = append(append(d.scratch[:0], rid...), tid.ID[:tid.N]...)
		s := string(d.scratch)
		ev.RequestID, ev.TraceID = s[:len(rid)], s[len(rid):]
	}
}

// request sets the endpoint and method from the quoted request line.
func (d *haproxyReader) request(req []byte) {
	method, target, _ := bytes.Cut(req, []byte(" "))
	target, _, _ = bytes.Cut(target, []byte(" "))
	if i := bytes.Index(target, []byte("://")); i >= 0 {
		target = target[i+3:]
		if j := bytes.IndexByte(target, '/'); j >= 0 {
			target = target[j:]
		} else {
			target = []byte("/")
		}
	}
	if len(target) > 0 && target[0] == '/' {
		d.ev.Endpoint = d.strs.Get(decode.EndpointPathBytes(target))
	}
	if len(method) > 0 {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "method", Val: d.strs.Get(method)})
	}
}

// haproxyCapturedIDs looks for ids among the captured request headers
// ('|'-separated, each trimmed as strings.TrimSpace trims): a UUID gives
// the request id (the first), a traceparent the trace id (the last, even
// when it gives "").
func haproxyCapturedIDs(captured []byte, rid *[]byte, tid *decode.TraceID) {
	for rest, more := captured, true; more; {
		h := rest
		if i := bytes.IndexByte(rest, '|'); i >= 0 {
			h, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		h = bytes.TrimSpace(h)
		switch {
		case haproxyIsTraceparent(h):
			tid.N = 0
			tid.Set(h, true)
		case haproxyIsUUID(h) && *rid == nil:
			*rid = h
		}
	}
}

// haproxyIsTraceparent reports whether h is a W3C traceparent:
// ^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$.
func haproxyIsTraceparent(h []byte) bool {
	return len(h) == 55 && h[2] == '-' && h[35] == '-' && h[52] == '-' &&
		lowerHex(h[:2]) && lowerHex(h[3:35]) && lowerHex(h[36:52]) && lowerHex(h[53:])
}

// haproxyIsUUID reports whether h is a UUID in either case: 8-4-4-4-12
// hex digits.
func haproxyIsUUID(h []byte) bool {
	if len(h) != 36 || h[8] != '-' || h[13] != '-' || h[18] != '-' || h[23] != '-' {
		return false
	}
	for i, c := range h {
		if i != 8 && i != 13 && i != 18 && i != 23 && decode.HexLower[c] == 0 {
			return false
		}
	}
	return true
}

func lowerHex(b []byte) bool {
	for _, c := range b {
		if decode.HexLower[c] != c || c == 0 {
			return false
		}
	}
	return true
}

// classify sets the error class from the termination state's first
// letter, falling back on the status, and whether the response completed
// (not known for a logasap line, logged before the response ended).
func (d *haproxyReader) classify(state []byte) {
	ev := &d.ev
	haproxyError(ev, state)
	logasap := false
	for _, a := range d.attrs {
		logasap = logasap || a.Key == "logasap"
	}
	if (ev.Status != nil || ev.Error != "") && !logasap {
		ev.Completed = d.arena.Bool(ev.Error == schema.ErrorNone)
	}
}
