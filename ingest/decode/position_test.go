package decode_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestJSONArrayRejectsAt checks where a damaged array element is rejected:
// at the byte encoding/json's scanner refuses, or just past the input's
// end when it ends early; positions counted by hand.
func TestJSONArrayRejectsAt(t *testing.T) {
	for _, c := range []struct{ in, at string }{
		{"[{},\n]", "2:1"},               // ']' after a comma opens line 2
		{"[{},\n{\"b\":1},\n]", "3:1"},   // the same after a good element
		{"[{}, -]", "1:7"},               // ']' is the 7th byte: "-" wants a digit
		{"[{},\n -]", "2:3"},             // " -]": ']' is the 3rd byte of line 2
		{"[{} {}]", "1:5"},               // a second element without a comma
		{"[\n {\"a\": tru}]", "2:11"},    // '}' in "tru": " {\"a\": tru}" is 11 bytes to it
		{"[{\"a\":1},\n {\"b\":", "2:7"}, // cut: line 2 " {\"b\":" has 6 bytes
	} {
		rec := &decodetest.Recorder{}
		if err := decode.JSONArray(strings.NewReader(c.in), rec, func(decode.Pos, []byte) {}); err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if len(rec.Rejects) != 1 {
			t.Fatalf("%q: rejects %+v", c.in, rec.Rejects)
		}
		if r := rec.Rejects[0]; (decode.Pos{Line: r.Line, Col: r.Column}).String() != c.at {
			t.Errorf("%q: rejected at %d:%d, want %s", c.in, r.Line, r.Column, c.at)
		}
	}
}

// TestJSONArrayElementsAt checks the position each element is handed on at.
func TestJSONArrayElementsAt(t *testing.T) {
	var got []string
	in := "[{\"a\":1},\n  {\"b\":2}, {}]"
	err := decode.JSONArray(strings.NewReader(in), &decodetest.Recorder{}, func(at decode.Pos, raw []byte) {
		got = append(got, at.String())
	})
	if want := "1:2 2:3 2:12"; err != nil || strings.Join(got, " ") != want {
		t.Errorf("elements at %q, want %q (%v)", got, want, err)
	}
}

// TestJSONErrorAt checks the positions given to encoding/json's errors.
func TestJSONErrorAt(t *testing.T) {
	for _, c := range []struct {
		doc  string
		line int64
		col  int64
		at   string
	}{
		{"{\"a\":[1,]}", 1, 1, "1:9"},     // ']' after a comma, byte 9
		{"{\"a\":\n  [1,]}", 5, 1, "6:6"}, // the same at byte 6 of the document's line 2 (input line 6)
		{"{\"a\":1", 1, 3, "1:9"},         // cut short: just past the 6 bytes, from column 3
		{"{\"a\":5}", 1, 1, "1:7"},        // a number where a string is wanted: just past "5"
	} {
		var v struct{ A string }
		err := json.Unmarshal([]byte(c.doc), &v)
		if got := decode.JSONErrorAt(c.line, c.col, []byte(c.doc), err); got.String() != c.at {
			t.Errorf("%q (%v): at %s, want %s", c.doc, err, got, c.at)
		}
	}
}

// TestColIn checks the column of a value cut from its line, and that a
// value not cut from it gives the line's start.
func TestColIn(t *testing.T) {
	line := []byte("ab cde fg")
	if got := decode.ColIn(line, line[3:6]); got != 4 {
		t.Errorf("cde at %d, want 4", got)
	}
	if got := decode.ColIn(line[:5], line[6:]); got != 1 {
		t.Errorf("a value past the line at %d, want 1", got)
	}
	if got := decode.ColIn(line, []byte("cde")); got != 1 {
		t.Errorf("a copy at %d, want 1", got)
	}
}

// TestAtOffsetAndShift checks AtOffset across line feeds, a ShiftSink's
// move of a part-way reader's positions, and Error's text.
func TestAtOffsetAndShift(t *testing.T) {
	b := []byte("ab\ncd\nef")
	for off, want := range map[int]string{0: "4:3", 1: "4:4", 3: "5:1", 7: "6:2", 8: "6:3"} {
		if got := decode.AtOffset(4, 3, b, off).String(); got != want {
			t.Errorf("offset %d at %s, want %s", off, got, want)
		}
	}
	s := decode.ShiftSink{Lines: 9, Cols: 4}
	if a, b := s.Pos(decode.Pos{Line: 1, Col: 2}), s.Pos(decode.Pos{Line: 2, Col: 2}); a.String() != "10:6" || b.String() != "11:2" {
		t.Errorf("shifted to %s and %s, want 10:6 and 11:2", a, b)
	}
	e := &decode.Error{File: "a.json", Pos: decode.Pos{Line: 3, Col: 14}, Err: errors.New("boom")}
	if e.Error() != "a.json:3:14: boom" || !errors.Is(e, e.Err) {
		t.Errorf("Error() = %q", e.Error())
	}
	if got := (decode.Pos{Line: 7}).String(); got != "7" {
		t.Errorf("no column prints %q, want 7", got)
	}
}
