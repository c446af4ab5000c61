package jsonwalk

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendString appends the JSON string literal at b[j] to dst as
// encoding/json decodes it into a Go string (escapes decoded, a surrogate
// pair as its rune, invalid UTF-8 and lone surrogates as U+FFFD) and
// returns the index just past the literal; ok is false when b[j] does not
// start a valid string literal. It reads the literal once, copying runs of
// plain ASCII eight bytes at a time: Text for long strings full of escapes,
// such as JSON documents held in a string.
func AppendString(dst, b []byte, j int) (out []byte, end int, ok bool) {
	if j >= len(b) || b[j] != '"' {
		return dst, j, false
	}
	for i := j + 1; ; {
		k := plainEnd(b, i)
		dst = append(dst, b[i:k]...)
		if i = k; i >= len(b) {
			return dst, i, false
		}
		switch c := b[i]; {
		case c == '"':
			return dst, i + 1, true
		case c < 0x20:
			return dst, i, false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[i:]) // a '"' never continues a sequence
			dst = utf8.AppendRune(dst, r)  // U+FFFD for a byte of invalid UTF-8
			i += n
			continue
		}
		var r rune
		if r, i = escape(b, i); r < 0 {
			return dst, i, false
		}
		dst = utf8.AppendRune(dst, r)
	}
}

// plainEnd returns the index of the first byte at or after b[i] that is
// '"', '\\', a control byte or not ASCII, or len(b).
func plainEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := ASCIIStop(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' && b[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// escape decodes the escape at b[i] (a '\\') as encoding/json does and
// returns its rune and the index past it; -1 for an escape that is not
// JSON. A high surrogate followed by a low one's escape is their pair; any
// other surrogate is U+FFFD.
func escape(b []byte, i int) (rune, int) {
	if i+1 >= len(b) {
		return -1, i
	}
	switch c := b[i+1]; c {
	case '"', '\\', '/':
		return rune(c), i + 2
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
		r := hex4(b, i)
		if r < 0 {
			return -1, i
		}
		if !utf16.IsSurrogate(r) {
			return r, i + 6
		}
		if pair := utf16.DecodeRune(r, hex4(b, i+6)); pair != utf8.RuneError {
			return pair, i + 12
		}
		return utf8.RuneError, i + 6
	}
	return -1, i
}

// hex4 returns the value of the \uXXXX escape at b[i], or -1.
func hex4(b []byte, i int) rune {
	if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
		return -1
	}
	var r rune
	for _, h := range b[i+2 : i+6] {
		v := Hex(h)
		if v < 0 {
			return -1
		}
		r = r<<4 | v
	}
	return r
}

// NumberText returns the json.Number at b[j] as encoding/json decodes it:
// a number as written, or the text of a string holding exactly one (see
// IsNumber); ok is false for any other value. The index past the value
// is returned; a number that ends b is taken whole.
func NumberText(b []byte, j int) (s []byte, end int, ok bool) {
	switch {
	case j >= len(b):
		return nil, j, false
	case b[j] == '"':
		s, end, ok = Text(b, j)
		return s, end, ok && IsNumber(s)
	case b[j] == '-' || b[j] >= '0' && b[j] <= '9':
		end, st := NumberEnd(b, j)
		return b[j:end], end, st == OK || st == More && IsNumber(b[j:end]) // More: b ends in the number
	}
	return nil, j, false
}
