package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ttftrace/ttftrace/schema"
)

// Pos is where in an input a record, or the offending value of a rejected
// record, lies, as encoding/csv.ParseError gives it. Line is 1-based: the
// line of the decompressed input (or, for a format without lines, the
// 1-based index of the record, as the format's doc says). Col is the 1-based
// byte column within that line (bytes, not runes, counted from the byte
// after the line feed); 0 means the format has no position within the
// record, which each such format's doc says.
type Pos struct {
	Line int64 // 1-based line (or record index where the format says so)
	Col  int64 // 1-based byte column within Line; 0 = no position known
}

// At returns the position of a record starting at the beginning of line.
func At(line int64) Pos { return Pos{Line: line, Col: 1} }

// AtCol returns the position of byte column col (1-based) of line.
func AtCol(line, col int64) Pos { return Pos{Line: line, Col: col} }

// AtOffset returns the position of byte off (0-based) of b, a record whose
// first byte is column col0 (1-based) of line: lines and columns move on
// past every line feed of b before off. An off outside b is clamped to it.
func AtOffset(line, col0 int64, b []byte, off int) Pos {
	off = min(max(off, 0), len(b))
	before := b[:off]
	nl := bytes.Count(before, []byte{'\n'})
	if nl == 0 {
		return Pos{Line: line, Col: col0 + int64(off)}
	}
	last := bytes.LastIndexByte(before, '\n')
	return Pos{Line: line + int64(nl), Col: int64(off - last)}
}

// String returns "line:col", or "line" when Col is 0.
func (p Pos) String() string {
	if p.Col == 0 {
		return fmt.Sprint(p.Line)
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Error is an error with the position in a file where reading stopped,
// as encoding/csv.ParseError: Decode returns one when an input cannot be
// read from some point on (a JSON document broken at a byte), and the
// driver reports it with the input. Error() is "file:line:col: reason".
type Error struct {
	File string // the input's name as the user gave it
	Pos         // where the input stopped being readable
	Err  error  // why
}

func (e *Error) Error() string { return e.File + ":" + e.Pos.String() + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// ShiftSink is a Sink for a reader that starts reading an input part-way:
// it reports every line Lines further down, and a reject on the reader's
// first line Cols further right (the reader's line 1 is the input's line
// Lines+1, and the reader's column c there the input's column c+Cols).
type ShiftSink struct {
	Sink
	Lines, Cols int64
}

func (s ShiftSink) Event(line int64, raw []byte, ev *schema.Event) {
	s.Sink.Event(line+s.Lines, raw, ev)
}

func (s ShiftSink) Skip(line int64, reason string) { s.Sink.Skip(line+s.Lines, reason) }

func (s ShiftSink) Reject(at Pos, reason, detail string) {
	s.Sink.Reject(s.Pos(at), reason, detail)
}

// Pos returns the input's position of the reader's position at.
func (s ShiftSink) Pos(at Pos) Pos {
	if at.Line == 1 && at.Col > 0 {
		at.Col += s.Cols
	}
	at.Line += s.Lines
	return at
}

// JSONRefused returns the offset of the first byte of b that stops it
// being one JSON value, as encoding/json's scanner refuses it, and true;
// or false when b is a valid value or a valid beginning of one (cut short).
func JSONRefused(b []byte) (int, bool) {
	// A NUL byte is refused wherever it comes, so a value cut short is
	// refused at the NUL, past b.
	var v json.RawMessage
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(append(b[:len(b):len(b)], 0), &v), &se) && se.Offset <= int64(len(b)) {
		return int(se.Offset) - 1, true // Offset counts the refused byte
	}
	return 0, false
}

// JSONErrorAt returns where in doc, a JSON text whose first byte is column
// col0 of line, the error encoding/json.Unmarshal returned for it lies: the
// byte its scanner refused; for a value of the wrong type, the byte its
// UnmarshalTypeError.Offset names (just past a scalar, just past the '['
// or '{' of an array or object); the end of doc when doc ends early or err
// says nothing of where (a string where a number was wanted), as
// JSONRefusedAt; doc's start when err is nil (a null refused by its
// caller).
func JSONErrorAt(line, col0 int64, doc []byte, err error) Pos {
	if err == nil {
		return Pos{Line: line, Col: col0}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return AtOffset(line, col0, doc, int(te.Offset))
	}
	return JSONRefusedAt(line, col0, doc)
}

// JSONRefusedAt returns where in doc, JSON text whose first byte is column
// col0 of line, encoding/json's scanner refuses it: the refused byte; just
// past doc's end when doc ends early; doc's start when doc is valid JSON
// (refused for its kind or its values, which the scanner does not see).
func JSONRefusedAt(line, col0 int64, doc []byte) Pos {
	if k, ok := JSONRefused(doc); ok {
		return AtOffset(line, col0, doc, k)
	}
	if json.Valid(doc) {
		return Pos{Line: line, Col: col0}
	}
	return AtOffset(line, col0, doc, len(doc))
}

// ColIn returns the 1-based column within line of value, a record's
// offending value, when value is a sub-slice of line (as the in-place
// readers cut it); else 1, the line's start.
func ColIn(line, value []byte) int64 {
	off := cap(line) - cap(value)
	if len(value) == 0 || off < 0 || off >= len(line) || &line[off] != &value[0] {
		return 1
	}
	return int64(off) + 1
}
