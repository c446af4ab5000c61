package jsonwalk

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Word-at-a-time (SWAR) scanning of JSON strings for the jsonl fast path,
// whose strings are mostly plain ASCII ids, dates and paths: eight bytes are
// tested at once for the bytes that end a plain run, and anything else is
// left to the byte-wise StringEnd and utf8.Valid.

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// swarZero flags the zero bytes of x; the lowest flag is exact (borrows
// only make false flags above a zero byte).
func swarZero(x uint64) uint64 { return (x - swarOnes) & ^x & swarHighs }

// swarStringSpecial flags the bytes of x that StringSpecial marks:
// '"', '\\' and those below 0x20; the lowest flag is exact.
func swarStringSpecial(x uint64) uint64 {
	return swarZero(x^(swarOnes*'"')) | swarZero(x^(swarOnes*'\\')) | (x-swarOnes*0x20)&^x&swarHighs
}

// ASCIIStop flags the bytes of x that end a run of plain ASCII string
// bytes: those swarStringSpecial flags and the non-ASCII ones; the lowest
// flag is exact.
func ASCIIStop(x uint64) uint64 { return swarStringSpecial(x) | x&swarHighs }

// StringEndSWAR is StringEnd: the index just past the string whose
// '"' is b[i], and its scan status. A string with an escape or a control
// character is handed to StringEnd.
func StringEndSWAR(b []byte, i int) (int, int) {
	j := i + 1
	for ; j+8 <= len(b); j += 8 {
		if m := swarStringSpecial(binary.LittleEndian.Uint64(b[j:])); m != 0 {
			j += bits.TrailingZeros64(m) / 8
			if b[j] == '"' {
				return j + 1, OK
			}
			return StringEnd(b, i)
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; StringSpecial[c] {
			if c == '"' {
				return j + 1, OK
			}
			break
		}
	}
	return StringEnd(b, i)
}

// Plain reports whether a raw key or string's contents are their
// decoded self: no escapes, valid UTF-8.
func Plain(s []byte) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		if swarZero(x^(swarOnes*'\\'))|x&swarHighs != 0 {
			return jsonlPlainSlow(s)
		}
	}
	for _, c := range s[i:] {
		if c == '\\' || c >= utf8.RuneSelf {
			return jsonlPlainSlow(s)
		}
	}
	return true
}

func jsonlPlainSlow(s []byte) bool {
	for _, c := range s {
		if c == '\\' {
			return false
		}
	}
	return utf8.Valid(s)
}
