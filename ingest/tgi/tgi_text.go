package tgi

import (
	"bytes"
	"strconv"
)

// This file reads the text form of the TGI router log (see tgi.go) in
// place: "<time> <LEVEL> <span chain>: <target>: <file>:<line>: <message>",
// where the span chain and file:line are optional.

// tgiChainEnd returns the index of the first ": " outside braces and quotes,
// or -1, and whether the text before it is a target ("a::b") rather than a
// span chain.
func tgiChainEnd(s []byte) (int, bool) {
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

// tgiSpanEnd returns the index of the ':' that ends chain's first span (one
// outside braces and outside quoted values inside them), or len(chain).
func tgiSpanEnd(chain []byte) int {
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

// tgiValueLen returns the length of the field value at the start of s: a
// quoted string, or text up to a space (outside brackets and quotes) that is
// followed by the next "key=".
func tgiValueLen(s []byte) int {
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
func tgiFieldStart(s []byte) bool {
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
func tgiQuotedLen(s []byte) int {
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

// parseText reads an ANSI-free text line into d.rec; it reports false for
// a line that does not start with an RFC 3339 time and a level (a
// continuation line).
func (d *tgiReader) parseText(text []byte) bool {
	r := &d.rec
	t := bytes.TrimLeft(text, " \t")
	sp := bytes.IndexByte(t, ' ')
	if sp < 0 {
		return false
	}
	if !r.setTime(t[:sp]) {
		return false
	}
	rest := tgiTrimSpaces(t[sp+1:])
	if i := bytes.IndexByte(rest, ' '); i >= 0 {
		r.level, rest = rest[:i], tgiTrimSpaces(rest[i+1:])
	} else {
		r.level, rest = rest, nil
	}
	switch string(r.level) {
	case "TRACE", "DEBUG", "INFO", "WARN", "ERROR":
	default:
		return false
	}
	end, target, scanned := d.chainScan(rest)
	if !scanned {
		end, target = tgiChainEnd(rest)
	}
	if end < 0 {
		r.message = rest
		return true
	}
	if !target {
		if scanned {
			d.parseSplits(rest[:end])
		} else {
			d.parseChain(rest[:end])
		}
		rest = rest[end+2:]
		if i := bytes.Index(rest, []byte(": ")); i >= 0 && bytes.IndexByte(rest[:i], ' ') < 0 {
			rest = rest[i+2:] // the target after the chain
		}
	} else {
		rest = rest[end+2:]
	}
	r.message = tgiStripFileLine(rest)
	return true
}

// tgiTrimSpaces drops leading spaces.
func tgiTrimSpaces(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return b
}

// tgiStripFileLine drops a leading "router/src/server.rs:598: " as the
// regexp `^\S+:\d+: ` would: the word before the first white space ending
// in ":digits:" after at least one byte.
func tgiStripFileLine(s []byte) []byte {
	w := 0
	for w < len(s) && !(s[w] == ' ' || s[w] == '\t' || s[w] == '\n' || s[w] == '\f' || s[w] == '\r') {
		w++
	}
	if w == len(s) || s[w] != ' ' || w < 4 || s[w-1] != ':' {
		return s
	}
	k := w - 1
	for k > 0 && s[k-1] >= '0' && s[k-1] <= '9' {
		k--
	}
	if k == w-1 || k < 2 || s[k-1] != ':' {
		return s
	}
	return s[w+1:]
}

// chainScan is tgiChainEnd and, in the same pass, parseChain's splits of
// the chain into spans (d.splits), for a chain where both agree on what is
// inside brackets (they count different brackets); scanned is false when
// they may not, and the caller runs them one after the other.
func (d *tgiReader) chainScan(s []byte) (end int, target, scanned bool) {
	d.splits = d.splits[:0]
	all, brace := 0, 0 // tgiChainEnd's depth, tgiParseChain's
	for i := 0; i < len(s); i++ {
		for i < len(s) && !tgiBracketSpecial[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		switch s[i] {
		case '"':
			if (all > 0) != (brace > 0) {
				return 0, false, false
			}
			if all > 0 {
				i += tgiQuotedLen(s[i:]) - 1
			}
		case '{':
			all, brace = all+1, brace+1
		case '(', '[':
			all++
		case '}':
			all, brace = max(all-1, 0), max(brace-1, 0)
		case ')', ']':
			all = max(all-1, 0)
		case ':':
			switch {
			case (all > 0) != (brace > 0):
				return 0, false, false
			case all > 0:
			case i+1 < len(s) && s[i+1] == ':':
				target = true
				i++
			case i+1 < len(s) && s[i+1] == ' ':
				return i, target, true
			default:
				d.splits = append(d.splits, i)
			}
		}
	}
	return -1, false, true
}

// parseSplits parses the spans of a chain split at d.splits, as
// parseChain does.
func (d *tgiReader) parseSplits(chain []byte) {
	start := 0
	for _, p := range d.splits {
		d.parseSpan(chain[start:p])
		start = p + 1
	}
	if start < len(chain) {
		d.parseSpan(chain[start:])
	}
}

// parseChain parses "HTTP request{…}:generate_stream{…}" into spans, split
// at ':' outside braces.
func (d *tgiReader) parseChain(chain []byte) {
	for len(chain) > 0 {
		end := tgiSpanEnd(chain)
		d.parseSpan(chain[:end])
		chain = chain[min(end+1, len(chain)):]
	}
}

// parseSpan parses "name{key=value …}" or "name"; a value is Debug-quoted
// text or a Rust Debug struct with nested braces.
func (d *tgiReader) parseSpan(s []byte) {
	r := &d.rec
	sp := tgiSpan{lo: len(r.fields)}
	open := bytes.IndexByte(s, '{')
	if open < 0 || s[len(s)-1] != '}' {
		sp.name = d.tgiFieldAt(s[:0], s, false)
	} else {
		sp.name = d.tgiFieldAt(s[:0], s[:open], false)
		body := s[open+1 : len(s)-1]
		for body = tgiTrimSpaces(body); len(body) > 0; body = tgiTrimSpaces(body) {
			eq := bytes.IndexByte(body, '=')
			if eq <= 0 {
				break
			}
			key := body[:eq]
			body = body[eq+1:]
			n := tgiValueLen(body)
			r.fields = append(r.fields, d.tgiFieldAt(key, body[:n], false))
			body = body[n:]
		}
	}
	sp.hi = len(r.fields)
	d.index(&sp)
	r.spans = append(r.spans, sp)
}
