package decode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// This file holds the record readers and number parsers shared by the proxy
// and HAR formats (envoy.go, haproxy.go, litellm.go, har.go).

// MaxJSONRecord bounds a JSON record spread over several lines; a longer one
// is rejected rather than buffered without end.
const MaxJSONRecord = 8 << 20

// JSONRecords reads r as JSON records: one object per line (JSON lines),
// objects pretty-printed over several lines, or one top-level array of
// objects. It calls rec with each record and the 1-based line it starts on,
// reports blank lines as skips and unterminated objects as rejects (at the
// byte encoding/json refuses, columns counted as if the record's first
// line started with its '{'; at the record's start when no byte is
// refused). A record
// rec gets that starts with '{' is valid JSON (one object); others may be
// anything. The bytes rec gets are only valid during the call.
func JSONRecords(r io.Reader, sink Sink, rec func(line int64, raw []byte)) error {
	return JSONRecordsFast(r, sink, nil, rec)
}

// JSONRecordsFast is JSONRecords with a fast path: a line that
// starts with '{' goes to fast first, which reports true when it took it
// (then the line was one valid JSON object, and fast told sink what rec
// would have); otherwise the line is read as JSONRecords reads it.
func JSONRecordsFast(r io.Reader, sink Sink, fast func(line int64, t []byte) bool, rec func(line int64, raw []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if PeekJSONArray(br) {
		return JSONArray(br, sink, func(at Pos, raw []byte) { rec(at.Line, raw) })
	}
	var buf, stack []byte
	var start int64
	flush := func() {
		if buf != nil {
			at := At(start)
			if k, ok := JSONRefused(buf); ok {
				at = AtOffset(start, 1, buf, k)
			}
			sink.Reject(at, "invalid json", "unterminated object")
			buf = nil
		}
	}
	err := ReadRecordsByLine(br, sink, func(line int64, text []byte) {
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf")) // UTF-8 byte-order mark
		}
		t := bytes.TrimSpace(text)
		if buf != nil && len(text) > 0 && text[0] == '{' {
			flush() // a new record starts at column 0: the pending one was cut
		}
		switch {
		case buf != nil:
			buf = append(append(buf, '\n'), text...)
			if len(t) > 0 && (t[0] == '}' || t[0] == ']') && jsonwalk.ValidObject(buf, &stack) {
				rec(start, buf)
				buf = nil
			} else if len(buf) > MaxJSONRecord {
				flush()
			}
		case len(t) == 0:
			sink.Skip(line, "blank line")
		case t[0] == '{' && fast != nil && fast(line, t):
		case t[0] == '{' && !jsonwalk.ValidObject(t, &stack):
			buf, start = append([]byte(nil), t...), line
		default:
			rec(line, t)
		}
	})
	flush()
	return err
}

// PeekNonSpace returns the first byte of br that is not white space or a
// UTF-8 byte-order mark, without consuming anything.
func PeekNonSpace(br *bufio.Reader) (byte, error) {
	b, err := br.Peek(4096)
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n', 0xEF, 0xBB, 0xBF:
		default:
			return c, nil
		}
	}
	if err == nil {
		err = io.EOF
	}
	return 0, err
}

// PeekJSONStart reports whether br starts (after white space) with a JSON
// object or a JSON array of objects, without consuming anything.
func PeekJSONStart(br *bufio.Reader) bool {
	c, _ := PeekNonSpace(br)
	return c == '{' || PeekJSONArray(br)
}

// PeekJSONArray reports whether br starts with '[' followed by '{' or ']'
// (an array of objects, not a text line like "[2026-11-23T…] …").
func PeekJSONArray(br *bufio.Reader) bool {
	b, _ := br.Peek(4096)
	b = bytes.TrimLeft(b, " \t\r\n\xef\xbb\xbf")
	if len(b) == 0 || b[0] != '[' {
		return false
	}
	b = bytes.TrimLeft(b[1:], " \t\r\n")
	return len(b) > 0 && (b[0] == '{' || b[0] == ']')
}

// LineIndex records where the newlines of a stream fall, so that a byte
// offset can be turned into a line and column; once marked, it also keeps
// the bytes read from the mark on, so that where a JSON value stops being
// valid can be found (encoding/json's Decoder does not say: its
// SyntaxError.Offset leaves out the bytes Token and the commas took).
//
// Pos takes offsets at or after the last mark: a mark forgets the newlines
// before it (counting them), so the index holds the newlines of the
// element being read, not of the whole stream.
type LineIndex struct {
	R         io.Reader
	pos       int64
	newlines  []int64 // offsets of the newlines not yet forgotten
	forgotten int64   // newlines before the last mark
	lineStart int64   // offset of the first byte of the line the last mark is on
	kept      []byte  // the bytes read from keptAt on, once marked
	keptAt    int64
	keeping   bool
}

