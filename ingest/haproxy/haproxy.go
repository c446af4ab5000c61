// Package haproxy reads HAProxy httplog lines: the decoder is Format,
// whose doc says which instant each field marks.
package haproxy

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes HAProxy "option httplog" lines (proxy source), with or
// without a syslog prefix. Fields, from HAProxy's configuration manual,
// section 8.2.3 "HTTP log format" and 8.4 "Timing events":
//
//	client_ip:port [request_date] frontend backend/server TR/Tw/Tc/Tr/Ta
//	status bytes_read req_cookie resp_cookie termination_state
//	actconn/feconn/beconn/srv_conn/retries srv_queue/backend_queue
//	[{captured request headers}] [{captured response headers}] "request"
//
// The fields and the instants they mark:
//
//   - request_date (%tr, 1.7+): the exact date the first byte of the HTTP
//     request was received → start. It carries no zone: it is read in
//     decode.Options.TZ (UTC when nil). Before 1.7 the field is accept_date, when
//     the connection was accepted; it is used as start too (for a new
//     connection the two differ by the client's send delay only).
//   - TR (1.7+; Tq before): ms from that first byte to the end of the request
//     headers. Tw: ms queued → QueueNs. Tc: ms connecting to the server
//     (retries included) → ConnectNs. Tr: ms waiting for the server's full
//     response headers. So headers = start + TR + Tw + Tc + Tr, the instant
//     the upstream response headers were complete.
//   - Ta (1.7+): ms from the first request byte to the last response byte
//     sent → end = start + Ta. Tt (before 1.7) ends at the connection close
//     and is used the same way. Under "option logasap" Ta carries a '+': the
//     log was written before the end, so end is unknown (nil).
//   - A timer of -1 marks a phase never reached: instants after it are nil.
//   - termination_state, first letter (who ended the session): C client
//     abort → interrupted, c client timeout and s server timeout → timeout,
//     S server abort, R resource, I internal error, D server down →
//     server_error, K killed by admin → interrupted; '-' (normal), P, L and
//     others take the class of the status.
//
// Unique ids (%ID): HAProxy's httplog format has no id field. We take it
// from a field appended after the quoted request (log-format
// "${HAPROXY_HTTP_LOG_FMT} %ID", the documented way to add fields: after
// everything else) → RequestID, or else from a captured request header
// that is a UUID (capture request header X-Request-ID); a captured W3C
// traceparent gives TraceID. tcplog lines (Tw/Tc/Tt) and the legacy
// "Connect from" lines are skips.
type Format struct{}

func (Format) Name() string   { return "haproxy" }
func (Format) Source() string { return schema.SourceProxy }
func (Format) Describe() string {
	return "HAProxy option httplog (1.7+ TR/Tw/Tc/Tr/Ta or older Tq/Tw/Tc/Tr/Tt): start, queue, connect, time to upstream headers, end; no body or token times"
}

// haproxyHead finds "client:port [dd/Mon/yyyy:hh:mm:ss.mmm] " in a line.
var haproxyHead = regexp.MustCompile(`(\S+):(\d+) \[(\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3})\] `)

// haproxyHTTPSniff is a full httplog head: date, frontend, backend/server
// and five timers.
var haproxyHTTPSniff = regexp.MustCompile(`\S+:\d+ \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3}\] \S+ \S+/\S+ -?\d+/-?\d+/-?\d+/-?\d+/\+?-?\d+ -?\d+ `)

var (
	haproxyUUID        = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	haproxyTraceparent = regexp.MustCompile(`^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$`)
)

// Sniff claims an input when one of its first lines is a full httplog line.
func (Format) Sniff(head []byte) bool {
	lines := strings.SplitN(string(head), "\n", 12)
	if len(head) >= decode.SniffSize || len(lines) == 12 {
		lines = lines[:len(lines)-1] // the last one may be cut
	}
	for _, l := range lines {
		if haproxyHTTPSniff.MatchString(l) {
			return true
		}
	}
	return false
}

// Decode reads one log line per record.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	return haproxyDecode(in, sink, true)
}

// haproxyDecode is Decode, by the fast path (haproxy_fast.go) when fast is
// set and it takes the line, else by haproxyLine.
func haproxyDecode(in *decode.Input, sink decode.Sink, fast bool) error {
	loc := in.Opts.TZ
	if loc == nil {
		loc = time.UTC
	}
	f := &haproxyFast{loc: loc}
	return decode.ReadRecordsByLine(in.R, sink, func(line int64, text []byte) {
		if !fast || !f.line(in, sink, line, text) {
			haproxyLine(in, sink, line, text, loc)
		}
	})
}

// haproxyLine decodes one line by the general route.
func haproxyLine(in *decode.Input, sink decode.Sink, line int64, text []byte, loc *time.Location) {
	s := strings.TrimSpace(string(text))
	if s == "" {
		sink.Skip(line, "blank line")
		return
	}
	ev, skip, reason, detail := haproxyEvent(s, loc)
	decode.Emit(in, sink, line, text, decode.OnWallClock(ev, in, "haproxy", schema.SourceProxy), skip, reason, detail)
}

