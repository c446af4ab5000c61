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
//
// Text that is all ASCII, as nearly always, is checked eight bytes at a
// time (asciiText) before utf8.ValidString looks at any field: its call
// per field was 1.8% of a 1 GB OTLP ingest's instructions.
func ReplaceInvalidUTF8(ev *schema.Event) {
	if !asciiText(ev.Host) || !asciiText(ev.RequestID) || !asciiText(ev.TraceID) || !asciiText(ev.SpanID) ||
		!asciiText(ev.ResponseID) || !asciiText(ev.Model) || !asciiText(ev.Endpoint) {
		for _, s := range []*string{&ev.Host, &ev.RequestID, &ev.TraceID, &ev.SpanID, &ev.ResponseID, &ev.Model, &ev.Endpoint} {
			if !utf8.ValidString(*s) {
				*s = strings.ToValidUTF8(*s, "\uFFFD")
			}
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

// asciiText reports whether s is all ASCII (and so valid UTF-8), eight
// bytes at a time, the last eight overlapping the ones before.
func asciiText(s string) bool {
	const highs = 0x8080808080808080
	if len(s) < 8 {
		var or byte
		for i := range len(s) {
			or |= s[i]
		}
		return or < utf8.RuneSelf
	}
	var or uint64
	for i := 0; i+8 <= len(s); i += 8 {
		or |= word(s, i)
	}
	return (or|word(s, len(s)-8))&highs == 0
}

// word returns the eight bytes of s at i, little-endian.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