func (li *LineIndex) Read(p []byte) (int, error) {
	n, err := li.R.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			li.newlines = append(li.newlines, li.pos+int64(i))
		}
	}
	if li.keeping {
		li.kept = append(li.kept, p[:n]...)
	}
	li.pos += int64(n)
	return n, err
}

// mark keeps the bytes from dec's offset on, dec being the Decoder
// reading li (its offset is never before an earlier mark).
func (li *LineIndex) mark(dec *json.Decoder) {
	off := dec.InputOffset()
	if !li.keeping { // the bytes from off to pos are in dec's buffer
		li.keeping = true
		li.kept, _ = io.ReadAll(dec.Buffered())
		li.keptAt = off
	}
	n := copy(li.kept, li.kept[off-li.keptAt:])
	li.kept, li.keptAt = li.kept[:n], off
	if k := sort.Search(len(li.newlines), func(i int) bool { return li.newlines[i] >= off }); k > 0 {
		li.forgotten, li.lineStart = li.forgotten+int64(k), li.newlines[k-1]+1
		li.newlines = li.newlines[:copy(li.newlines, li.newlines[k:])]
	}
}

// refused returns the position of the first byte from the mark on that
// stops the bytes being one JSON value (after a comma when comma is set),
// or of the end of the stream when they end early.
func (li *LineIndex) refused(comma bool) Pos {
	b, at := li.kept, li.keptAt
	if comma {
		if len(b) > 0 && b[0] != ',' {
			return li.Pos(at) // "expected comma after array element"
		}
		b, at = b[min(1, len(b)):], at+1
	}
	if k, ok := JSONRefused(b); ok {
		return li.Pos(at + int64(k))
	}
	return li.Pos(li.pos)
}

// Pos returns the line and 1-based byte column of byte offset off (at or
// after the last mark).
func (li *LineIndex) Pos(off int64) Pos {
	n := sort.Search(len(li.newlines), func(i int) bool { return li.newlines[i] >= off })
	if n == 0 {
		return Pos{Line: li.forgotten + 1, Col: off - li.lineStart + 1}
	}
	return Pos{Line: li.forgotten + int64(n) + 1, Col: off - li.newlines[n-1]}
}

// JSONArray reads one top-level JSON array and calls rec per element with
// the position of its first byte.
func JSONArray(r io.Reader, sink Sink, rec func(at Pos, raw []byte)) error {
	li := &LineIndex{R: r}
	dec := json.NewDecoder(li)
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return err
	}
	return JSONArrayElements(dec, li, sink, rec)
}

// JSONArrayElements decodes the elements of an array whose '[' dec has just
// read, up to its ']'. A syntax error rejects the element it occurs in, at
// the byte the JSON scanner refused (or where the input ended), and ends
// the array.
func JSONArrayElements(dec *json.Decoder, li *LineIndex, sink Sink, rec func(at Pos, raw []byte)) error {
	for i := 0; dec.More(); i++ {
		li.mark(dec) // from the element's first byte, or the comma before it
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
				sink.Reject(li.refused(i > 0), "invalid json", TruncateDetail(err.Error()))
				return nil
			}
			return err
		}
		rec(li.Pos(dec.InputOffset()-int64(len(raw))), raw)
	}
	_, err := dec.Token() // the closing ']'
	if err != nil && !errors.Is(err, io.EOF) {
		sink.Reject(li.Pos(dec.InputOffset()), "invalid json", TruncateDetail(err.Error()))
	}
	return nil
}

// JSONString returns a JSON scalar as a string: strings as they are, numbers
// in their written form, booleans as "true"/"false"; null, objects and
// arrays give "".
func JSONString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		if len(raw) >= 2 && raw[len(raw)-1] == '"' {
			s := raw[1 : len(raw)-1]
			if bytes.IndexByte(s, '\\') < 0 && bytes.IndexByte(s, '"') < 0 && jsonwalk.Printable(s) && utf8.Valid(s) {
				return string(s) // nothing to unescape: the bytes are the string
			}
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	case '{', '[', 'n':
		return ""
	}
	return string(raw)
}

// FirstSet returns the first non-nil pointer, or nil.
func FirstSet(vs ...*int64) *int64 {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// SetAttr sets a non-empty attribute.
func SetAttr(ev *schema.Event, k, v string) {
	if v == "" {
		return
	}
	if ev.Attrs == nil {
		ev.Attrs = map[string]string{}
	}
	ev.Attrs[k] = v
}
