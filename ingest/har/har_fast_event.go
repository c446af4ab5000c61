package har

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// harBox holds the values an event of the fast path points to, one
// allocation per event. Each pointer field of the event has its own slot,
// overwritten when the general route would have pointed it elsewhere.
type harBox struct {
	start, headers, end, prompt, output int64
	status                              int32
	stream, completed                   bool
}

// event builds the event of the entry in f.e, or its skip or reject
// reason, as harEntry.event does; ok is false when the entry needs the
// general route.
func (f *harFast) event() (ev *schema.Event, skip, reason, detail string, ok bool) {
	u, ok1 := f.text(f.e.url)
	started, ok2 := f.text(f.e.started)
	if !ok1 || !ok2 {
		return nil, "", "", "", false
	}
	path, ok := harURLPath(u)
	if !ok {
		return nil, "", "bad url", string(u), true
	}
	if !harLLMPathBytes(path, f.endpoints) {
		return nil, "not an LLM endpoint", "", "", true
	}
	start, err := harStartNs(started)
	if err != nil {
		return nil, "", textscan.TimeReason(err, "bad timestamp"), string(started), true
	}
	box := &harBox{start: start}
	ev = &f.ev
	*ev = schema.Event{StartNs: &box.start, Endpoint: f.intern(path)}
	if r, d := f.instants(ev, box); r != "" {
		return nil, "", r, d, true
	}
	f.ids(ev)
	if !f.requestBody(ev, box) {
		return nil, "", "", "", false
	}
	if f.e.status > 0 {
		box.status = int32(f.e.status)
		ev.Status = &box.status
		ev.Error = decode.ErrorClass(int(f.e.status))
	} else {
		ev.Error, ev.Completed = schema.ErrorInterrupted, &box.completed
	}
	if !f.responseBody(ev, box) {
		return nil, "", "", "", false
	}
	return ev, "", "", "", true
}

// harLLMPathBytes is harLLMPath for a path's bytes.
func harLLMPathBytes(path []byte, endpoints []string) bool {
	for _, p := range endpoints {
		if p != "" && len(path) >= len(p) && string(path[len(path)-len(p):]) == p {
			return true
		}
	}
	return false
}

// instants sets headers and end from the timings as harEntry.instants
// does.
func (f *harFast) instants(ev *schema.Event, box *harBox) (string, string) {
	var sum, beforeHeaders int64
	for k, v := range f.e.timings {
		if v == nil {
			continue
		}
		ns, ok := textscan.DecimalScaledBytes(v, 6)
		if !ok || ns < -1e6 {
			return "bad timing", harTimingNames[k] + "=" + string(v)
		}
		if ns < 0 {
			continue
		}
		sum += ns
		if k != 5 { // receive
			beforeHeaders += ns
		}
	}
	if w := f.e.timings[4]; w != nil && f.e.status > 0 {
		if ns, ok := textscan.DecimalScaledBytes(w, 6); ok && ns >= 0 {
			box.headers = box.start + beforeHeaders
			ev.HeadersNs = &box.headers
		}
	}
	if f.e.time != nil {
		total, ok := textscan.DecimalScaledBytes(f.e.time, 6)
		if !ok || total < 0 {
			return "bad timing", "time=" + string(f.e.time)
		}
		sum = total
	}
	box.end = box.start + sum
	ev.EndNs = &box.end
	return "", ""
}

// ids sets the ids of the request and response headers as harEntry.ids
// does.
func (f *harFast) ids(ev *schema.Event) {
	for _, h := range f.e.reqH {
		if h.kind == harHdrRequestID {
			ev.RequestID = string(h.val)
		} else {
			ev.TraceID = harTraceID(h.val)
		}
	}
	for _, h := range f.e.respH {
		if ev.RequestID == "" {
			ev.RequestID = string(h.val)
		} else if string(h.val) != ev.RequestID {
			ev.OtherIDs = append(ev.OtherIDs, string(h.val))
		}
	}
}

