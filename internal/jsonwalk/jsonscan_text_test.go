package jsonwalk

import (
	"encoding/json"
	"testing"
)

// appendStringCases are string literals with what encoding/json decodes
// them to, written out by hand.
var appendStringCases = []struct{ in, want string }{
	{`""`, ""},
	{`"plain ascii, longer than eight bytes"`, "plain ascii, longer than eight bytes"},
	{`"a\"b\\c\/d\b\f\n\r\te"`, "a\"b\\c/d\b\f\n\r\te"},
	{`"caf\u00e9 \u0041"`, "café A"},
	{`"\ud83d\ude00"`, "😀"},
	{`"\ud83d"`, "\ufffd"},
	{`"\ude00\ud83d"`, "\ufffd\ufffd"},
	{`"\ud83dx\ude00"`, "\ufffdx\ufffd"},
	{`"\ud83d\u0041"`, "\ufffdA"},
	{"\"caf\xc3\xa9 \xff x\"", "café \ufffd x"},
	{"\"\xed\xa0\x80\"", "\ufffd\ufffd\ufffd"},
	{`"data: {\"id\": \"x\"}\n\ndata: [DONE]\n"`, "data: {\"id\": \"x\"}\n\ndata: [DONE]\n"},
}

// TestAppendString checks AppendString on the hand-made cases, appended
// after bytes already in dst, and that it refuses what is not a string.
func TestAppendString(t *testing.T) {
	for _, c := range appendStringCases {
		got, end, ok := AppendString([]byte("x"), []byte(c.in+" tail"), 0)
		if !ok || string(got) != "x"+c.want || end != len(c.in) {
			t.Errorf("%q: %q %d %v, want %q %d", c.in, got, end, ok, "x"+c.want, len(c.in))
		}
	}
	for _, bad := range []string{``, `x`, `"`, `"abc`, `"a\"`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\x01\"", `"\`, `"\ud83d\u12`} {
		if _, _, ok := AppendString(nil, []byte(bad), 0); ok {
			t.Errorf("%q: taken", bad)
		}
	}
}

// FuzzAppendString checks AppendString against encoding/json decoding a
// string, and its end against StringEnd's.
func FuzzAppendString(f *testing.F) {
	for _, c := range appendStringCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			return
		}
		got, end, ok := AppendString(nil, b, 0)
		wantEnd, st := StringEnd(b, 0)
		if ok != (st == OK) || ok && end != wantEnd {
			t.Fatalf("%q: end %d %v, StringEnd %d %d", b, end, ok, wantEnd, st)
		}
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(b[:end], &want); err != nil || string(got) != want {
			t.Fatalf("%q: %q, encoding/json %q %v", b, got, want, err)
		}
	})
}

// FuzzNumberText checks NumberText against encoding/json decoding a value
// into a json.Number.
func FuzzNumberText(f *testing.F) {
	for _, s := range []string{`5`, `-0.5e3`, `"12"`, `"\u0031"`, `""`, `"1."`, `"01"`, `01`, `null`, `true`, `"x"`, `[1]`, `1e`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want json.Number
		err := json.Unmarshal(b, &want)
		if len(b) > 0 && (b[0] == 'n' || SkipWS(b, 0) > 0) {
			return // null leaves a json.Number as it was; NumberText reads no white space
		}
		got, end, ok := NumberText(b, 0)
		if ok && end < len(b) {
			return // a value, then more bytes
		}
		if ok != (err == nil) || ok && string(got) != string(want) {
			t.Fatalf("%q: %q %d %v, encoding/json %q %v", b, got, end, ok, want, err)
		}
	})
}
