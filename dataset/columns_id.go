package dataset

import (
	"encoding/binary"
	"math/bits"
)

// ColumnsID is an id as 128 bits. An id of exactly 32 lowercase hex digits
// (a W3C trace id, a UUID folded to hex) is stored exactly; any other id as
// a 128-bit hash of its bytes (two independent 64-bit hashes), so two
// different ids share a ColumnsID with probability about 2⁻¹²⁸ per pair:
// below 10⁻²² for 50 million distinct ids. Equal ids always give equal
// ColumnsIDs; the empty id is the zero ColumnsID.
type ColumnsID [2]uint64

// ColumnsIDOf returns the ColumnsID of id.
func ColumnsIDOf(id string) ColumnsID {
	if id == "" {
		return ColumnsID{}
	}
	if v, ok := PackHex32(id); ok {
		return v
	}
	return ColumnsID{hashString(id, 0x9e3779b97f4a7c15), hashString(id, 0xc2b2ae3d27d4eb4f) | 1}
}

// PackHex32 packs 32 lowercase hex digits into 128 bits (the ColumnsID of
// that id), and returns false for anything else.
func PackHex32[T ~string | ~[]byte](s T) (ColumnsID, bool) {
	if len(s) != 32 {
		return ColumnsID{}, false
	}
	var v ColumnsID
	var bad uint8
	for half := range 2 {
		var x uint64
		for _, c := range []byte(s[half*16 : half*16+16]) {
			d := hexDigit[c]
			bad |= d
			x = x<<4 | uint64(d&15)
		}
		v[half] = x
	}
	return v, bad&0x80 == 0
}

// hexDigit maps a lowercase hex digit to its value and any other byte to
// 0x80.
var hexDigit = func() (t [256]uint8) {
	for i := range t {
		t[i] = 0x80
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = uint8(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = uint8(c-'a') + 10
	}
	return t
}()

// hashString is a 64-bit hash of s from seed: 8 bytes at a time through a
// 128-bit multiply-and-fold (as wyhash mixes), then a final avalanche.
func hashString(s string, seed uint64) uint64 {
	const p0, p1 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db
	h := seed ^ uint64(len(s))*p0
	for len(s) >= 8 {
		h = mix(h^binary.LittleEndian.Uint64([]byte(s[:8])), p1)
		s = s[8:]
	}
	var tail uint64
	for i := len(s) - 1; i >= 0; i-- {
		tail = tail<<8 | uint64(s[i])
	}
	h = mix(h^tail^p0, p1)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}
