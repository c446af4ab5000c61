package decode

import (
	"testing"
)

func TestValueArena(t *testing.T) {
	var a ValueArena
	var ps []*int64
	for i := range 1000 {
		ps = append(ps, a.Int64(int64(i)))
	}
	for i, p := range ps {
		if *p != int64(i) {
			t.Fatalf("value %d is %d", i, *p)
		}
	}
	var tab InternTable
	values := []string{"POST", "GET", "", "/v1/chat/completions", "PUT", "POSTS", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	for round := range 2 {
		for _, v := range values {
			if s := tab.Get([]byte(v)); s != v {
				t.Errorf("intern(%q) = %q", v, s)
			}
		}
		if n := len(tab.m); n > len(values) || round == 0 && n < len(values)-1 {
			t.Errorf("round %d: intern table holds %d values", round, n)
		}
	}
}
