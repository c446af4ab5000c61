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
		err := readRecordsByLine(iotest.OneByteReader(strings.NewReader(in)), func(n int64, b []byte) {
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
