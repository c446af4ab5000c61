package textscan

import "bytes"

// IndexLiteral returns the index of the first occurrence of lit (not empty)
// in s, or -1, and whether it is the first occurrence of lit's first byte.
func IndexLiteral(s, lit []byte) (int, bool) {
	if len(lit) == 1 {
		return bytes.IndexByte(s, lit[0]), true
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(s[i:], lit[0])
		if j < 0 {
			return -1, false
		}
		if i += j; len(s)-i < len(lit) {
			return -1, false
		}
		if hasLiteralAt(s[i:i+len(lit)], lit) {
			return i, i == j
		}
	}
}

// hasLiteralAt reports whether s, as long as lit and starting with its
// first byte, equals lit: the literals are short, so a loop beats the call
// to the runtime's comparison.
func hasLiteralAt(s, lit []byte) bool {
	for k := 1; k < len(lit) && k < len(s); k++ {
		if s[k] != lit[k] {
			return false
		}
	}
	return true
}
