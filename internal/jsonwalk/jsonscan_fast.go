package jsonwalk

import (
	"bytes"
	"encoding/binary"
)

// ScalarEnd checks the JSON value at b[j] and returns the index after
// it, or -1 when it is not valid JSON. An object or array is checked by
// ValueEnd only when too short to nest 9,999 deep (encoding/json's
// limit counts the record around it), else -1.
func ScalarEnd(b []byte, j int, stack *[]byte) int {
	if j >= len(b) {
		return -1
	}
	end, st := 0, Bad
	switch c := b[j]; {
	case c == '"':
		end, st = StringEndFast(b, j)
	case c == '-' || c >= '0' && c <= '9':
		end, st = NumberEnd(b, j)
	case c == '{' || c == '[':
		end, st, *stack = ValueEnd(b, j, *stack)
		if end-j > 19000 {
			return -1
		}
	default:
		end, st = LiteralEnd(b, j)
	}
	if st != OK {
		return -1
	}
	return end
}

// ValidObject is json.Valid for text starting with '{' (after white
// space), by the in-place scanner; stack is its scratch buffer.
func ValidObject(b []byte, stack *[]byte) bool {
	end, st, grown := ValueEnd(b, 0, *stack)
	*stack = grown
	return st == OK && SkipWS(b, end) == len(b)
}

// StringEndFast is StringEnd for the string whose '"' is b[i],
// eight bytes at a time while they hold no '"', '\\' or control character
// (Envoy's keys and values are short and plain); at the first such byte it
// goes on byte by byte, and hands a string with escapes to StringEnd.
func StringEndFast(b []byte, i int) (int, int) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	j := i + 1
	for ; j+8 <= len(b); j += 8 {
		x := binary.LittleEndian.Uint64(b[j:])
		q, bs := x^(ones*'"'), x^(ones*'\\')
		if ((q-ones)&^q|(bs-ones)&^bs|(x-ones*0x20)&^x)&highs != 0 {
			break
		}
	}
	for ; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, OK
		case c == '\\':
			return StringEnd(b, i)
		case c < 0x20:
			return j, Bad
		}
	}
	return j, More
}

// HasKey reports whether b holds "key" followed by a colon.
func HasKey(b []byte, key string) bool {
	q := []byte(`"` + key + `"`)
	for {
		i := bytes.Index(b, q)
		if i < 0 {
			return false
		}
		b = b[i+len(q):]
		if rest := bytes.TrimLeft(b, " \t"); len(rest) > 0 && rest[0] == ':' {
			return true
		}
	}
}

// Printable reports whether s has no control characters, which a JSON
// string may not hold unescaped.
func Printable(s []byte) bool {
	for _, c := range s {
		if c < 0x20 {
			return false
		}
	}
	return true
}
