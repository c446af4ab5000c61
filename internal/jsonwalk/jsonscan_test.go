package jsonwalk

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// jsonScanValid reports whether data is one JSON value by ValueEnd.
func jsonScanValid(data []byte) bool {
	b := append(append([]byte(nil), data...), ' ') // a number may end the input
	end, st, _ := ValueEnd(b, 0, nil)
	return st == OK && SkipWS(b, end) == len(b)
}

// TestJSONValueEnd checks the scanner against encoding/json.Valid, and that
// it asks for more input when a value is cut.
func TestJSONValueEnd(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"]}`, ` 0 `, `-0.1E-2`,
		`{"a" : { "b" : [ ] } }`, `"\ud83d\ude00"`, "\"\xff\"",
		`01`, `1.`, `-`, `1e`, `{"a"}`, `{"a":1,}`, `[1,]`, `[1 2]`, `"\x"`, "\"a\tb\"", `tru`, `nul`, `{`, `"`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		if got, want := jsonScanValid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("%.40q: scanner says valid=%v, encoding/json %v", s, got, want)
		}
	}
	for _, s := range []string{`{"a":[1,2`, `"abc`, `{"a":tr`, `123`, `{"a"`, `"\u00`} {
		if _, st, _ := ValueEnd([]byte(s), 0, nil); st != More {
			t.Errorf("%q: status %d; want scanMore", s, st)
		}
	}
}

// FuzzJSONValueEnd checks the scanner against encoding/json.Valid.
func FuzzJSONValueEnd(f *testing.F) {
	for _, s := range []string{
		`{"timestamp":100,"request_inputs":{"text_input":"hi"},"response_timestamps":[150,170],"response_outputs":[{"text_output":"I"},{"text_output":""}]}`,
		`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: \ud83d\ude00\n\n"}]}`,
		`{"id":"c","choices":[{"delta":{"role":"assistant","content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":7}}`,
		`{"choices":[{"delta":{"tool_calls":[ ]},"delta":null}]}`, `[1.5e-3, -0, true, false, null, "\u00e9"]`, `{"a":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := jsonScanValid(data), json.Valid(data); got != want {
			t.Fatalf("%q: scanner says valid=%v, encoding/json %v", data, got, want)
		}
	})
}

// FuzzSkipWS checks SkipWS against bytes.TrimLeft with JSON's white space
// from every start index.
func FuzzSkipWS(f *testing.F) {
	for _, s := range []string{"", " ", "  \n\t\r x", strings.Repeat(" ", 40) + "{", "\n" + strings.Repeat(" ", 17) + "\t" + strings.Repeat(" ", 33), "\x00 \x1f"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := 0; i <= len(b); i++ {
			if got, want := SkipWS(b, i), len(b)-len(bytes.TrimLeft(b[i:], " \t\r\n")); got != want {
				t.Fatalf("SkipWS(%q, %d) = %d, want %d", b, i, got, want)
			}
		}
	})
}
