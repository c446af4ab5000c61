package ingest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

// linesInputs are inputs for the line readers: short lines, CRLF, blank
// lines, a missing last newline, and lines longer than the 64 KiB read
// buffer (which the readers gather), each followed by short ones.
var linesInputs = []string{
	"",
	"a",
	"a\n",
	"a\r\nb\r\n\r\n\nc",
	"\xef\xbb\xbfbom\nx\n",
	strings.Repeat("x", 70000) + "\nshort\n" + strings.Repeat("y", 200000) + "\r\nz",
	"s\n" + strings.Repeat("w", 65536) + "\n" + strings.Repeat("v", 65535) + "\nt",
}

// linesWant splits s the way the readers must: lines are cut at "\n", the
// last one counts when not empty.
func linesWant(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\n")
	}
	return lines
}

func TestReadRecordsByLineLong(t *testing.T) {
	for _, in := range linesInputs {
		var got []string
		err := readRecordsByLine(iotest.OneByteReader(strings.NewReader(in)), &countingSink{}, func(n int64, b []byte) {
			if n != int64(len(got)+1) {
				t.Fatalf("line number %d after %d lines", n, len(got))
			}
			got = append(got, string(b))
		})
		want := linesWant(in)
		for i := range want {
			want[i] = strings.TrimSuffix(want[i], "\r")
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%.40q: got %d lines %.80q, want %d %.80q (%v)", in, len(got), got, len(want), want, err)
		}
	}
}

func TestEachTextLine(t *testing.T) {
	for _, in := range append(linesInputs, strings.Repeat("L", maxLineBytes+1)+"\nafter\n"+strings.Repeat("M", maxLineBytes)) {
		var got []string
		err := eachTextLine(bytes.NewReader([]byte(in)), func(n int64, b []byte) {
			if n != int64(len(got)+1) {
				t.Fatalf("line number %d after %d lines", n, len(got))
			}
			got = append(got, string(b))
		}, func(n int64) { got = append(got, fmt.Sprintf("too long %d", n)) })
		want := linesWant(in)
		for i := range want {
			if len(want[i]) > maxLineBytes {
				want[i] = fmt.Sprintf("too long %d", i+1)
			}
		}
		if len(want) > 0 {
			want[0] = strings.TrimPrefix(want[0], "\xef\xbb\xbf")
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%.40q: got %d lines %.80q, want %d %.80q (%v)", in, len(got), got, len(want), want, err)
		}
	}
}

// TestReadRecordsByLineTooLong checks that a line over maxLineBytes is
// rejected by number, with the lines around it read as usual, whether it
// ends in a newline or ends the input.
func TestReadRecordsByLineTooLong(t *testing.T) {
	long := strings.Repeat("x", maxLineBytes+1)
	for _, in := range []string{"a\n" + long + "\r\nb\n" + long, "a\n" + long + "\nb\n" + long + "\n"} {
		rec := &recorder{}
		var got []string
		err := readRecordsByLine(strings.NewReader(in), rec, func(n int64, b []byte) {
			got = append(got, fmt.Sprint(n, string(b)))
		})
		if err != nil || strings.Join(got, ",") != "1a,3b" || len(rec.Rejects) != 2 ||
			rec.Rejects[0] != (recordedNote{2, "line too long", "longer than 16777216 bytes"}) || rec.Rejects[1].Line != 4 {
			t.Errorf("got %q, rejects %+v, %v", got, rec.Rejects, err)
		}
	}
	// A line of exactly maxLineBytes (newline excluded) is read.
	rec := &recorder{}
	n := 0
	exact := strings.Repeat("y", maxLineBytes)
	err := readRecordsByLine(strings.NewReader(exact+"\n"+exact), rec, func(_ int64, b []byte) {
		if len(b) == maxLineBytes {
			n++
		}
	})
	if err != nil || n != 2 || len(rec.Rejects) != 0 {
		t.Errorf("exact-size lines: %d read, rejects %+v, %v", n, rec.Rejects, err)
	}
}
