// Package haproxy reads HAProxy httplog lines: the decoder is Format,
// whose doc says which instant each field marks.
package haproxy

import (
	"regexp"
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
//
// A reject's column is the byte column of the offending field in its line
// (the date inside its brackets, the timers, the status), or of the line's
// first non-blank byte when the line does not fit the format.
type Format struct{}

func (Format) Name() string   { return "haproxy" }
func (Format) Source() string { return schema.SourceProxy }
func (Format) Describe() string {
	return "HAProxy option httplog (1.7+ TR/Tw/Tc/Tr/Ta or older Tq/Tw/Tc/Tr/Tt): start, queue, connect, time to upstream headers, end; no body or token times"
}

// haproxyHTTPSniff is a full httplog head: date, frontend, backend/server
// and five timers.
var haproxyHTTPSniff = regexp.MustCompile(`\S+:\d+ \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3}\] \S+ \S+/\S+ -?\d+/-?\d+/-?\d+/-?\d+/\+?-?\d+ -?\d+ `)

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

// LineRecords reports that every log line is a record of its own, so the
// driver may decode a large log in blocks.
func (Format) LineRecords(head []byte) bool { return true }

// Decode reads one log line per record.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	loc := in.Opts.TZ
	if loc == nil {
		loc = time.UTC
	}
	d := &haproxyReader{loc: loc}
	return decode.ReadRecordsByLine(in.R, sink, func(line int64, text []byte) {
		d.line(in, sink, line, text)
	})
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
