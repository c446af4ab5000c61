package ingest

import (
	"bytes"
	"strconv"

	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the TGI decoder, for text lines and --json-output lines
// (tgi_fast_json.go). Profiling the general route on the fleet's gpu-3 log
// showed half the time in regexp (the ANSI colour codes replaced on every
// line, and the file:line prefix of every message), then a map per span,
// strconv.Unquote, time.Parse and big.Rat for the durations; JSON lines
// spent theirs in encoding/json unmarshalling every span into a
// map[string]any. Here colour codes are cut by hand into a reused buffer
// (none are copied when a line has none), a record is read in place into
// spans whose fields stay slices of the line, and only the fields the event
// needs are unquoted. Lines whose shape or values the fast path does not
// read the same way, and every reject, go to the general route, so both give
// the same events, skips and rejects (TestTGIFastMatchesGeneral, FuzzTGI*).

// tgiFast is the fast path's state for one input.
type tgiFast struct {
	clean   []byte // the line without colour codes, when it had some
	rec     tgiFastRecord
	unesc   []byte // unquoted values of the record
	stack   []byte // scratch for the JSON scanner
	ev      schema.Event
	attrs   []attrKV
	scratch []byte
	arena   valueArena
	strs    internTable
	maps    attrMaps
}

// tgiFastRecord is one record read in place.
type tgiFastRecord struct {
	timeNs  int64
	level   []byte
	spans   []tgiFastSpan // root first
	fields  []tgiField    // the spans' fields, by span
	message []byte
}

// tgiFastSpan is a span: its name and its fields, fields[lo:hi].
type tgiFastSpan struct {
	name   tgiField
	lo, hi int
}

// tgiField is a span field: its key and its value as written, a raw JSON
// value in a JSON record, else text that may be Debug-quoted.
type tgiField struct {
	key, val []byte
	json     bool
}

// line decodes one line and reports it to sink; it reports false, having
// told sink nothing, when the general route must decide.
func (d *tgiFast) line(in *Input, sink Sink, n int64, b []byte) bool {
	text := d.stripANSI(b)
	d.rec = tgiFastRecord{spans: d.rec.spans[:0], fields: d.rec.fields[:0]}
	d.unesc = d.unesc[:0]
	switch {
	case len(text) == 0:
		return false
	case text[0] == '{':
		if !bytes.HasPrefix(text, []byte(`{"timestamp"`)) || !d.parseJSON(text) {
			return false
		}
	case text[0] >= '0' && text[0] <= '9':
		if !d.parseText(text) {
			return false
		}
	default:
		return false
	}
	return d.emit(in, sink, n, b)
}

// stripANSI is tgiANSI.ReplaceAll(b, nil): ESC or "#033" followed by
// '[', digits and ';', then 'm', cut out.
func (d *tgiFast) stripANSI(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 && bytes.Index(b, []byte("#033[")) < 0 {
		return b
	}
	out := d.clean[:0]
	for i := 0; i < len(b); {
		if n := tgiANSIAt(b[i:]); n > 0 {
			i += n
			continue
		}
		out = append(out, b[i])
		i++
	}
	d.clean = out
	return out
}

// tgiANSIAt returns the length of the colour code at the start of b, or 0.
func tgiANSIAt(b []byte) int {
	i := 0
	switch {
	case len(b) > 0 && b[0] == 0x1b:
		i = 1
	case bytes.HasPrefix(b, []byte("#033")):
		i = 4
	default:
		return 0
	}
	if i >= len(b) || b[i] != '[' {
		return 0
	}
	for i++; i < len(b) && (b[i] >= '0' && b[i] <= '9' || b[i] == ';'); i++ {
	}
	if i < len(b) && b[i] == 'm' {
		return i + 1
	}
	return 0
}

// parseText is tgiParseText over the line's bytes; it reports false for a
// line the general route must read.
func (d *tgiFast) parseText(text []byte) bool {
	r := &d.rec
	t := bytes.TrimLeft(text, " \t")
	sp := bytes.IndexByte(t, ' ')
	if sp < 0 {
		return false
	}
	ns, ok := rfc3339Ns(t[:sp])
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
	end, target := tgiChainEnd(rest)
	if end < 0 {
		r.message = rest
		return true
	}
	if !target {
		d.parseChain(rest[:end])
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

// parseChain is tgiParseChain: spans split at ':' outside braces.
func (d *tgiFast) parseChain(chain []byte) {
	for len(chain) > 0 {
		i, depth := 0, 0
		for ; i < len(chain); i++ {
			c := chain[i]
			if c == '"' && depth > 0 {
				i += tgiQuotedLen(chain[i:]) - 1
			} else if c == '{' {
				depth++
			} else if c == '}' && depth > 0 {
				depth--
			} else if c == ':' && depth == 0 {
				break
			}
		}
		d.parseSpan(chain[:min(i, len(chain))])
		chain = chain[min(i+1, len(chain)):]
	}
}

// parseSpan is tgiParseSpan: "name{key=value …}" or "name".
func (d *tgiFast) parseSpan(s []byte) {
	r := &d.rec
	sp := tgiFastSpan{lo: len(r.fields)}
	open := bytes.IndexByte(s, '{')
	if open < 0 || s[len(s)-1] != '}' {
		sp.name.val = s
	} else {
		sp.name.val = s[:open]
		body := s[open+1 : len(s)-1]
		for body = tgiTrimSpaces(body); len(body) > 0; body = tgiTrimSpaces(body) {
			eq := bytes.IndexByte(body, '=')
			if eq <= 0 {
				break
			}
			key := body[:eq]
			body = body[eq+1:]
			n := tgiValueLen(body)
			r.fields = append(r.fields, tgiField{key: key, val: body[:n]})
			body = body[n:]
		}
	}
	sp.hi = len(r.fields)
	r.spans = append(r.spans, sp)
}

// text returns the value of a field as the general route has it: Debug
// quotes removed (tgiUnquote), or a JSON value as tgiJSONString renders
// it. ok is false for a JSON value the fast path does not render.
func (d *tgiFast) text(f tgiField) ([]byte, bool) {
	if f.json {
		return d.jsonText(f.val)
	}
	v := f.val
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v, true
	}
	s := v[1 : len(v)-1]
	for _, c := range s {
		if c == '\\' || c == '\n' || c >= 0x80 {
			n := len(d.unesc)
			d.unesc = append(d.unesc, tgiUnquote(string(v))...)
			return d.unesc[n:], true
		}
	}
	return s, true // strconv.Unquote gives s, or fails and tgiUnquote gives s
}

// field returns the text of the last field key of span sp (a map keeps the
// last), and whether it is there; ok is false as for text.
func (d *tgiFast) field(sp tgiFastSpan, key string) (v []byte, present, ok bool) {
	for i := sp.hi - 1; i >= sp.lo; i-- {
		if f := d.rec.fields[i]; string(f.key) == key {
			v, ok = d.text(f)
			return v, true, ok
		}
	}
	return nil, false, true
}

// tgiAtoi is strconv.Atoi for field bytes.
func tgiAtoi(b []byte) (int, bool) {
	if v, ok := digitsValue(b); ok {
		return int(v), true
	}
	if len(b) == 0 {
		return 0, false
	}
	v, err := strconv.Atoi(string(b))
	return v, err == nil
}
