package jsonwalk

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestJSONSWAR checks StringEndSWAR against StringEnd and Plain
// against its definition on random strings of the bytes that matter, at
// every alignment.
func TestJSONSWAR(t *testing.T) {
	alphabet := []byte("ab\"\\\x01\x1f \x7f\x80\xc3\xa9\xffun0")
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
			if r.IntN(3) > 0 {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		s := append([]byte{'"'}, b...)
		e1, st1 := StringEndSWAR(s, 0)
		e2, st2 := StringEnd(s, 0)
		if st1 != st2 || st1 == OK && e1 != e2 {
			t.Fatalf("%q: SWAR %d %d, jsonStringEnd %d %d", s, e1, st1, e2, st2)
		}
		want := bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b)
		if got := Plain(b); got != want {
			t.Fatalf("%q: jsonlPlain %v", b, got)
		}
	}
}
