package jsonwalk

import (
	"encoding/json"
	"strings"
	"testing"
)

// skipAtStd is SkipAt by encoding/json: the value wrapped in depth arrays
// is valid, and the value's end is where a json.Decoder stops reading it.
func skipAtStd(b []byte, j, depth int) int {
	dec := json.NewDecoder(strings.NewReader(string(b[j:])))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return -1
	}
	end := j + int(dec.InputOffset())
	wrapped := strings.Repeat("[", depth) + string(b[j:end]) + strings.Repeat("]", depth)
	if !json.Valid([]byte(wrapped)) {
		return -1
	}
	return end
}

func TestSkipAt(t *testing.T) {
	deep := func(k int) string { return strings.Repeat("[", k) + strings.Repeat("]", k) }
	cases := []struct {
		in          string
		depth, want int
	}{
		{`1,`, 3, 1},
		{`{"a":[1,{"b":null}]} `, 1, 20},
		{`"x\u00e9"}`, 2, 9},
		{`{"a":}`, 0, -1},
		{`[1,2`, 0, -1},
		{deep(9999), 1, 19998}, // 9,999 + 1 = encoding/json's limit
		{deep(9999), 2, -1},    // one level too deep
		{deep(10000), 0, 20000},
		{deep(10001), 0, -1},
		{strings.Repeat(`{"a":`, 9998) + "1" + strings.Repeat("}", 9998), 2, 9998*6 + 1},
		{strings.Repeat(`{"a":`, 9998) + "1" + strings.Repeat("}", 9998), 3, -1},
	}
	var stack []byte
	for _, c := range cases {
		if got := SkipAt([]byte(c.in), 0, c.depth, &stack); got != c.want {
			t.Errorf("SkipAt(%.40q, depth %d) = %d; want %d", c.in, c.depth, got, c.want)
		}
		if std := skipAtStd([]byte(c.in), 0, c.depth); std != c.want {
			t.Errorf("encoding/json gives %d for %.40q, depth %d; want %d", std, c.in, c.depth, c.want)
		}
	}
}

// FuzzSkipAt checks SkipAt against encoding/json on values that end the
// input or are followed by a space and more text.
func FuzzSkipAt(f *testing.F) {
	for _, s := range []string{`1`, `{"a":[1,{"b":null}]}`, `"x\u00e9"`, `[[[]]]`, `tru`, `-0.5e+3`} {
		f.Add([]byte(s), uint16(1))
	}
	f.Fuzz(func(t *testing.T, b []byte, depth uint16) {
		d := int(depth % 10002)
		in := append(append([]byte{}, b...), " x"...) // a number never ends the input
		var stack []byte
		got, want := SkipAt(in, 0, d, &stack), skipAtStd(in, 0, d)
		if got != want {
			t.Fatalf("SkipAt(%q, %d) = %d; encoding/json %d", in, d, got, want)
		}
	})
}

// FuzzSkipDeep checks SkipDeep against encoding/json on values that end
// the input or are followed by a space and more text (a value it marks
// deep is left to the caller's check).
func FuzzSkipDeep(f *testing.F) {
	for _, s := range []string{`1`, `{"a":[1,{"b":null}]}`, `"x\u00e9"`, `[[[]]]`, `tru`, `-0.5e+3`, ` 7`, `"abcdefghijk"`, `nul`, `"1795428002190144265"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := append(append([]byte{}, b...), " x"...) // a number never ends the input
		var stack []byte
		got, deep := SkipDeep(in, 0, &stack)
		if want := skipAtStd(in, 0, 0); got != want && !deep {
			t.Fatalf("SkipDeep(%q) = %d; encoding/json %d", in, got, want)
		}
	})
}
