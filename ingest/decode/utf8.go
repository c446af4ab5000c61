package decode

import (
	"strings"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/schema"
)

// ReplaceInvalidUTF8 replaces each invalid UTF-8 sequence in ev's text
// fields by U+FFFD, so that a stray byte in a log line keeps its record
// (with the spot marked) and every stored string is valid UTF-8, as Parquet
// strings and DuckDB want. It allocates only for a field that is invalid;
// Attrs, which may be shared between events, is replaced by a corrected
// copy, and OtherIDs is changed in place (the caller owns it).
func ReplaceInvalidUTF8(ev *schema.Event) {
	for _, s := range []*string{&ev.Source, &ev.Format, &ev.Host, &ev.Clock, &ev.RequestID, &ev.TraceID,
		&ev.SpanID, &ev.ResponseID, &ev.Model, &ev.Endpoint, &ev.Error, &ev.PromptTokensSource,
		&ev.OutputTokensSource, &ev.InputFile} {
		*s = validUTF8(*s)
	}
	for i, s := range ev.OtherIDs {
		ev.OtherIDs[i] = validUTF8(s)
	}
	for k, v := range ev.Attrs {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			ev.Attrs = validAttrs(ev.Attrs)
			break
		}
	}
}

// validUTF8 is s with each invalid UTF-8 sequence replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// validAttrs returns a copy of attrs with its keys and values made valid.
func validAttrs(attrs map[string]string) map[string]string {
	out := make(map[string]string, len(attrs))
	for k, v := range attrs {
		out[validUTF8(k)] = validUTF8(v)
	}
	return out
}
