package tgi

import (
	"bytes"
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
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
	cur     []byte // the text of the record being read
	clean   []byte // the line without colour codes, when it had some
	splits  []int  // where the chain being read splits into spans
	rec     tgiFastRecord
	unesc   []byte // unquoted values of the record
	stack   []byte // scratch for the JSON scanner
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte
	arena   decode.ValueArena
	strs    decode.InternTable
	maps    decode.AttrMaps
}

// tgiFastRecord is one record read in place.
type tgiFastRecord struct {
	timeNs  int64
	level   []byte
	spans   []tgiFastSpan // root first
	fields  []tgiField    // the spans' fields, by span
	message []byte
}

// tgiFastSpan is a span: its name, its fields (fields[lo:hi]) and where
// the last field of each key the event reads is, -1 when it has none.
type tgiFastSpan struct {
	name   tgiField
	lo, hi int
	at     [tkCount]int32
}

// The span fields the event reads, as indexes into tgiFastSpan.at; the
// timings come first, in tgiSuccess's order.
const (
	tkTotal = iota
	tkValidation
	tkQueue
	tkInference
	tkPerToken
	tkTraceID
	tkRequestID
	tkRoute
	tkURLPath
	tkTarget
	tkStatus
	tkRespStatus
	tkCount
)

// tgiKeyOf returns the tk* index of a field key, or -1.
func tgiKeyOf(key []byte) int {
	switch string(key) {
	case "total_time":
		return tkTotal
	case "validation_time":
		return tkValidation
	case "queue_time":
		return tkQueue
	case "inference_time":
		return tkInference
	case "time_per_token":
		return tkPerToken
	case "trace_id":
		return tkTraceID
	case "request_id":
		return tkRequestID
	case "http.route":
		return tkRoute
	case "url.path":
		return tkURLPath
	case "http.target":
		return tkTarget
	case "http.status_code":
		return tkStatus
	case "http.response.status_code":
		return tkRespStatus
	}
	return -1
}

// index sets sp.at from the span's fields (the last of each key wins, as
// in a map).
func (d *tgiFast) index(sp *tgiFastSpan) {
	for k := range sp.at {
		sp.at[k] = -1
	}
	for i := sp.lo; i < sp.hi; i++ {
		f := &d.rec.fields[i]
		if k := tgiKeyOf(d.cur[f.kLo:f.kHi]); k >= 0 {
			sp.at[k] = int32(i)
		}
	}
}

// tgiField is a span field: where its key and its value as written lie in
// the record's text (d.cur[kLo:kHi], d.cur[vLo:vHi]); json says the value is
// a raw JSON value, else it is text that may be Debug-quoted. Offsets rather
// than slices keep the field list free of pointers, so filling it costs no
// write barriers.
type tgiField struct {
	kLo, kHi, vLo, vHi int32
	json               bool
}

// tgiFieldAt returns the field for key and val, subslices of d.cur.
func (d *tgiFast) tgiFieldAt(key, val []byte, json bool) tgiField {
	k, v := d.off(key), d.off(val)
	return tgiField{int32(k), int32(k + len(key)), int32(v), int32(v + len(val)), json}
}

// off returns where s, sliced from d.cur, starts in it: the capacity a
// subslice loses is its offset.
func (d *tgiFast) off(s []byte) int { return cap(d.cur) - cap(s) }

// line decodes one line and reports it to sink; it reports false, having
// told sink nothing, when the general route must decide.
func (d *tgiFast) line(in *decode.Input, sink decode.Sink, n int64, b []byte) bool {
	text := d.stripANSI(b)
	d.cur = text
	d.rec = tgiFastRecord{spans: d.rec.spans[:0], fields: d.rec.fields[:0]}
	d.unesc = d.unesc[:0]
	switch {
	case len(text) == 0:
		return false
	case text[0] == '{':
		if !isJSONRecord(text) || !d.parseJSON(text) {
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
	if bytes.IndexByte(b, 0x1b) < 0 && !bytes.Contains(b, []byte("#033[")) {
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

// text returns the value of a field as the general route has it: Debug
// quotes removed (tgiUnquote), or a JSON value as tgiJSONString renders
// it. ok is false for a JSON value the fast path does not render.
func (d *tgiFast) text(f *tgiField) ([]byte, bool) {
	v := d.cur[f.vLo:f.vHi]
	if f.json {
		return d.jsonText(v)
	}
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

// field returns the text of span sp's field k (a tk* index), and whether
// it is there; ok is false as for text.
func (d *tgiFast) field(sp *tgiFastSpan, k int) (v []byte, present, ok bool) {
	i := sp.at[k]
	if i < 0 {
		return nil, false, true
	}
	v, ok = d.text(&d.rec.fields[i])
	return v, true, ok
}

// tgiAtoi is strconv.Atoi for field bytes.
func tgiAtoi(b []byte) (int, bool) {
	if v, ok := textscan.Digits(b); ok {
		return int(v), true
	}
	if len(b) == 0 {
		return 0, false
	}
	v, err := strconv.Atoi(string(b))
	return v, err == nil
}
