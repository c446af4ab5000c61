package haproxy

import (
	"bytes"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// This file reads the fields of an HAProxy line for the fast path
// (haproxy_fast.go), each the byte-reading twin of a part of haproxy.go.

// timers is haproxyTimers: "TR/Tw/Tc/Tr/Ta" (four slashes, checked).
func (d *haproxyFast) timers(field []byte, start int64) bool {
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

// haproxyTimer reads a timer as haproxyTimers does (one '+' dropped, then
// an integer of at least -1) when it is "+"?"-"?digits; ok is false for
// anything else, which the general route reads or rejects.
func haproxyTimer(b []byte) (int64, bool) {
	if len(b) > 0 && b[0] == '+' {
		b = b[1:]
	}
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	v, ok := textscan.Digits(b)
	if neg {
		v = -v
	}
	return v, ok && v >= -1
}

// status is haproxyEvent's status: digits, or "-" and digits (no status).
func (d *haproxyFast) status(b []byte) bool {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	code, ok := textscan.Digits(b)
	if !ok || len(b) > 9 {
		return false
	}
	if !neg && code > 0 {
		d.ev.Status = d.arena.Int32(int32(code))
	}
	return true
}

// tail is haproxyTail: captured headers, the request line and an appended
// unique id. RequestID and TraceID share one allocation. It reports false
// where white space other than ASCII may be trimmed.
func (d *haproxyFast) tail(rest []byte) bool {
	ev := &d.ev
	_, rest, _ = bytes.Cut(rest, []byte(" ")) // srv_queue/backend_queue
	var rid []byte
	var tid decode.TraceID
	ok := true
	rest, ok = haproxyTrimLeft(rest)
	for first := true; ok && len(rest) > 0 && rest[0] == '{'; first = false {
		end := bytes.IndexByte(rest, '}')
		if end < 0 {
			break
		}
		if first && !haproxyCapturedIDs(rest[1:end], &rid, &tid) {
			return false
		}
		rest, ok = haproxyTrimLeft(rest[end+1:])
	}
	if !ok {
		return false
	}
	if len(rest) > 0 && rest[0] == '"' {
		req, trailing := rest[1:], []byte(nil)
		if last := bytes.LastIndexByte(rest, '"'); last > 0 {
			req = rest[1:last]
			if trailing, ok = haproxyTrimLeft(rest[last+1:]); !ok {
				return false
			}
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
	return true
}

// haproxyTrimLeft drops leading ASCII white space from s, the end of the
// line (which the caller checked is not white space); ok is false when a
// non-ASCII byte follows, which strings.TrimSpace may trim too.
func haproxyTrimLeft(s []byte) ([]byte, bool) {
	for len(s) > 0 && textscan.ASCIISpace(s[0]) {
		s = s[1:]
	}
	return s, len(s) == 0 || s[0] < 0x80
}

// request sets the endpoint and method from the quoted request line.
func (d *haproxyFast) request(req []byte) {
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

// haproxyCapturedIDs is haproxyCaptured: a UUID gives the request id (the
// first), a traceparent the trace id (the last, even when it gives "").
// It reports false for a header with non-ASCII ends, which strings.TrimSpace
// may trim.
func haproxyCapturedIDs(captured []byte, rid *[]byte, tid *decode.TraceID) bool {
	for rest, more := captured, true; more; {
		h := rest
		if i := bytes.IndexByte(rest, '|'); i >= 0 {
			h, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		for len(h) > 0 && textscan.ASCIISpace(h[0]) {
			h = h[1:]
		}
		for len(h) > 0 && textscan.ASCIISpace(h[len(h)-1]) {
			h = h[:len(h)-1]
		}
		if len(h) > 0 && (h[0] >= 0x80 || h[len(h)-1] >= 0x80) {
			return false
		}
		switch {
		case haproxyIsTraceparent(h):
			tid.N = 0
			tid.Set(h, true)
		case haproxyIsUUID(h) && *rid == nil:
			*rid = h
		}
	}
	return true
}

// haproxyIsTraceparent reports whether h matches haproxyTraceparent.
func haproxyIsTraceparent(h []byte) bool {
	return len(h) == 55 && h[2] == '-' && h[35] == '-' && h[52] == '-' &&
		lowerHex(h[:2]) && lowerHex(h[3:35]) && lowerHex(h[36:52]) && lowerHex(h[53:])
}

// haproxyIsUUID reports whether h matches haproxyUUID.
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

// classify is haproxyClassify.
func (d *haproxyFast) classify(state []byte) {
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
