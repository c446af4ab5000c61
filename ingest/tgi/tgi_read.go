package tgi

import (
	"bytes"
	"strconv"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The reader of the TGI router log, for text lines (tgi_text.go) and
// --json-output lines (tgi_json.go). Profiling an earlier reader that used
// regexps, a map per span, strconv.Unquote, time.Parse and encoding/json
// into map[string]any showed it at ~28 MB/s per core. Here colour codes are
// cut by hand into a reused buffer (none are copied when a line has none), a
// record is read in place into spans whose fields stay offsets into the
// line, and only the fields the event needs are unquoted; time.Parse reads
// only the times textscan.RFC3339Ns does not (out of int64 nanoseconds, or
// in forms it leaves to the library).

// tgiReader is the reader's state for one input.
type tgiReader struct {
	cur     []byte // the text of the record being read
	clean   []byte // the line without colour codes, when it had some
	splits  []int  // where the chain being read splits into spans
	rec     tgiRecord
	unesc   []byte // unquoted values of the record
	stack   []byte // scratch for the JSON scanner
	deep    bool   // the JSON line nests deep enough to check against encoding/json's limit
	refused bool   // the JSON line has a value of the wrong type for encoding/json
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte
	arena   decode.ValueArena
	strs    decode.InternTable
	maps    decode.AttrMaps
}

// tgiRecord is one record read in place.
type tgiRecord struct {
	timeNs  int64     // the log time, Unix ns
	far     time.Time // the log time when it does not fit timeNs (isFar)
	isFar   bool
	level   []byte
	spans   []tgiSpan  // root first
	fields  []tgiField // the spans' fields
	message []byte
}

// setTime sets the record's time from an RFC 3339 time as time.Parse reads
// it; it reports false for anything else.
func (r *tgiRecord) setTime(ts []byte) bool {
	if ns, ok := textscan.RFC3339Ns(ts); ok {
		r.timeNs, r.isFar = ns, false
		return true
	}
	t, err := time.Parse(time.RFC3339Nano, string(ts))
	if err != nil {
		return false
	}
	if r.isFar = !textscan.Fits(t); r.isFar {
		r.far = t
	} else {
		r.timeNs = t.UnixNano()
	}
	return true
}

// tgiSpan is a span: its name, its fields (fields[lo:hi] of a text line)
// and where the last field of each key the event reads is, -1 when it has
// none.
type tgiSpan struct {
	name   tgiField
	lo, hi int
	at     [tkCount]int32
}

// The span fields the event reads, as indexes into tgiSpan.at; the
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

// tgiNoFields is the at of a span without fields.
var tgiNoFields = func() (at [tkCount]int32) {
	for k := range at {
		at[k] = -1
	}
	return at
}()

// index sets sp.at from the span's fields (the last of each key wins, as
// in a map).
func (d *tgiReader) index(sp *tgiSpan) {
	sp.at = tgiNoFields
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
func (d *tgiReader) tgiFieldAt(key, val []byte, json bool) tgiField {
	k, v := d.off(key), d.off(val)
	return tgiField{int32(k), int32(k + len(key)), int32(v), int32(v + len(val)), json}
}

// off returns where s, sliced from d.cur, starts in it: the capacity a
// subslice loses is its offset.
func (d *tgiReader) off(s []byte) int { return cap(d.cur) - cap(s) }

// line decodes one line and reports it to sink. A line that is not a
// record is skipped, unless it has a request's timings (total_time=): then
// it was cut or mangled, and the request it recorded is lost (a reject).
func (d *tgiReader) line(in *decode.Input, sink decode.Sink, n int64, b []byte) {
	text := d.stripANSI(b)
	d.cur = text
	d.rec = tgiRecord{spans: d.rec.spans[:0], fields: d.rec.fields[:0]}
	d.unesc = d.unesc[:0]
	t := bytes.TrimSpace(text)
	switch {
	case len(t) == 0:
		sink.Skip(n, "blank line")
		return
	case isJSONRecord(t):
		if err := d.parseJSON(t); err != nil {
			sink.Reject(decode.JSONRefusedAt(n, decode.ColIn(b, t), t), "invalid json", decode.TruncateDetail(err.Error()))
			return
		}
	case !d.parseText(text):
		if bytes.Contains(text, []byte("total_time=")) {
			sink.Reject(decode.At(n), "malformed request line", decode.TruncateDetail(string(text)))
		} else {
			sink.Skip(n, "not a log record")
		}
		return
	}
	d.emit(in, sink, n, b)
}

// stripANSI is tgiANSI.ReplaceAll(b, nil): ESC or "#033" followed by
// '[', digits and ';', then 'm', cut out.
func (d *tgiReader) stripANSI(b []byte) []byte {
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

// text returns the value of a field: Debug quotes removed (tgiUnquote),
// or a JSON value as jsonText renders it.
func (d *tgiReader) text(f *tgiField) []byte {
	v := d.cur[f.vLo:f.vHi]
	if f.json {
		return d.jsonText(v)
	}
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	s := v[1 : len(v)-1]
	for _, c := range s {
		if c == '\\' || c == '\n' || c >= 0x80 {
			n := len(d.unesc)
			d.unesc = append(d.unesc, tgiUnquote(string(v))...)
			return d.unesc[n:]
		}
	}
	return s // strconv.Unquote gives s, or fails and tgiUnquote gives s
}

// field returns the text of span sp's field k (a tk* index), nil when it
// has none.
func (d *tgiReader) field(sp *tgiSpan, k int) []byte {
	i := sp.at[k]
	if i < 0 {
		return nil
	}
	return d.text(&d.rec.fields[i])
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
