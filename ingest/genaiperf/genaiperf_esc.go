package genaiperf

import (
	"bytes"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The genai-perf decoder reads each SSE event of an OpenAI response in its
// escaped form: the event JSON as it stands inside the export's "response"
// string literal, where the event's own quotes are written \" and its
// backslashes \\. Nothing is unescaped or copied; the lexer below walks the
// escaped bytes once, validating the outer string and the event JSON
// together. It handles the escapes real exports hold (\" \\ \/ \n \t \r and
// \uXXXX standing for a printable character) and answers gpBail for
// anything else, which has the response (from the line where it stopped)
// or the request read unescaped (unescape,
// then decode); see genaiperf_read.go.

// Positions returned by the escaped scanners: an index into the buffer, or
// one of these.
const (
	gpBail = -1 // input the escaped reading does not handle: read it unescaped
	gpMore = -2 // the buffer ends before the request does
)

// gpEscPlain marks the bytes that stand for themselves inside an escaped
// event string: printable ASCII other than '"' and '\\'.
var gpEscPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// gpEsc is a lexer over escaped event text held in b, with the memos of
// facts (reset whenever b changes).
type gpEsc struct {
	b    []byte
	head gpEscHead
	tmpl gpEscTemplate
	text [2]int // a token string in the event being read; see gpEscTemplate
}

// ws skips the event's white space at b[i]: ' ' and the escapes \t and \r
// (\n ends the SSE line, so it is never white space inside an event).
func (e *gpEsc) ws(i int) int {
	b := e.b
	for i < len(b) {
		switch {
		case b[i] == ' ':
			i++
		case b[i] == '\\' && i+1 < len(b) && (b[i+1] == 't' || b[i+1] == 'r'):
			i += 2
		default:
			return i
		}
	}
	return i
}

// str scans the event string whose opening \" is at b[i] and returns the
// index past its closing \", and verbatim: whether its bytes in b are its
// contents (no escape at either level).
func (e *gpEsc) str(i int) (int, bool) {
	b, verbatim := e.b, true
	for i += 2; ; {
		for i < len(b) && gpEscPlain[b[i]] {
			i++
		}
		if i+1 >= len(b) {
			return gpMore, false
		}
		switch c := b[i]; {
		case c >= 0x80:
			if i = gpEscRune(b, i); i < 0 {
				return i, false
			}
			continue
		case c != '\\':
			return gpBail, false // the outer string ends inside the event, or a control byte
		}
		switch b[i+1] {
		case '"':
			return i + 2, verbatim
		case '\\':
			i = gpEscInner(b, i+2)
		case '/':
			i += 2
		case 'u':
			i = gpEscUnicode(b, i)
		default:
			return gpBail, false // a line break or control character inside the string
		}
		if i < 0 {
			return i, false
		}
		verbatim = false
	}
}

// gpEscRune returns the index past the UTF-8 sequence at b[i], or gpBail
// when it is invalid (the request is then read unescaped).
func gpEscRune(b []byte, i int) int {
	r, n := utf8.DecodeRune(b[i:])
	if r == utf8.RuneError && n <= 1 {
		if !utf8.FullRune(b[i:]) {
			return gpMore
		}
		return gpBail
	}
	return i + n
}

// gpEscInner reads the event's escape whose letter starts at b[j] (after
// the \\ that stands for its backslash) and returns the index past it.
func gpEscInner(b []byte, j int) int {
	if j+1 >= len(b) {
		return gpMore
	}
	switch b[j] {
	case 'n', 't', 'r', 'b', 'f', '/':
		return j + 1
	case '\\':
		if c := b[j+1]; c == '"' || c == '\\' || c == '/' {
			return j + 2
		}
	case 'u':
		if j+5 >= len(b) {
			return gpMore
		}
		for _, h := range b[j+1 : j+5] {
			if jsonwalk.Hex(h) < 0 {
				return gpBail
			}
		}
		return j + 5
	}
	return gpBail
}

// gpEscUnicode reads the outer escape \uXXXX at b[i] inside an event
// string; only a printable character other than '"' and '\\' is accepted.
func gpEscUnicode(b []byte, i int) int {
	if i+6 >= len(b) {
		return gpMore
	}
	var r rune
	for _, h := range b[i+2 : i+6] {
		v := jsonwalk.Hex(h)
		if v < 0 {
			return gpBail
		}
		r = r<<4 | v
	}
	if r < 0x20 || r == '"' || r == '\\' || (r >= 0xD800 && r < 0xE000) {
		return gpBail
	}
	return i + 6
}

// key reads an object key at b[i] and the ':' after it; it returns the
// key's bytes and the index of the value. Only keys of printable ASCII
// without escapes are read (others bail: the whole reading matches them
// with case folding and unescaping).
func (e *gpEsc) key(i int) ([]byte, int) {
	b := e.b
	if i+1 >= len(b) {
		return nil, gpMore
	}
	if b[i] != '\\' || b[i+1] != '"' {
		return nil, gpBail
	}
	j := i + 2
	for j < len(b) && gpEscPlain[b[j]] {
		j++
	}
	if j+1 >= len(b) {
		return nil, gpMore
	}
	if b[j] != '\\' || b[j+1] != '"' {
		return nil, gpBail
	}
	key := b[i+2 : j]
	j = e.ws(j + 2)
	if j >= len(b) {
		return nil, gpMore
	}
	if b[j] != ':' {
		return nil, gpBail
	}
	return key, e.ws(j + 1)
}

// gpEscKey returns the index of key (printable ASCII) in want (lower-case
// ASCII keys), or -1 for another key; ok is false when key matches one of
// want only with case folded, which the whole reading treats as
// that key.
func gpEscKey(key []byte, want []string) (k int, ok bool) {
	for i, w := range want {
		if len(key) != len(w) || key[0]|0x20 != w[0] {
			continue // neither equal nor equal with case folded
		}
		if string(key) == w {
			return i, true
		}
		if bytes.EqualFold(key, []byte(w)) {
			return -1, false
		}
	}
	return -1, true
}

// next reads what follows a member or element at b[i]: it returns the index
// after a ',' and more=true, or after the closing delimiter and more=false.
func (e *gpEsc) next(i int, close byte) (int, bool) {
	b := e.b
	i = e.ws(i)
	if i >= len(b) {
		return gpMore, false
	}
	switch b[i] {
	case ',':
		return e.ws(i + 1), true
	case close:
		return i + 1, false
	}
	return gpBail, false
}

// open reads the '{' or '[' (want) at b[i]; it returns the index of the
// first member or element and empty=true when the container is empty (the
// index is then past it).
func (e *gpEsc) open(i int, want, close byte) (int, bool) {
	b := e.b
	if i >= len(b) {
		return gpMore, false
	}
	if b[i] != want {
		return gpBail, false
	}
	i = e.ws(i + 1)
	if i >= len(b) {
		return gpMore, false
	}
	if b[i] == close {
		return i + 1, true
	}
	return i, false
}

// scalar skips the number or literal at b[i].
func (e *gpEsc) scalar(i int) int {
	b := e.b
	var st int
	if c := b[i]; c == '-' || (c >= '0' && c <= '9') {
		i, st = jsonwalk.NumberEnd(b, i)
	} else {
		i, st = jsonwalk.LiteralEnd(b, i)
	}
	switch st {
	case jsonwalk.OK:
		return i
	case jsonwalk.More:
		return gpMore
	}
	return gpBail
}

// int reads the plain integer at b[i] (no fraction or exponent, within
// int64), as jsonwalk.Int does.
func (e *gpEsc) int(i int) (int64, int) {
	end := e.scalar(i)
	if end < 0 {
		return 0, end
	}
	if c := e.b[i]; c != '-' && (c < '0' || c > '9') {
		return 0, gpBail
	}
	v, j, ok := jsonwalk.Int(e.b, i)
	if !ok || j != end {
		return 0, gpBail
	}
	return v, end
}

// gpEscMaxDepth bounds the nesting the escaped reading follows.
const gpEscMaxDepth = 32

// skip skips the event value at b[i], validating it, and returns the index
// past it.
func (e *gpEsc) skip(i int) int {
	var stack [gpEscMaxDepth]byte // the closing delimiters of the open containers
	depth := 0
	for {
		switch {
		case i < 0:
			return i
		case i >= len(e.b):
			return gpMore
		}
		if c := e.b[i]; c == '{' || c == '[' {
			var opened bool
			if i, opened = e.enter(i, c); opened {
				if depth == len(stack) {
					return gpBail
				}
				stack[depth], depth = gpEscCloser(c), depth+1
				continue
			}
		} else {
			i = e.leaf(i)
		}
		// A value ended at i: close containers until one goes on.
		for ; i >= 0 && depth > 0; depth-- {
			var more bool
			if i, more = e.next(i, stack[depth-1]); more {
				if stack[depth-1] == '}' {
					_, i = e.anyKey(i)
				}
				break
			}
		}
		if i < 0 || depth == 0 {
			return i
		}
	}
}

// gpEscCloser returns the delimiter that closes the container c opens.
func gpEscCloser(c byte) byte {
	if c == '{' {
		return '}'
	}
	return ']'
}

// enter reads the '{' or '[' (c) at b[i]: for an empty container it returns
// the index past it, else the index of its first value (after the key, for
// an object) and opened=true.
func (e *gpEsc) enter(i int, c byte) (int, bool) {
	j, empty := e.open(i, c, gpEscCloser(c))
	if j < 0 || empty {
		return j, false
	}
	if c == '{' {
		_, j = e.anyKey(j)
	}
	return j, true
}

// leaf skips the string, number or literal at b[i].
func (e *gpEsc) leaf(i int) int {
	if e.b[i] != '\\' {
		return e.scalar(i)
	}
	if !e.quote(i) {
		return gpBail
	}
	end, _ := e.str(i)
	return end
}

// anyKey reads an object key of any content at b[i] and the ':' after it;
// it returns verbatim (see str) and the index of the value.
func (e *gpEsc) anyKey(i int) (bool, int) {
	b := e.b
	if i < 0 {
		return false, i
	}
	if i+1 >= len(b) {
		return false, gpMore
	}
	if b[i] != '\\' || b[i+1] != '"' {
		return false, gpBail
	}
	j, verbatim := e.str(i)
	if j < 0 {
		return false, j
	}
	j = e.ws(j)
	if j >= len(b) {
		return false, gpMore
	}
	if b[j] != ':' {
		return false, gpBail
	}
	return verbatim, e.ws(j + 1)
}
