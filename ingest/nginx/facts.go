package nginx

import (
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones, for the log_format of opts (the default combined and common formats
// included). With $msec the end is the log time truncated to the ms, and
// start = $msec − $request_time, where nginx computes $request_time from
// the same truncated clock, so start is the true start truncated to the
// ms: both within [−1 ms, 0]. Without $msec the end comes from $time_local
// or $time_iso8601, truncated to the second: end within [−1 s, 0], start
// within [−1 s − 1 ms, 0]. nginx logs no first token; its range is the
// end's. A line whose $msec is "-" falls back to the second (the event's
// attrs["time_resolution"] says so); the input's facts assume $msec.
func (Format) InstantErrors(opts decode.Options) schema.InstantErrors {
	ms := schema.Truncated(1_000_000)
	if logsVariable(opts.LogFormat, "msec") {
		return schema.SameErrors(ms)
	}
	s := schema.Truncated(1_000_000_000)
	return schema.InstantErrors{Start: s.Plus(ms), First: s, End: s}
}

// logsVariable reports whether the log_format spec uses $name or ${name}.
func logsVariable(spec, name string) bool {
	for rest := spec; ; {
		k := strings.IndexByte(rest, '$')
		if k < 0 {
			return false
		}
		rest = rest[k+1:]
		if strings.HasPrefix(rest, "{"+name+"}") {
			return true
		}
		if v, ok := strings.CutPrefix(rest, name); ok && (v == "" || !isVariableByte(v[0])) {
			return true
		}
	}
}

// isVariableByte reports whether b may continue an nginx variable name.
func isVariableByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
