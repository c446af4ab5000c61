package decode

import (
	"bytes"
	"strings"
	"testing"
)

func TestLogFields(t *testing.T) {
	cases := map[string]string{
		`1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a b HTTP/1.0" 200 2326 "-" "ua x"`: `1.2.3.4|-|-|[10/Oct/2000:13:55:36 -0700]|"GET /a b HTTP/1.0"|200|2326|"-"|"ua x"`,
		`$remote_addr - $remote_user [$time_local] "$request" $status`:                     `$remote_addr|-|$remote_user|[$time_local]|"$request"|$status`,
		`  a   rt="x \" y" [b c`:   `a|rt="x \" y"|[b c`,
		`"unclosed quote a b`:      `"unclosed quote a b`,
		`a\ b "c\\" d`:             `a\|b|"c\\"|d`,
		``:                         ``,
		`   `:                      ``,
		`x"y z"w [p q]r ]`:         `x"y z"w|[p q]r|]`,
		"tab\tis not a space \xff": "tab\tis|not|a|space|\xff",
	}
	for in, want := range cases {
		if got := string(bytes.Join(LogFields([]byte(in)), []byte("|"))); got != want {
			t.Errorf("LogFields(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzLogFields checks LogFields against strings.FieldsFunc splitting on
// spaces for lines without quotes or brackets, and that on any line the
// fields are in order, non-empty, hold no space outside quotes and
// brackets, and leave only spaces between them.
func FuzzLogFields(f *testing.F) {
	for _, s := range []string{`a b`, `"a b" [c d] e`, `x"\"" y`, `[`, `"`, ` a  b `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields := LogFields([]byte(s))
		if !strings.ContainsAny(s, `"[`) {
			want := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
			if len(want) != len(fields) {
				t.Fatalf("%q: %q, strings.FieldsFunc %q", s, fields, want)
			}
			for i := range want {
				if string(fields[i]) != want[i] {
					t.Fatalf("%q: %q, strings.FieldsFunc %q", s, fields, want)
				}
			}
		}
		rest := s
		for _, fl := range fields {
			i := strings.Index(rest, string(fl))
			if len(fl) == 0 || i < 0 || strings.Trim(rest[:i], " ") != "" {
				t.Fatalf("%q: fields %q out of order or with text between", s, fields)
			}
			rest = rest[i+len(fl):]
		}
		if strings.Trim(rest, " ") != "" {
			t.Fatalf("%q: text %q after the last field", s, rest)
		}
	})
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 fields", 1: "1 field", 2: "2 fields", 17: "17 fields"} {
		if got := Count(n, "field"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestShapeMismatch(t *testing.T) {
	shape := func(name, format string) LogShape {
		fields := LogFields([]byte(format))
		return LogShape{name, fields, func(i int, f []byte) bool { return bytes.Equal(f, fields[i]) || fields[i][0] == '$' }}
	}
	shapes := []LogShape{shape("long", `a [b c] $x "d"`), shape("short", `a $x`)}
	cases := map[string]string{
		`a [b c] 1 "d"`: "",
		`a [b c] 1 "e"`: `field 4 does not fit "d" in long`,
		`z 1`:           "field 1 does not fit a in short",
		`a`:             "1 field where long has 4",
		`a b c d e`:     "5 fields where long has 4",
	}
	for line, want := range cases {
		if got := ShapeMismatch([]byte(line), shapes); got != want {
			t.Errorf("ShapeMismatch(%q) = %q, want %q", line, got, want)
		}
	}
}
