package jsonwalk

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// The one in-place walker of the project: WalkObject and WalkArray walk
// unvalidated bytes and check the syntax as they go, so that a record is
// read in one pass: the callbacks validate the values they read
// (WalkString, Float, StrictInt) and skip the others with
// WalkSkip. Every function returns -1 (or ok false) for bytes that are
// not JSON, whatever the callbacks were told before; callers then hand the
// record to a full decoder, which gives its own error.

// WalkMaxDepth bounds the nesting of a value WalkSkip skips, far
// below encoding/json's limit, so that the depth of the walk itself never
// decides between valid and too deep: deeper values go to the full decoder.
const WalkMaxDepth = 512

// WalkObject walks the members of the JSON object at b[i] (after
// optional white space), calling member with each key's raw bytes (between
// the quotes, escapes left as they are) and the index of its value; member
// validates the value and returns the index just past it, or -1 to stop.
// WalkObject returns the index just past the object, or -1.
func WalkObject(b []byte, i int, member func(key []byte, j int) int) int {
	i = SkipWS(b, i)
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	if i = SkipWS(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kEnd, st := StringEndSWAR(b, i) // keys are short and plain
		if st != OK {
			return -1
		}
		colon := SkipWS(b, kEnd)
		if colon >= len(b) || b[colon] != ':' {
			return -1
		}
		j := SkipWS(b, colon+1)
		if j >= len(b) {
			return -1
		}
		if i = member(b[i+1:kEnd-1], j); i < 0 {
			return -1
		}
		if i = SkipWS(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case '}':
			return i + 1
		case ',':
			i = SkipWS(b, i+1)
		default:
			return -1
		}
	}
}

// WalkArray walks the elements of the JSON array at b[i] (after
// optional white space), calling elem with the index of each; elem
// validates the element and returns the index just past it, or -1 to stop.
// WalkArray returns the index just past the array, or -1.
func WalkArray(b []byte, i int, elem func(j int) int) int {
	i = SkipWS(b, i)
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	if i = SkipWS(b, i+1); i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i >= len(b) {
			return -1
		}
		if i = elem(i); i < 0 {
			return -1
		}
		if i = SkipWS(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ']':
			return i + 1
		case ',':
			i = SkipWS(b, i+1)
		default:
			return -1
		}
	}
}

// WalkSkip validates the JSON value at b[j] and returns the index just
// past it, or -1 for a value that is not JSON or nests deeper than
// WalkMaxDepth. stack is the scanner's scratch.
func WalkSkip(b []byte, j int, stack *[]byte) int {
	end, st, grown := ValueEnd(b, j, *stack)
	*stack = grown[:0]
	if cap(grown) > WalkMaxDepth {
		*stack = nil // let the scratch go; a record this deep goes to the full decoder
		return -1
	}
	if st != OK {
		return -1
	}
	return end
}

// WalkString returns the raw contents of the JSON string literal at
// b[j] (between the quotes) and the index after it; ok is false when b[j]
// does not start a valid string. plain is false when the contents have
// escapes or invalid UTF-8, which need AppendUnescaped or a full decoder.
//
// Eight bytes at a time it looks for the first byte that is not plain
// ASCII string contents (ASCIIStop): a closing '"' there ends a plain
// string in one pass; anything else (an escape, a control character,
// non-ASCII, fewer than eight bytes left) goes on byte by byte from the
// start. OTLP's keys, ids and values are plain: this took the walker's
// string scanning from a third of BenchmarkDecodeOTLP's time to ~a tenth.
func WalkString(b []byte, j int) (s []byte, end int, plain, ok bool) {
	if j >= len(b) || b[j] != '"' {
		return nil, j, false, false
	}
	for k := j + 1; k+8 <= len(b); k += 8 {
		if m := ASCIIStop(binary.LittleEndian.Uint64(b[k:])); m != 0 {
			if k += bits.TrailingZeros64(m) / 8; b[k] == '"' {
				return b[j+1 : k], k + 1, true, true
			}
			break
		}
	}
	end, st := StringEnd(b, j)
	if st != OK {
		return nil, end, false, false
	}
	s = b[j+1 : end-1]
	for _, c := range s { // one pass for the usual plain ASCII string
		if c == '\\' || c >= utf8.RuneSelf {
			return s, end, bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s), true
		}
	}
	return s, end, true, true
}

// WalkLiteral returns the index after the literal lit ("true", "false"
// or "null") at b[j], or -1 when b[j] does not start it.
func WalkLiteral(b []byte, j int, lit string) int {
	if len(b)-j < len(lit) || string(b[j:j+len(lit)]) != lit {
		return -1
	}
	return j + len(lit)
}

// StructKey returns the index of key (raw, between the quotes) in
// names, the JSON names of a struct's fields; -1 for a key that struct
// decoding ignores; and ok false for a key it might match after unescaping
// or case-insensitively (encoding/json and goccy/go-json fold case, the
// Kelvin sign included), which callers leave to the full decoder.
func StructKey(key []byte, names []string) (int, bool) {
	for i, n := range names {
		if string(key) == n {
			return i, true
		}
	}
	for _, c := range key {
		if c == '\\' || c >= 0x80 {
			return -1, false
		}
	}
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return -1, false
		}
	}
	return -1, true
}

// EndIf returns end when ok, else -1.
func EndIf(ok bool, end int) int {
	if ok {
		return end
	}
	return -1
}
