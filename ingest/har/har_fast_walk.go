package har

import (
	"encoding/binary"
	"math/bits"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// Walkers for the pretty-printed HAR documents: jsonWalkObject and
// jsonWalkArray with a white-space skip that takes runs of indentation
// eight bytes at a time. In the first fast path a tenth of the time went
// to jsonSkipWS stepping through the indentation byte by byte.

// harSkipWS is jsonSkipWS, with runs of spaces (indentation) read sixteen
// bytes at a time, without a branch on their length.
func harSkipWS(b []byte, i int) int {
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

// harWS is harSkipWS, inlined for the usual case of no white space.
func harWS(b []byte, i int) int {
	if i < len(b) && b[i] > ' ' {
		return i
	}
	return harSkipWS(b, i)
}

// harWalkObject is jsonWalkObject with harSkipWS.
func harWalkObject(b []byte, i int, member func(key []byte, j int) int) int {
	i = harWS(b, i)
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	if i = harWS(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kEnd, _, _ := harStringEnd(b, i)
		if kEnd < 0 {
			return -1
		}
		colon := harWS(b, kEnd)
		if colon >= len(b) || b[colon] != ':' {
			return -1
		}
		j := harWS(b, colon+1)
		if j >= len(b) {
			return -1
		}
		if i = member(b[i+1:kEnd-1], j); i < 0 {
			return -1
		}
		if i = harWS(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case '}':
			return i + 1
		case ',':
			i = harWS(b, i+1)
		default:
			return -1
		}
	}
}

// harWalkArray is jsonWalkArray with harSkipWS.
func harWalkArray(b []byte, i int, elem func(j int) int) int {
	i = harWS(b, i)
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	if i = harWS(b, i+1); i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i >= len(b) {
			return -1
		}
		if i = elem(i); i < 0 {
			return -1
		}
		if i = harWS(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ']':
			return i + 1
		case ',':
			i = harWS(b, i+1)
		default:
			return -1
		}
	}
}

// harSkip is jsonWalkSkip with the usual scalars and empty containers read
// here, without jsonValueEnd's set-up.
func harSkip(b []byte, j int, stack *[]byte) int {
	switch c := b[j]; {
	case c == '"':
		end, _, _ := harStringEnd(b, j)
		return end
	case c == '-' || c >= '0' && c <= '9':
		end, st := jsonwalk.NumberEnd(b, j)
		if st != jsonwalk.OK {
			return -1
		}
		return end
	case c == 't':
		return jsonwalk.WalkLiteral(b, j, "true")
	case c == 'f':
		return jsonwalk.WalkLiteral(b, j, "false")
	case c == 'n':
		return jsonwalk.WalkLiteral(b, j, "null")
	case c == '[' || c == '{':
		if k := harWS(b, j+1); k < len(b) && b[k] == c+2 { // ']' and '}' follow '[' and '{' by two
			return k + 1
		}
	}
	return jsonwalk.WalkSkip(b, j, stack)
}
