package haproxy

import (
	"bytes"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// A line is read in place. Its head "client:port [dd/Mon/yyyy:hh:mm:ss.mmm] "
// is found by looking at each " [" in turn (the leftmost one whose date and
// "client:port" fit: where the regexp `(\S+):(\d+) \[date\] ` would match),
// fields are cut in place (as strings.SplitN(…, " ", 10)), the date is read
// by textscan.CLFMillisNs (time.ParseInLocation for what it does not take)
// and the rest by hand; the line is trimmed as strings.TrimSpace trims
// (Unicode white space too). Profiling the former route (regexps, time.Parse,
// strings.SplitN, a string per line and an attribute map per line) had
// shown half its time in regexp.

// haproxyReader is the decoder's state for one input.
type haproxyReader struct {
	loc     *time.Location
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte
	arena   decode.ValueArena
	strs    decode.InternTable
	maps    decode.AttrMaps
}

// haproxyFields are the ten space-separated fields after the head, the last
// one holding the rest of the line (strings.SplitN(…, " ", 10)).
type haproxyFields [10][]byte

// line decodes one line and reports it to sink.
func (d *haproxyReader) line(in *decode.Input, sink decode.Sink, n int64, text []byte) {
	s := bytes.TrimSpace(text)
	if len(s) == 0 {
		sink.Skip(n, "blank line")
		return
	}
	skip, reason, detail := d.event(in, n, s)
	switch {
	case skip != "":
		sink.Skip(n, skip)
	case reason != "":
		sink.Reject(decode.AtCol(n, decode.ColIn(text, detail)), reason, decode.TruncateDetail(string(detail)))
	default:
		sink.Event(n, text, &d.ev)
	}
}

// event reads the line s (trimmed) into d.ev; it returns a skip reason for
// a line that is no HTTP request log, or a reject reason and its detail.
func (d *haproxyReader) event(in *decode.Input, n int64, s []byte) (skip, reason string, detail []byte) {
	date, rest, ok := haproxyHeadAt(s)
	if !ok {
		if bytes.Contains(s, []byte("Connect from ")) || bytes.Contains(s, []byte("haproxy[")) {
			return "not an HTTP request log line", "", nil
		}
		return "", "format mismatch", s
	}
	start, err := d.date(date)
	if err != nil {
		return "", textscan.TimeReason(err, "bad timestamp"), date
	}
	var f haproxyFields
	nf := haproxySplit(rest, &f)
	slashes := 0
	if nf >= 3 {
		slashes = bytes.Count(f[2], []byte("/"))
	}
	if slashes == 2 {
		return "tcp log line (not an HTTP request)", "", nil
	}
	if nf < 10 || slashes != 4 || bytes.IndexByte(f[1], '/') < 0 {
		return "", "format mismatch", s
	}
	d.clearEvent(in, n)
	d.ev.StartNs = d.arena.Int64(start)
	if !d.timers(f[2], start) {
		return "", "bad timer", f[2]
	}
	if !d.status(f[3]) {
		return "", "bad status", f[3]
	}
	backend, server, _ := bytes.Cut(f[1], []byte("/"))
	for _, a := range [...]struct {
		key string
		val []byte
	}{{"frontend", f[0]}, {"backend", backend}, {"server", server}, {"termination_state", f[7]}} {
		if len(a.val) > 0 {
			d.attrs = append(d.attrs, decode.AttrKV{Key: a.key, Val: d.strs.Get(a.val)})
		}
	}
	d.tail(f[9])
	d.classify(f[7])
	d.ev.Attrs = d.maps.Get(d.attrs)
	return "", "", nil
}

// date reads the head's date in d.loc as time.ParseInLocation with
// "02/Jan/2006:15:04:05.000" does, in Unix nanoseconds.
func (d *haproxyReader) date(date []byte) (int64, error) {
	if ns, ok := textscan.CLFMillisNs(date, d.loc); ok {
		return ns, nil
	}
	return textscan.ParseNs("02/Jan/2006:15:04:05.000", string(date), d.loc)
}

// clearEvent readies d.ev for line n: the fields the reader sets are
// cleared (the others stay zero), the input's fields set. The sink copies
// the event it is given, so d.ev is reused.
func (d *haproxyReader) clearEvent(in *decode.Input, n int64) {
	ev := &d.ev
	if ev.Format == "" {
		*ev = schema.Event{Source: schema.SourceProxy, Format: "haproxy", Clock: schema.ClockWall}
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	ev.StartNs, ev.HeadersNs, ev.EndNs, ev.QueueNs, ev.ConnectNs = nil, nil, nil, nil, nil
	ev.Status, ev.Error, ev.Completed, ev.Endpoint, ev.RequestID, ev.TraceID = nil, "", nil, "", "", ""
	ev.Attrs = nil
	d.attrs = d.attrs[:0]
}

// haproxyHeadAt finds where haproxyHead matches s: the date of the first
// " [dd/Mon/yyyy:hh:mm:ss.mmm] " preceded by a "client:port" word, and what
// follows the head.
func haproxyHeadAt(s []byte) (date, rest []byte, ok bool) {
	for from := 1; from < len(s); {
		i := bytes.IndexByte(s[from:], '[')
		if i < 0 {
			break
		}
		p := from + i - 1 // the space before '['
		from = p + 2
		if s[p] == ' ' && len(s) >= p+28 && haproxyDateShape(s[p+2:p+26]) && s[p+26] == ']' && s[p+27] == ' ' && haproxyClientPort(s[:p]) {
			return s[p+2 : p+26], s[p+28:], true
		}
	}
	return nil, nil, false
}

// haproxyDateShape reports whether d has the shape \d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3}.
func haproxyDateShape(d []byte) bool {
	const shape = "00/Aaa/0000:00:00:00.000"
	for i := 0; i < len(shape); i++ {
		c := d[i]
		switch shape[i] {
		case '0':
			if c < '0' || c > '9' {
				return false
			}
		case 'A':
			if c < 'A' || c > 'Z' {
				return false
			}
		case 'a':
			if c < 'a' || c > 'z' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}

// haproxyClientPort reports whether the word that ends s (after its last
// regexp white space: \t \n \f \r or space) matches \S+:\d+.
func haproxyClientPort(s []byte) bool {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i < 2 || s[i-1] != ':' {
		return false
	}
	switch s[i-2] {
	case '\t', '\n', '\f', '\r', ' ':
		return false
	}
	return true
}

// haproxySplit cuts s into f as strings.SplitN(s, " ", 10) does and returns
// the number of fields.
func haproxySplit(s []byte, f *haproxyFields) int {
	n, start := 0, 0
	for i := 0; i < len(s) && n < len(f)-1; i++ {
		if s[i] == ' ' {
			f[n], start, n = s[start:i], i+1, n+1
		}
	}
	f[n] = s[start:]
	return n + 1
}
