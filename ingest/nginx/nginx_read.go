package nginx

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// The nginx reader. The log_format is compiled once into a plan (which
// variable the event reads sits where, the id variables in nginxIDOrder's
// order) and a line is split in place (nginxPlan.match); values stay
// slices of the line, read as bytes, and only a value holding an escape is
// copied (unescaped). The event is reused from line to line: the sink
// copies it.

// nginxReader is the state of the reader for one input.
type nginxReader struct {
	plans   []*nginxPlan // the user's log_format, or combined then common
	formats []*nginxLogFormat
	custom  bool           // the user gave the log_format
	miss    *nginxMismatch // made at the first line no format fits
	plan    *nginxPlan     // the one the line matched
	cur     []byte         // the line being read
	rawAt   int            // the offset in cur of the value raw last returned; -1: absent
	plain   bool           // it holds no backslash
	vals    []nginxSpan    // its values
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte // the ids of the line, before they become one string
	arena   decode.ValueArena
	strs    decode.InternTable
	maps    decode.AttrMaps
}

// newNginxReader compiles the formats for reading; custom says the user
// gave the log_format.
func newNginxReader(formats []*nginxLogFormat, custom bool) *nginxReader {
	d := &nginxReader{formats: formats, custom: custom}
	n := 0
	for _, f := range formats {
		d.plans = append(d.plans, newNginxPlan(f))
		n = max(n, len(f.vars))
	}
	d.vals = make([]nginxSpan, n)
	return d
}

// line decodes one line and reports it to sink: an event, a skip (blank
// or error-log line) or a reject.
func (d *nginxReader) line(in *decode.Input, n int64, raw []byte, sink decode.Sink) {
	line := bytes.TrimRight(raw, "\r")
	if len(line) == 0 || !decode.ASCIIGraphic(line[0]) && len(bytes.TrimSpace(line)) == 0 {
		sink.Skip(n, "blank line")
		return
	}
	if nginxErrorShape(line) && nginxErrorLine.Match(line) {
		sink.Skip(n, "nginx error log line")
		return
	}
	d.cur, d.plain = line, bytes.IndexByte(line, '\\') < 0
	for _, p := range d.plans {
		if p.match(line, d.vals, d.plain) {
			d.plan = p
			d.event(in, n, raw, sink)
			return
		}
	}
	if d.miss == nil {
		d.miss = newNginxMismatch(d.formats, d.custom)
	}
	sink.Reject(decode.At(n), d.miss.reason(line), decode.TruncateDetail(string(line))) // no field to point at
}

// event builds the event of the matched line and reports it, or the
// reason it is rejected for.
func (d *nginxReader) event(in *decode.Input, n int64, raw []byte, sink decode.Sink) {
	d.clearEvent(in, n)
	d.attrs = d.attrs[:0]
	if reason, detail := d.status(); reason != "" {
		sink.Reject(d.rejectAt(n), reason, detail)
		return
	}
	if reason, detail := d.instants(); reason != "" {
		sink.Reject(d.rejectAt(n), reason, detail)
		return
	}
	d.request()
	d.ids()
	for i, name := range nginxAttrNames {
		if v := d.value(ngAttrs + i); len(v) > 0 {
			d.attrs = append(d.attrs, decode.AttrKV{Key: name, Val: d.strs.Get(v)})
		}
	}
	d.ev.Attrs = d.maps.Get(d.attrs)
	sink.Event(n, raw, &d.ev)
}

// clearEvent readies d.ev for line n: the fields the reader sets are
// cleared (the others stay zero), the input's fields set.
func (d *nginxReader) clearEvent(in *decode.Input, n int64) {
	ev := &d.ev
	if ev.Format == "" {
		*ev = schema.Event{Source: schema.SourceProxy, Format: "nginx", Clock: schema.ClockWall}
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	ev.Status, ev.Error, ev.Completed = nil, "", nil
	ev.StartNs, ev.HeadersNs, ev.EndNs, ev.ConnectNs = nil, nil, nil, nil
	ev.Endpoint, ev.RequestID, ev.TraceID, ev.OtherIDs, ev.Attrs = "", "", "", nil, nil
}

// nginxErrorShape reports whether line may be an nginx error-log line
// ("2026/11/23 10:00:00 [error] "), which nginxErrorLine then decides.
func nginxErrorShape(line []byte) bool {
	return len(line) >= 20 && line[4] == '/' && line[7] == '/' && line[10] == ' ' && line[13] == ':'
}

// raw returns the value of variable k as matched, nil when absent.
func (d *nginxReader) raw(k int) []byte {
	if i := d.plan.at[k]; i >= 0 {
		d.rawAt = int(d.vals[i].lo)
		return d.cur[d.vals[i].lo:d.vals[i].hi]
	}
	d.rawAt = -1
	return nil
}

// rejectAt returns the position of a reject of line n found by status or
// instants: the value they read last, which is the one they refused, or
// the line's start when it was absent.
func (d *nginxReader) rejectAt(n int64) decode.Pos {
	return decode.AtCol(n, int64(max(d.rawAt, 0))+1)
}

// value returns the value of variable k with nginx's escapes undone
// (nginxUnescape), nil when absent or "-".
func (d *nginxReader) value(k int) []byte {
	return d.valueAt(d.plan.at[k])
}

func (d *nginxReader) valueAt(i int) []byte {
	if i < 0 {
		return nil
	}
	v := d.cur[d.vals[i].lo:d.vals[i].hi]
	if len(v) == 1 && v[0] == '-' {
		return nil
	}
	if !d.plain && bytes.IndexByte(v, '\\') >= 0 {
		return []byte(nginxUnescape(string(v)))
	}
	return v
}
