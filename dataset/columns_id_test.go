package dataset

import (
	"math/rand/v2"
	"testing"
)

// packHex32Ref is PackHex32 as it was written before Hex8: a table lookup
// per digit. The tests hold PackHex32 to it.
func packHex32Ref(s string) (ColumnsID, bool) {
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

// TestPackHex32 puts every byte value at every position of an otherwise
// valid id, and tries random ids, against packHex32Ref; and checks that
// Hex8 takes upper-case letters only when asked.
func TestPackHex32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 32))
	const digits = "0123456789abcdef"
	id := func() []byte {
		b := make([]byte, 32)
		for i := range b {
			b[i] = digits[rng.IntN(16)]
		}
		return b
	}
	check := func(s string) {
		got, gotOK := PackHex32(s)
		want, wantOK := packHex32Ref(s)
		if gotOK != wantOK || gotOK && got != want {
			t.Fatalf("PackHex32(%q) = %x, %v; want %x, %v", s, got, gotOK, want, wantOK)
		}
	}
	for pos := range 32 {
		for c := range 256 {
			b := id()
			b[pos] = byte(c)
			check(string(b))
		}
	}
	for range 10000 {
		check(string(id()))
	}
	check("")
	check("0123456789abcdef0123456789abcdef0")
	if v, ok := Hex8(le64("DEADbeef", 0), true); !ok || v != 0xdeadbeef {
		t.Errorf("Hex8(DEADbeef, upper) = %x, %v", v, ok)
	}
	if _, ok := Hex8(le64("DEADbeef", 0), false); ok {
		t.Error("Hex8(DEADbeef) takes upper-case letters")
	}
}

// FuzzPackHex32 holds PackHex32 to packHex32Ref on any string.
func FuzzPackHex32(f *testing.F) {
	f.Add("4bf92f3577b34da6a3ce929d0e0e4736")
	f.Add("4bf92f3577b34da6a3ce929d0e0e473G")
	f.Fuzz(func(t *testing.T, s string) {
		got, gotOK := PackHex32(s)
		want, wantOK := packHex32Ref(s)
		if gotOK != wantOK || gotOK && got != want {
			t.Fatalf("PackHex32(%q) = %x, %v; want %x, %v", s, got, gotOK, want, wantOK)
		}
	})
}
