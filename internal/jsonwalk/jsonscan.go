package jsonwalk

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Results of ValueEnd.
const (
	OK   = iota
	More // the value runs past the end of the bytes given
	Bad  // the bytes are not JSON (or nest deeper than encoding/json allows)
)

// MaxDepth is encoding/json's nesting limit; deeper values are reported
// as bad so that the caller's fallback gives encoding/json's own error.
const MaxDepth = 10000

// ValueEnd validates the JSON value starting at b[i] (after optional
// white space) by the grammar of RFC 8259, as encoding/json does, and returns
// the index just past it. It allocates only when nesting is deeper than 64
// (stack is a scratch buffer the caller may pass back in).
//
// It is a hand-written scanner: one pass over the bytes with a stack of open
// '{' and '[', no tokens, no unescaping. A number ending exactly at len(b) is
// reported as More, since more digits may follow in the stream.
func ValueEnd(b []byte, i int, stack []byte) (int, int, []byte) {
	stack = stack[:0]
	for {
		// A value starts at i.
		i = SkipWS(b, i)
		if i >= len(b) {
			return i, More, stack
		}
		var st int
		switch c := b[i]; {
		case c == '{' || c == '[':
			if len(stack) >= MaxDepth {
				return i, Bad, stack
			}
			j := SkipWS(b, i+1)
			if j >= len(b) {
				return j, More, stack
			}
			if (c == '{' && b[j] == '}') || (c == '[' && b[j] == ']') {
				i = j + 1
				break
			}
			stack = append(stack, c)
			i = j
			if c == '{' {
				if i, st = Key(b, i); st != OK {
					return i, st, stack
				}
			}
			continue
		case c == '"':
			i, st = StringEnd(b, i)
		case c == '-' || (c >= '0' && c <= '9'):
			i, st = NumberEnd(b, i)
		default:
			i, st = LiteralEnd(b, i)
		}
		if st != OK {
			return i, st, stack
		}
		// A value ended at i: close containers until one goes on.
		for {
			if len(stack) == 0 {
				return i, OK, stack
			}
			i = SkipWS(b, i)
			if i >= len(b) {
				return i, More, stack
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				i++
				if top == '{' {
					if i, st = Key(b, i); st != OK {
						return i, st, stack
					}
				}
				break
			}
			if (top == '{' && b[i] == '}') || (top == '[' && b[i] == ']') {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return i, Bad, stack
		}
	}
}

// Key scans an object key and its ':' starting at b[i] (after optional
// white space) and returns the index after the ':'.
func Key(b []byte, i int) (int, int) {
	i = SkipWS(b, i)
	if i >= len(b) {
		return i, More
	}
	if b[i] != '"' {
		return i, Bad
	}
	i, st := StringEnd(b, i)
	if st != OK {
		return i, st
	}
	i = SkipWS(b, i)
	if i >= len(b) {
		return i, More
	}
	if b[i] != ':' {
		return i, Bad
	}
	return i + 1, OK
}

// SkipWS returns the index of the first byte at or after b[i] that is not
// JSON white space (space, tab, CR, LF), or len(b). Runs of spaces (the
// indentation of pretty-printed documents) are read sixteen bytes at a time.
func SkipWS(b []byte, i int) int {
	if i < len(b) && b[i] > ' ' {
		return i // the usual case, inlined
	}
	return skipWSRun(b, i)
}

// skipWSRun is SkipWS past its first byte.
func skipWSRun(b []byte, i int) int {
	const spaces = 0x2020202020202020
	for i < len(b) {
		if c := b[i]; c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return i
		}
		i++
		for i+16 <= len(b) && b[i] == ' ' {
			n1 := bits.TrailingZeros64(binary.LittleEndian.Uint64(b[i:])^spaces) >> 3
			n2 := bits.TrailingZeros64(binary.LittleEndian.Uint64(b[i+8:])^spaces) >> 3
			i += n1 + n2&-(n1>>3)
		}
	}
	return i
}

// StringEnd returns the index just past the string whose '"' is b[i].
// Plain bytes are skipped by a table lookup each (the export's strings are
// escaped JSON, with a '\\' every few bytes, so word-at-a-time skipping
// measured slower).
func StringEnd(b []byte, i int) (int, int) {
	for i++; i < len(b); i++ {
		for i < len(b) && !StringSpecial[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, OK
		case c < 0x20:
			return i, Bad
		}
		// c == '\\'
		if i+1 >= len(b) {
			return i, More
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if i+5 >= len(b) {
				return i, More
			}
			for _, h := range b[i+2 : i+6] {
				if Hex(h) < 0 {
					return i, Bad
				}
			}
			i += 5
		default:
			return i, Bad
		}
	}
	return i, More
}

