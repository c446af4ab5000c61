package genaiperf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// gpScanner reads the genai-perf document as a stream of bytes: white space,
// single delimiters, strings, and whole values whose bytes it returns. It
// keeps in memory only the value being read (one request object), never the
// document. Syntax errors inside a value are described by encoding/json
// (see valueError), so rejects read as they did with a json.Decoder.
type gpScanner struct {
	r     io.Reader
	buf   []byte
	pos   int // next unread byte of buf
	eof   bool
	err   error  // read error other than io.EOF
	stack []byte // scratch for jsonValueEnd
	// Where buf[0] lies in the input, for the position of an error: base
	// is its byte offset, lines the line feeds before it and lineStart the
	// offset of the line it is on.
	base, lines, lineStart int64
}

// gpReadSize is the size of each read from the input.
const gpReadSize = 256 << 10

// fill reads more input, keeping buf[keep:]; it reports false at the end.
// Offsets into buf taken before a fill are relative to keep afterwards.
func (s *gpScanner) fill(keep int) bool {
	if s.eof {
		return false
	}
	s.compact(keep, gpReadSize)
	return s.read()
}

// compact moves buf[keep:] to the front, growing the buffer (by doubling)
// until at least room bytes are free after it.
func (s *gpScanner) compact(keep, room int) {
	n := len(s.buf) - keep
	if keep > 0 {
		s.drop(keep)
		copy(s.buf, s.buf[keep:])
	}
	s.buf, s.pos = s.buf[:n], s.pos-keep
	if cap(s.buf)-n < room {
		s.buf = append(s.buf[:cap(s.buf)], make([]byte, max(room, cap(s.buf)))...)[:n]
	}
}

// drop counts the line feeds of buf[:keep], which compact moves past.
func (s *gpScanner) drop(keep int) {
	if nl := bytes.Count(s.buf[:keep], []byte{'\n'}); nl > 0 {
		s.lines += int64(nl)
		s.lineStart = s.base + int64(bytes.LastIndexByte(s.buf[:keep], '\n')) + 1
	}
	s.base += int64(keep)
}

// at returns the position in the input of the next unread byte: where a
// value or delimiter that could not be read starts.
func (s *gpScanner) at() decode.Pos {
	before := s.buf[:min(s.pos, len(s.buf))]
	if nl := bytes.Count(before, []byte{'\n'}); nl > 0 {
		return decode.Pos{Line: s.lines + int64(nl) + 1, Col: int64(len(before) - bytes.LastIndexByte(before, '\n'))}
	}
	return decode.Pos{Line: s.lines + 1, Col: s.base + int64(len(before)) - s.lineStart + 1}
}

// ahead reads until at least n bytes follow pos or the input ends, and
// reports whether it read any. When the buffer is nearly full the unread
// bytes (fewer than n) move to its front with room for 3n after them, so
// that the move copies at most a third of what is then read.
func (s *gpScanner) ahead(n int) bool {
	read := false
	for len(s.buf)-s.pos < n && !s.eof {
		if cap(s.buf)-len(s.buf) < gpReadSize/4 {
			s.compact(s.pos, 3*n)
		}
		read = s.read() || read
	}
	return read
}

// read appends what one read of the input gives to buf; it reports false
// at the end.
func (s *gpScanner) read() bool {
	n := len(s.buf)
	m, err := io.ReadAtLeast(s.r, s.buf[n:cap(s.buf)], 1)
	s.buf = s.buf[:n+m]
	if err != nil {
		s.eof = true
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			s.err = err
		}
	}
	return m > 0
}

// peek skips white space and returns the next byte, or an error at the end.
func (s *gpScanner) peek() (byte, error) {
	for {
		s.pos = jsonwalk.SkipWS(s.buf, s.pos)
		if s.pos < len(s.buf) {
			return s.buf[s.pos], nil
		}
		if !s.fill(s.pos) {
			return 0, s.endErr()
		}
	}
}

// endErr is the error of reading past the end: the read error, or io.EOF.
func (s *gpScanner) endErr() error {
	if s.err != nil {
		return s.err
	}
	return io.EOF
}

// delim consumes the delimiter want (after white space).
func (s *gpScanner) delim(want byte) error {
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c != want {
		return fmt.Errorf("expected %c, found %s", want, quoteChar(c))
	}
	s.pos++
	return nil
}

// value reads the next JSON value whole and returns its bytes, valid until
// the next call. A malformed value gives encoding/json's error for it.
func (s *gpScanner) value() ([]byte, error) {
	if _, err := s.peek(); err != nil {
		return nil, err
	}
	for {
		end, st, stack := jsonwalk.ValueEnd(s.buf, s.pos, s.stack)
		s.stack = stack
		switch {
		case st == jsonwalk.OK:
			v := s.buf[s.pos:end]
			s.pos = end
			return v, nil
		case st == jsonwalk.More && s.fill(s.pos):
			continue
		}
		return nil, s.valueError()
	}
}

// valueError re-reads the malformed value at pos with encoding/json, whose
// error message the rejects have always carried.
func (s *gpScanner) valueError() error {
	if s.err != nil {
		return s.err
	}
	var raw json.RawMessage
	err := json.NewDecoder(io.MultiReader(bytes.NewReader(s.buf[s.pos:]), s.r)).Decode(&raw)
	if err == nil {
		err = errors.New("invalid json")
	}
	return err
}

// key reads an object key and its ':' and returns the key, unescaped.
func (s *gpScanner) key() (string, error) {
	v, err := s.value()
	if err != nil {
		return "", err
	}
	if v[0] != '"' {
		return "", fmt.Errorf("object key %s", v)
	}
	var k string
	if err := json.Unmarshal(v, &k); err != nil {
		return "", err
	}
	return k, s.delim(':')
}

// more reports whether another element follows in the open object or array
// (consuming the ',' before it); first is true before the first element.
func (s *gpScanner) more(first bool, end byte) (bool, error) {
	c, err := s.peek()
	if err != nil {
		return false, err
	}
	switch {
	case c == end:
		return false, nil
	case first:
		return true, nil
	case c == ',':
		s.pos++
		return true, nil
	}
	return false, fmt.Errorf("invalid character %s after %s element", quoteChar(c), map[byte]string{'}': "object", ']': "array"}[end])
}

// quoteChar formats c as encoding/json does in syntax errors.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := fmt.Sprintf("%q", string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
