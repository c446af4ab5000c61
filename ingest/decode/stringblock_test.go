package decode

import (
	"fmt"
	"testing"
)

// TestStringBlock checks that strings handed out keep their values while
// later ones fill and replace blocks, and that long values are copied.
func TestStringBlock(t *testing.T) {
	var s StringBlock
	var got, want []string
	buf := make([]byte, 0, 64)
	for i := range 5000 {
		buf = fmt.Appendf(buf[:0], "id-%d-%x", i, i*i)
		if i%97 == 0 {
			buf = append(buf, make([]byte, stringBlockSize/4)...)
		}
		got, want = append(got, s.Get(buf)), append(want, string(buf))
		buf[0] = 'X' // the caller reuses its buffer
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
	if s.Get(nil) != "" {
		t.Fatal("get(nil) != \"\"")
	}
}