// StringSpecial marks the bytes that end a run of plain string bytes:
// '"', '\\' and the control characters JSON forbids in strings.
var StringSpecial = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// Hex returns the value of hex digit h, or -1.
func Hex(h byte) rune {
	switch {
	case h >= '0' && h <= '9':
		return rune(h - '0')
	case h >= 'a' && h <= 'f':
		return rune(h - 'a' + 10)
	case h >= 'A' && h <= 'F':
		return rune(h - 'A' + 10)
	}
	return -1
}

// NumberEnd returns the index just past the number starting at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func NumberEnd(b []byte, i int) (int, int) {
	digits := func(i int) (int, bool) {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j, j > i
	}
	if b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, More
	}
	var ok bool
	switch {
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		i, _ = digits(i)
	default:
		return i, Bad
	}
	if i < len(b) && b[i] == '.' {
		if i, ok = digits(i + 1); !ok {
			return i, Cut(b, i)
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, ok = digits(i); !ok {
			return i, Cut(b, i)
		}
	}
	if i >= len(b) {
		return i, More
	}
	return i, OK
}

// Cut is More when i is the end of b (the value may go on), else Bad.
func Cut(b []byte, i int) int {
	if i >= len(b) {
		return More
	}
	return Bad
}

// LiteralEnd returns the index just past true, false or null at b[i].
func LiteralEnd(b []byte, i int) (int, int) {
	for _, lit := range []string{"true", "false", "null"} {
		if b[i] != lit[0] {
			continue
		}
		n := min(len(lit), len(b)-i)
		if string(b[i:i+n]) != lit[:n] {
			return i, Bad
		}
		if n < len(lit) {
			return i + n, More
		}
		return i + n, OK
	}
	return i, Bad
}

// AppendUnescaped appends the contents of the JSON string literal s
// (quotes included, already validated) to dst, and reports false when s
// holds something whose decoding this fast path does not reproduce exactly
// (a UTF-16 surrogate escape or invalid UTF-8): callers then fall back to a
// full JSON decoder.
func AppendUnescaped(dst, s []byte) ([]byte, bool) {
	return AppendUnescapedText(dst, s[1:len(s)-1])
}

// AppendUnescapedText is AppendUnescaped for the text of a string
// literal without its quotes (validated, and not cut inside an escape).
func AppendUnescapedText(dst, s []byte) ([]byte, bool) {
	start := len(dst)
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			dst = append(dst, s...)
			break
		}
		dst = append(dst, s[:i]...)
		switch c := s[i+1]; c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := Hex(s[i+2])<<12 | Hex(s[i+3])<<8 | Hex(s[i+4])<<4 | Hex(s[i+5])
			if r >= 0xD800 && r < 0xE000 {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
			s = s[i+6:]
			continue
		default: // '"', '\\', '/'
			dst = append(dst, c)
		}
		s = s[i+2:]
	}
	return dst, utf8.Valid(dst[start:])
}

// Skip returns the index just past the JSON value at b[i], which the
// caller already validated with ValueEnd.
func Skip(b []byte, i int, stack *[]byte) int {
	end, _, grown := ValueEnd(b, i, *stack)
	*stack = grown
	return end
}

// Int parses the plain integer (no fraction or exponent) at b[i] and
// returns it and the index after it; ok is false for any other value or an
// integer out of int64's range.
func Int(b []byte, i int) (v int64, end int, ok bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
		return 0, j, false
	}
	v, err := strconv.ParseInt(string(b[i:j]), 10, 64)
	return v, j, err == nil
}

// PlainString returns the string literal at b[i] (quotes included) and
// the index after it; ok is false when b[i] is not a string or the string
// has escapes or invalid UTF-8, whose decoding callers leave to a full decoder.
func PlainString(b []byte, i int) (s []byte, end int, ok bool) {
	if b[i] != '"' {
		return nil, i, false
	}
	end, _ = StringEnd(b, i)
	s = b[i+1 : end-1]
	return s, end, bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s)
}