// harTraceID is decode.TraceIDFromTraceparent for the header value's bytes, with
// one allocation (the id) where that takes three.
func harTraceID(h []byte) string {
	h = bytes.TrimSpace(h)
	d1 := bytes.IndexByte(h, '-')
	if d1 < 0 {
		return ""
	}
	d2 := bytes.IndexByte(h[d1+1:], '-')
	if d2 < 0 || bytes.IndexByte(h[d1+1+d2+1:], '-') < 0 {
		return "" // fewer than four parts
	}
	p := h[d1+1 : d1+1+d2]
	p = bytes.TrimPrefix(bytes.TrimPrefix(p, []byte("0x")), []byte("0X"))
	if len(p) != 32 {
		return ""
	}
	var id [32]byte
	zero := true
	for i, c := range p {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			c += 'a' - 'A'
		default:
			return ""
		}
		id[i], zero = c, zero && c == '0'
	}
	if zero {
		return ""
	}
	return string(id[:])
}

// harHeaderKind returns the kind of id header named name (0 for none): in
// a request x-request-id and traceparent, in a response x-request-id,
// request-id and x-litellm-call-id, matched as strings.ToLower does.
func harHeaderKind(name []byte, resp bool) int {
	if len(name) < 10 {
		return 0 // a name lowering to one of these has at least as many bytes
	}
	for _, c := range name {
		if c >= 0x80 {
			return harHeaderKindString(strings.ToLower(string(name)), resp)
		}
	}
	if len(name) > 17 {
		return 0 // only for ASCII: U+0130 (two bytes) lowers to 'i'
	}
	switch {
	case bytes.EqualFold(name, []byte("x-request-id")):
		return harHdrRequestID
	case !resp && bytes.EqualFold(name, []byte("traceparent")):
		return harHdrTraceparent
	case resp && (bytes.EqualFold(name, []byte("request-id")) || bytes.EqualFold(name, []byte("x-litellm-call-id"))):
		return harHdrRequestID
	}
	return 0
}

// harHeaderKindString is harHeaderKind for a name already lowered.
func harHeaderKindString(name string, resp bool) int {
	switch {
	case name == "x-request-id":
		return harHdrRequestID
	case !resp && name == "traceparent":
		return harHdrTraceparent
	case resp && (name == "request-id" || name == "x-litellm-call-id"):
		return harHdrRequestID
	}
	return 0
}

// harURLPath returns the path url.Parse gives for u, and false when
// url.Parse fails.
func harURLPath(u []byte) ([]byte, bool) {
	if p, ok := harPlainURLPath(u); ok {
		return p, true
	}
	parsed, err := url.Parse(string(u))
	if err != nil {
		return nil, false
	}
	return []byte(parsed.Path), true
}

// harHostByte marks the bytes of a host name the plain shape allows:
// letters, digits, '.', '-', '_' and '~' (none of which url.Parse escapes
// or rejects in a host).
var harHostByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(".-_~", byte(c)) >= 0
	}
	return t
}()

// harPlainURLPath reads the usual shape scheme://host[:port][/path][?query]
// whose path url.Parse returns unchanged: a scheme of letters, a host of
// harHostByte, a port of digits, no '%' in the path, no '#', no control
// byte. ok is false for any other shape, which goes to url.Parse.
func harPlainURLPath(u []byte) ([]byte, bool) {
	i := 0
	for i < len(u) && (u[i]|0x20 >= 'a' && u[i]|0x20 <= 'z') {
		i++
	}
	if i == 0 || len(u)-i < 3 || string(u[i:i+3]) != "://" {
		return nil, false
	}
	i += 3
	host := i
	for i < len(u) && harHostByte[u[i]] {
		i++
	}
	if i == host {
		return nil, false
	}
	if i < len(u) && u[i] == ':' {
		for i++; i < len(u) && u[i] >= '0' && u[i] <= '9'; i++ {
		}
	}
	if i < len(u) && u[i] != '/' && u[i] != '?' {
		return nil, false
	}
	p := i
	for ; i < len(u) && u[i] != '?'; i++ {
		if c := u[i]; c < 0x20 || c == 0x7f || c == '%' || c == '#' {
			return nil, false
		}
	}
	path := u[p:i]
	for ; i < len(u); i++ {
		if c := u[i]; c < 0x20 || c == 0x7f || c == '#' {
			return nil, false
		}
	}
	return path, true
}
