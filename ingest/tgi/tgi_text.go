package tgi

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// This file parses the text form of the TGI router log (see tgi.go).

// tgiFileLine matches the "router/src/server.rs:598: " prefix of a message.
var tgiFileLine = regexp.MustCompile(`^\S+:\d+: `)

// tgiParseText parses one ANSI-free text line:
// "<time> <LEVEL> <span chain>: <target>: <file>:<line>: <message>", where
// the span chain and file:line are optional. It reports false for a line that
// does not start with an RFC 3339 time and a level (a continuation line).
func tgiParseText(text string) (tgiRecord, bool) {
	ts, rest, ok := strings.Cut(strings.TrimLeft(text, " \t"), " ")
	t, err := time.Parse(time.RFC3339Nano, ts)
	if !ok || err != nil {
		return tgiRecord{}, false
	}
	level, rest, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	switch level {
	case "TRACE", "DEBUG", "INFO", "WARN", "ERROR":
	default:
		return tgiRecord{}, false
	}
	rec := tgiRecord{time: t, level: level}
	rest = strings.TrimLeft(rest, " ")
	end, target := tgiChainEnd(rest)
	if end < 0 {
		rec.message = rest
		return rec, true
	}
	if !target {
		rec.spans = tgiParseChain(rest[:end])
		rest = rest[end+2:]
		// Drop the target that follows the chain.
		if tgt, msg, ok := strings.Cut(rest, ": "); ok && !strings.Contains(tgt, " ") {
			rest = msg
		}
	} else {
		rest = rest[end+2:]
	}
	rec.message = tgiFileLine.ReplaceAllString(rest, "")
	return rec, true
}

// tgiChainEnd returns the index of the first ": " outside braces and quotes,
// or -1, and whether the text before it is a target ("a::b") rather than a
// span chain.
func tgiChainEnd[S ~string | ~[]byte](s S) (int, bool) {
	depth, target := 0, false
	for i := 0; i < len(s); i++ {
		for i < len(s) && !tgiBracketSpecial[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		switch c := s[i]; {
		case c == '"' && depth > 0:
			i += tgiQuotedLen(s[i:]) - 1
		case c == '{' || c == '(' || c == '[':
			depth++
		case (c == '}' || c == ')' || c == ']') && depth > 0:
			depth--
		case c == ':' && depth == 0 && i+1 < len(s) && s[i+1] == ':':
			target = true
			i++
		case c == ':' && depth == 0 && i+1 < len(s) && s[i+1] == ' ':
			return i, target
		}
	}
	return -1, false
}

// tgiSpecial marks the bytes the chain and value scanners act on: quotes,
// brackets, ':' and ' '; runs of other bytes are skipped a byte a step.
var tgiSpecial = func() (t [256]bool) {
	for _, c := range []byte(`"{([})]: `) {
		t[c] = true
	}
	return t
}()

// tgiBracketSpecial is tgiSpecial without the space, for the chain
// scanners, where a space ends nothing; tgiValueSpecial is it without ':',
// for tgiValueLen, and tgiNestedSpecial without either, for tgiValueLen
// inside brackets.
var (
	tgiBracketSpecial = tgiSpecialWithout(' ')
	tgiValueSpecial   = tgiSpecialWithout(':')
	tgiNestedSpecial  = tgiSpecialWithout(' ', ':')
)

func tgiSpecialWithout(cs ...byte) [256]bool {
	t := tgiSpecial
	for _, c := range cs {
		t[c] = false
	}
	return t
}

// tgiParseChain splits "HTTP request{…}:generate_stream{…}" into spans.
func tgiParseChain(chain string) []tgiSpan {
	var spans []tgiSpan
	for chain != "" {
		end := tgiSpanEnd(chain)
		spans = append(spans, tgiParseSpan(chain[:end]))
		chain = chain[min(end+1, len(chain)):]
	}
	return spans
}

// tgiSpanEnd returns the index of the ':' that ends chain's first span (one
// outside braces and outside quoted values inside them), or len(chain).
func tgiSpanEnd[S ~string | ~[]byte](chain S) int {
	depth := 0
	for i := 0; i < len(chain); i++ {
		for i < len(chain) && !tgiBracketSpecial[chain[i]] {
			i++ // bytes that open, close or split nothing
		}
		if i == len(chain) {
			break
		}
		switch c := chain[i]; {
		case c == '"' && depth > 0:
			i += tgiQuotedLen(chain[i:]) - 1
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case c == ':' && depth == 0:
			return i
		}
	}
	return len(chain)
}

// tgiParseSpan parses "name{key=value …}" or "name".
func tgiParseSpan(s string) tgiSpan {
	sp := tgiSpan{fields: map[string]string{}}
	open := strings.IndexByte(s, '{')
	if open < 0 || !strings.HasSuffix(s, "}") {
		sp.name = s
		return sp
	}
	sp.name = s[:open]
	body := s[open+1 : len(s)-1]
	for body = strings.TrimLeft(body, " "); body != ""; body = strings.TrimLeft(body, " ") {
		eq := strings.IndexByte(body, '=')
		if eq <= 0 {
			break
		}
		key := body[:eq]
		body = body[eq+1:]
		n := tgiValueLen(body)
		sp.fields[key] = tgiUnquote(body[:n])
		body = body[n:]
	}
	return sp
}

// tgiValueLen returns the length of the field value at the start of s: a
// quoted string, or text up to a space (outside brackets and quotes) that is
// followed by the next "key=".
func tgiValueLen[S ~string | ~[]byte](s S) int {
	if len(s) > 0 && s[0] == '"' {
		return tgiQuotedLen(s)
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		skip := &tgiValueSpecial // inside brackets spaces end nothing
		if depth > 0 {
			skip = &tgiNestedSpecial
		}
		for i < len(s) && !skip[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		switch c := s[i]; {
		case c == '"':
			i += tgiQuotedLen(s[i:]) - 1
		case c == '{' || c == '(' || c == '[':
			depth++
		case (c == '}' || c == ')' || c == ']') && depth > 0:
			depth--
		case c == ' ' && depth == 0 && tgiFieldStart(s[i+1:]):
			return i
		}
	}
	return len(s)
}

// tgiFieldStart reports whether s starts with "key=", key being a field name
// like "total_time" or "otel.name".
func tgiFieldStart[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=':
			return i > 0
		case c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return false
}

// tgiQuotedLen returns the length of the double-quoted string at the start of
// s, quotes included, honouring backslash escapes; len(s) when unterminated.
func tgiQuotedLen[S ~string | ~[]byte](s S) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
}

// tgiUnquote removes the Debug quotes of a value; a value it cannot unquote
// loses its outer quotes only.
func tgiUnquote(v string) string {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	if u, err := strconv.Unquote(v); err == nil {
		return u
	}
	return v[1 : len(v)-1]
}
