package decode

import (
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// Ptr returns a pointer to v, for the nullable fields of schema.Event.
func Ptr[T any](v T) *T { return &v }

// ErrorClass maps an HTTP status to its error class (schema.Error*):
// 429 is rate_limited, 408 and 504 timeout, 499 (client closed the
// connection, nginx) interrupted, other 4xx client_error, 5xx server_error,
// anything else none.
func ErrorClass(status int) string {
	switch {
	case status == 429:
		return schema.ErrorRateLimited
	case status == 408 || status == 504:
		return schema.ErrorTimeout
	case status == 499:
		return schema.ErrorInterrupted
	case status >= 400 && status < 500:
		return schema.ErrorClient
	case status >= 500 && status < 600:
		return schema.ErrorServer
	}
	return schema.ErrorNone
}

// NormalizeTraceID returns a W3C trace id as 32 lowercase hex digits, taking
// "0x…" prefixes, dashes and case away; it returns "" for an id that is not
// 32 hex digits or is all zeros.
func NormalizeTraceID(s string) string { return NormalizeHexID(s, 32) }

// NormalizeSpanID is NormalizeTraceID for 16-digit span ids.
func NormalizeSpanID(s string) string { return NormalizeHexID(s, 16) }

func NormalizeHexID(s string, digits int) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	s = strings.ReplaceAll(s, "-", "")
	if len(s) != digits {
		return ""
	}
	zero := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
		default:
			return ""
		}
		if c != '0' {
			zero = false
		}
	}
	if zero {
		return ""
	}
	return strings.ToLower(s)
}

// TraceIDFromTraceparent returns the trace id of a W3C traceparent header
// ("00-<32 hex>-<16 hex>-<2 hex>"), or "".
func TraceIDFromTraceparent(h string) string {
	parts := strings.Split(strings.TrimSpace(h), "-")
	if len(parts) < 4 {
		return ""
	}
	return NormalizeTraceID(parts[1])
}

// EndpointPath returns the path of a request target, without query or
// fragment: "/v1/chat/completions?x=1" gives "/v1/chat/completions".
func EndpointPath(target string) string {
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	return target
}

// TruncateDetail shortens a value quoted in a reject detail to about 80 bytes.
func TruncateDetail(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Emit reports one decoded record at at to sink: a skip when skip is set, a
// reject at at when reason is set, else the event, stamped with its input
// and line.
func Emit(in *Input, sink Sink, at Pos, raw []byte, ev *schema.Event, skip, reason, detail string) {
	line := at.Line
	switch {
	case skip != "":
		sink.Skip(line, skip)
	case reason != "":
		sink.Reject(at, reason, TruncateDetail(detail))
	default:
		ev.InputFile, ev.InputLine = in.Name, line
		sink.Event(line, raw, ev)
	}
}

// OnWallClock sets what every record of a wall-clock log shares: format,
// source and the input's host. It returns ev, which may be nil.
func OnWallClock(ev *schema.Event, in *Input, format, source string) *schema.Event {
	if ev != nil {
		ev.Format, ev.Source, ev.Host, ev.Clock = format, source, in.Host, schema.ClockWall
	}
	return ev
}
