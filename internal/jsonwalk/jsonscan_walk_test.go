package jsonwalk

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// walkValue validates the value at b[i] with the walker alone (containers by
// WalkObject and WalkArray, scalars by WalkString, Float and
// WalkLiteral) and returns the index after it, or -1.
func walkValue(b []byte, i, depth int) int {
	i = SkipWS(b, i)
	if i >= len(b) || depth > 100 {
		return -1
	}
	switch c := b[i]; {
	case c == '{':
		return WalkObject(b, i, func(_ []byte, j int) int { return walkValue(b, j, depth+1) })
	case c == '[':
		return WalkArray(b, i, func(j int) int { return walkValue(b, j, depth+1) })
	case c == '"':
		if _, end, _, ok := WalkString(b, i); ok {
			return end
		}
		return -1
	case c == 't':
		return WalkLiteral(b, i, "true")
	case c == 'f':
		return WalkLiteral(b, i, "false")
	case c == 'n':
		return WalkLiteral(b, i, "null")
	}
	// A number out of float64's range is still JSON.
	if end, st := NumberEnd(b, i); st == OK {
		_, err := strconv.ParseFloat(string(b[i:end]), 64)
		if _, fend, ok := Float(b, i); fend != end || ok != (err == nil) {
			return -2 // jsonFloat disagrees with jsonNumberEnd
		}
		return end
	}
	return -1
}

// checkWalk compares the walker's verdict on s with ValueEnd's.
func checkWalk(t *testing.T, s string) {
	b := []byte(s + " ") // a number may not end the input
	end, st, _ := ValueEnd(b, 0, nil)
	want := -1
	if st == OK {
		want = end
	}
	if got := walkValue(b, 0, 0); got != want && !(got == -1 && strings.Count(s, "[")+strings.Count(s, "{") > 100) {
		t.Fatalf("walk %q = %d; jsonValueEnd gives %d (status %d)", s, got, want, st)
	}
	if st == OK && (s[0] == '{' || s[0] == '[' || s[0] == '"') {
		var stack []byte
		if got := WalkSkip(b, 0, &stack); got != end && !(got == -1 && cap(stack) == 0) {
			t.Fatalf("jsonWalkSkip(%q) = %d; want %d", s, got, end)
		}
	}
}

var walkCases = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"x\"y"}`, ` { "a" : [ ] , "b" : { } } `,
	`{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":}`, `{a:1}`, `[1 2]`, `{"a":1"b":2}`, `{"a":01}`, `[-]`, `[1.]`,
	`[1e]`, `[1e+]`, `[.5]`, `[-0.0e-0]`, `[tru]`, `[nul]`, `["\x"]`, `["\u12"]`, `["` + "\x01" + `"]`,
	`[1e999]`, `{"a":1}}`, `[[[[]]]]`, `{"a":{"b":{"c":[true,false,null]}}}`, `[` + strings.Repeat("[", 600) +
		strings.Repeat("]", 601),
}

func TestJSONWalkMatchesValueEnd(t *testing.T) {
	for _, s := range walkCases {
		checkWalk(t, s)
	}
}

func FuzzJSONWalk(f *testing.F) {
	for _, s := range walkCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s != "" {
			checkWalk(t, s)
		}
		b := []byte(s + ",")
		v, end, ok := StrictInt(b, 0)
		nEnd, st := NumberEnd(b, 0)
		want, err := strconv.ParseInt(s[:max(0, min(nEnd, len(s)))], 10, 64)
		isInt := s != "" && st == OK && !strings.ContainsAny(s[:nEnd], ".eE")
		if ok != (isInt && err == nil) || (ok && (v != want || end != nEnd)) {
			t.Fatalf("jsonStrictInt(%q) = %d, %d, %v; ParseInt gives %d, %v", s, v, end, ok, want, err)
		}
	})
}

// checkWalkString compares WalkString on `"`+s with encoding/json: the
// string ends at the first prefix that is a valid JSON document (none: not
// a string), its contents are plain when they hold no '\\' and are valid
// UTF-8, and a plain string's contents decode to themselves.
func checkWalkString(t *testing.T, s string) {
	b := []byte(`"` + s)
	want := -1
	for k := 2; k <= len(b); k++ {
		if b[k-1] == '"' && json.Valid(b[:k]) {
			want = k
			break
		}
	}
	got, end, plain, ok := WalkString(b, 0)
	if ok != (want >= 0) || ok && end != want {
		t.Fatalf("WalkString(%q) = end %d, ok %v; encoding/json ends it at %d", b, end, ok, want)
	}
	if !ok {
		return
	}
	inner := b[1 : want-1]
	if string(got) != string(inner) {
		t.Fatalf("WalkString(%q) = %q; want %q", b, got, inner)
	}
	if wantPlain := !bytes.Contains(inner, []byte(`\`)) && utf8.Valid(inner); plain != wantPlain {
		t.Fatalf("WalkString(%q) plain = %v; want %v", b, plain, wantPlain)
	}
	var dec string
	if plain && (json.Unmarshal(b[:want], &dec) != nil || dec != string(inner)) {
		t.Fatalf("WalkString(%q) plain, but encoding/json decodes %q", b, dec)
	}
}

var walkStringCases = []string{
	`"`, `abc"`, `abcdefg"`, `abcdefgh"`, `abcdefghijklmnop"rest`, `chatcmpl-285a2103-7606-4464-ab89-c5101ca17e0b","x"`,
	`a\"b"`, `abcdefgh\"ijklmnop"`, `abcdefgh\u00e9ijkl"`, "abcdefgh\u00e9ijkl\"", "abcdefgh\xffijkl\"", "abcdefgh\x01ij\"",
	`abcdefghijkl`, `abcdefg\`, `abcdefgh\u12"`, "abc\x7fdefghij\"", `abcdefghijklmno\\"`,
}

func TestWalkString(t *testing.T) {
	for _, s := range walkStringCases {
		checkWalkString(t, s)
	}
}

func FuzzWalkString(f *testing.F) {
	for _, s := range walkStringCases {
		f.Add(s)
	}
	f.Fuzz(checkWalkString)
}