// haproxyEvent decodes one line; it returns a skip reason for lines that are
// not HTTP request logs, or a reject reason and detail.
func haproxyEvent(s string, loc *time.Location) (ev *schema.Event, skip, reason, detail string) {
	m := haproxyHead.FindStringSubmatchIndex(s)
	if m == nil {
		if strings.Contains(s, "Connect from ") || strings.Contains(s, "haproxy[") {
			return nil, "not an HTTP request log line", "", ""
		}
		return nil, "", "format mismatch", s
	}
	date := s[m[6]:m[7]]
	t, err := time.ParseInLocation("02/Jan/2006:15:04:05.000", date, loc)
	if err != nil {
		return nil, "", "bad timestamp", date
	}
	f := strings.SplitN(s[m[1]:], " ", 10)
	if len(f) >= 3 && strings.Count(f[2], "/") == 2 {
		return nil, "tcp log line (not an HTTP request)", "", ""
	}
	if len(f) < 10 || strings.Count(f[2], "/") != 4 || !strings.Contains(f[1], "/") {
		return nil, "", "format mismatch", s
	}
	ev = &schema.Event{StartNs: decode.Ptr(t.UnixNano())}
	if r, d := haproxyTimers(ev, f[2]); r != "" {
		return nil, "", r, d
	}
	if code, err := strconv.Atoi(f[3]); err != nil {
		return nil, "", "bad status", f[3]
	} else if code > 0 {
		ev.Status = decode.Ptr(int32(code))
	}
	backend, server, _ := strings.Cut(f[1], "/")
	decode.SetAttr(ev, "frontend", f[0])
	decode.SetAttr(ev, "backend", backend)
	decode.SetAttr(ev, "server", server)
	decode.SetAttr(ev, "termination_state", f[7])
	haproxyTail(ev, f[9])
	haproxyClassify(ev, f[7])
	return ev, "", "", ""
}

// haproxyTimers reads "TR/Tw/Tc/Tr/Ta" and sets the instants and phases.
func haproxyTimers(ev *schema.Event, field string) (string, string) {
	parts := strings.Split(field, "/")
	var ms [5]int64
	logasap := strings.HasPrefix(parts[4], "+")
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimPrefix(p, "+"), 10, 64)
		if err != nil || v < -1 {
			return "bad timer", field
		}
		ms[i] = v
	}
	const msNs = int64(time.Millisecond)
	start := *ev.StartNs
	if ms[1] >= 0 {
		ev.QueueNs = decode.Ptr(ms[1] * msNs)
	}
	if ms[2] >= 0 {
		ev.ConnectNs = decode.Ptr(ms[2] * msNs)
	}
	if ms[0] >= 0 && ms[1] >= 0 && ms[2] >= 0 && ms[3] >= 0 {
		ev.HeadersNs = decode.Ptr(start + (ms[0]+ms[1]+ms[2]+ms[3])*msNs)
	}
	if ms[4] >= 0 && !logasap {
		ev.EndNs = decode.Ptr(start + ms[4]*msNs)
	}
	if logasap {
		decode.SetAttr(ev, "logasap", "true")
	}
	return "", ""
}

// haproxyTail reads what follows the queue counters: captured headers in
// braces, the quoted request line and an appended unique id.
func haproxyTail(ev *schema.Event, rest string) {
	_, rest, _ = strings.Cut(rest, " ") // srv_queue/backend_queue
	rest = strings.TrimSpace(rest)
	for first := true; strings.HasPrefix(rest, "{"); first = false {
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			break
		}
		if first {
			haproxyCaptured(ev, rest[1:end])
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	if !strings.HasPrefix(rest, `"`) {
		return
	}
	req, trailing := rest[1:], ""
	if last := strings.LastIndexByte(rest, '"'); last > 0 {
		req, trailing = rest[1:last], strings.TrimSpace(rest[last+1:])
	}
	method, target, _ := strings.Cut(req, " ")
	target, _, _ = strings.Cut(target, " ")
	if i := strings.Index(target, "://"); i >= 0 {
		target = target[i+3:]
		if j := strings.IndexByte(target, '/'); j >= 0 {
			target = target[j:]
		} else {
			target = "/"
		}
	}
	if strings.HasPrefix(target, "/") {
		ev.Endpoint = decode.EndpointPath(target)
	}
	decode.SetAttr(ev, "method", method)
	if id, _, _ := strings.Cut(trailing, " "); id != "" && id != "-" {
		ev.RequestID = id
	}
}

// haproxyCaptured looks for ids among the captured request headers.
func haproxyCaptured(ev *schema.Event, captured string) {
	for _, h := range strings.Split(captured, "|") {
		h = strings.TrimSpace(h)
		switch {
		case haproxyTraceparent.MatchString(h):
			ev.TraceID = decode.TraceIDFromTraceparent(h)
		case haproxyUUID.MatchString(h) && ev.RequestID == "":
			ev.RequestID = h
		}
	}
}

// haproxyClassify sets the error class from the termination state's first
// letter, falling back on the status, and whether the response completed.
func haproxyClassify(ev *schema.Event, state string) {
	haproxyError(ev, state)
	if (ev.Status != nil || ev.Error != "") && ev.Attrs["logasap"] == "" {
		ev.Completed = decode.Ptr(ev.Error == schema.ErrorNone)
	}
}

// haproxyError sets ev.Error from the termination state's first letter
// (client abort, timeout, server side), else from the status.
func haproxyError[S ~string | ~[]byte](ev *schema.Event, state S) {
	var c byte = '-'
	if len(state) > 0 {
		c = state[0]
	}
	switch c {
	case 'C', 'K':
		ev.Error = schema.ErrorInterrupted
	case 'c', 's':
		ev.Error = schema.ErrorTimeout
	case 'S', 'R', 'I', 'D':
		ev.Error = schema.ErrorServer
	}
	if ev.Error == "" && ev.Status != nil {
		ev.Error = decode.ErrorClass(int(*ev.Status))
	}
}
