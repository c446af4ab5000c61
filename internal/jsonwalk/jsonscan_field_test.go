package jsonwalk

import (
	"bytes"
	"encoding/json"
	"testing"
)

// fieldProbe has fields named as FieldIndex's names in FuzzFieldIndex.
type fieldProbe struct {
	A *int `json:"id"`
	B *int `json:"model_name"`
	C *int `json:"k"`
}

// FuzzFieldIndex checks FieldIndex against encoding/json decoding {key: 1}
// into a struct with those field names.
func FuzzFieldIndex(f *testing.F) {
	for _, k := range []string{"id", "ID", `i\u0064`, "\\b000\xc0", "K", "\u212a", `\u212a`, "model_name", "MODEL_name", "x", `\ud800`, "\xff"} {
		f.Add([]byte(k))
	}
	names := []string{"id", "model_name", "k"}
	f.Fuzz(func(t *testing.T, key []byte) {
		doc := append(append([]byte(`{"`), key...), `":1}`...)
		var p fieldProbe
		if ValueEnd(doc, 0, nil); json.Unmarshal(doc, &p) != nil {
			return
		}
		want := -1
		for i, v := range []*int{p.A, p.B, p.C} {
			if v != nil {
				want = i
			}
		}
		if got, ok := FieldIndex(key, names); !ok || got != want {
			t.Fatalf("key %q: %d %v, want %d", key, got, ok, want)
		}
	})
}

// FuzzText checks Text against encoding/json decoding a string.
func FuzzText(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\"b"`, `"\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"\u00e9"`, `"x`, `5`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			return // Text reads a string starting where it is told
		}
		var want string
		errW := json.Unmarshal(b, &want)
		got, end, ok := Text(b, 0)
		if ok && end < len(b) {
			return // a string, then more bytes
		}
		if ok != (errW == nil) || ok && string(got) != want {
			t.Fatalf("%q: %q %d %v, want %q %v", b, got, end, ok, want, errW)
		}
	})
}

// FuzzIsNumber checks IsNumber against encoding/json's check of a string
// decoded into a json.Number.
func FuzzIsNumber(f *testing.F) {
	for _, s := range []string{"1", "-0", "01", "1.", "1e", "1e+5", "-", "", "1.5E-3", " 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		q, _ := json.Marshal(string(s))
		var n json.Number
		want := json.Unmarshal(q, &n) == nil && bytes.Equal([]byte(n), s)
		if got := IsNumber(s); got != want {
			t.Fatalf("%q: %v, want %v", s, got, want)
		}
	})
}

// FuzzKeyText checks KeyText against encoding/json decoding a key into a
// map's key.
func FuzzKeyText(f *testing.F) {
	for _, k := range []string{"a", `a\"b`, `\ud800`, "\xff", `\u00e9`, `\\b000` + "\xc0"} {
		f.Add([]byte(k))
	}
	f.Fuzz(func(t *testing.T, key []byte) {
		doc := append(append([]byte(`{"`), key...), `":1}`...)
		var m map[string]int
		if json.Unmarshal(doc, &m) != nil || len(m) != 1 {
			return
		}
		got, ok := KeyText(key)
		if _, in := m[string(got)]; !ok || !in {
			t.Fatalf("key %q: %q %v, want one of %v", key, got, ok, m)
		}
	})
}
