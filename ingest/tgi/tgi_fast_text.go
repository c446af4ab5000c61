package tgi

import (
	"bytes"

	"github.com/ttftrace/ttftrace/internal/textscan"
)

// This file reads a TGI text line in place for the fast path (tgi_fast.go),
// as tgiParseText and tgiParseChain do with strings.

// parseText is tgiParseText over the line's bytes; it reports false for a
// line the general route must read.
func (d *tgiFast) parseText(text []byte) bool {
	r := &d.rec
	t := bytes.TrimLeft(text, " \t")
	sp := bytes.IndexByte(t, ' ')
	if sp < 0 {
		return false
	}
	ns, ok := textscan.RFC3339Ns(t[:sp])
	if !ok {
		return false
	}
	r.timeNs = ns
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

// tgiStripFileLine is tgiFileLine.ReplaceAllString(s, ""): it drops a
// leading `\S+:\d+: `, the word before the first white space ending in
// ":digits:" after at least one byte.
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

// chainScan is tgiChainEnd and, in the same pass, tgiParseChain's splits of
// the chain into spans (d.splits), for a chain where both agree on what is
// inside brackets (they count different brackets); scanned is false when
// they may not, and the caller runs them one after the other.
func (d *tgiFast) chainScan(s []byte) (end int, target, scanned bool) {
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
// tgiParseChain does.
func (d *tgiFast) parseSplits(chain []byte) {
	start := 0
	for _, p := range d.splits {
		d.parseSpan(chain[start:p])
		start = p + 1
	}
	if start < len(chain) {
		d.parseSpan(chain[start:])
	}
}

// parseChain is tgiParseChain: spans split at ':' outside braces.
func (d *tgiFast) parseChain(chain []byte) {
	for len(chain) > 0 {
		end := tgiSpanEnd(chain)
		d.parseSpan(chain[:end])
		chain = chain[min(end+1, len(chain)):]
	}
}

// parseSpan is tgiParseSpan: "name{key=value …}" or "name".
func (d *tgiFast) parseSpan(s []byte) {
	r := &d.rec
	sp := tgiFastSpan{lo: len(r.fields)}
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
