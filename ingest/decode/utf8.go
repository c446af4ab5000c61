package decode

import (
	"strings"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/schema"
)

// ReplaceInvalidUTF8 replaces each invalid UTF-8 sequence in ev's text
// fields read from a record (host, ids, model, endpoint) by U+FFFD, so that a stray byte in a log line keeps its record
// (with the spot marked) and every stored string is valid UTF-8, as Parquet
// strings and DuckDB want. It allocates only for a field that is invalid;
// OtherIDs is changed in place (the caller owns it). Attrs is left to
// ValidAttrs, which the sink calls once per distinct map.
func ReplaceInvalidUTF8(ev *schema.Event) {
	for _, s := range []*string{&ev.Host, &ev.RequestID, &ev.TraceID, &ev.SpanID, &ev.ResponseID, &ev.Model, &ev.Endpoint} {
		if !utf8.ValidString(*s) {
			*s = strings.ToValidUTF8(*s, "\uFFFD")
		}
	}
	for i, s := range ev.OtherIDs {
		ev.OtherIDs[i] = validUTF8(s)
	}
}

// validUTF8 is s with each invalid UTF-8 sequence replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// ValidAttrs returns attrs when its keys and values are valid UTF-8, else a
// copy with each invalid sequence replaced by U+FFFD (attrs is not changed:
// it may be shared between events).
func ValidAttrs(attrs map[string]string) map[string]string {
	valid := true
	for k, v := range attrs {
		valid = valid && utf8.ValidString(k) && utf8.ValidString(v)
	}
	if valid {
		return attrs
	}
	out := make(map[string]string, len(attrs))
	for k, v := range attrs {
		out[validUTF8(k)] = validUTF8(v)
	}
	return out
}
