package decode_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
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
		err := decode.ReadRecordsByLine(iotest.OneByteReader(strings.NewReader(in)), &decodetest.CountingSink{}, func(n int64, b []byte) {
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
	for _, in := range append(linesInputs, strings.Repeat("L", decode.MaxLineBytes+1)+"\nafter\n"+strings.Repeat("M", decode.MaxLineBytes)) {
		var got []string
		err := decode.EachTextLine(bytes.NewReader([]byte(in)), func(n int64, b []byte) {
			if n != int64(len(got)+1) {
				t.Fatalf("line number %d after %d lines", n, len(got))
			}
			got = append(got, string(b))
		}, func(n int64) { got = append(got, fmt.Sprintf("too long %d", n)) })
		want := linesWant(in)
		for i := range want {
			if len(want[i]) > decode.MaxLineBytes {
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

// TestReadRecordsByLineTooLong checks that a line over MaxLineBytes is
// rejected by number, with the lines around it read as usual, whether it
// ends in a newline or ends the input.
func TestReadRecordsByLineTooLong(t *testing.T) {
	long := strings.Repeat("x", decode.MaxLineBytes+1)
	for _, in := range []string{"a\n" + long + "\r\nb\n" + long, "a\n" + long + "\nb\n" + long + "\n"} {
		rec := &decodetest.Recorder{}
		var got []string
		err := decode.ReadRecordsByLine(strings.NewReader(in), rec, func(n int64, b []byte) {
			got = append(got, fmt.Sprint(n, string(b)))
		})
		if err != nil || strings.Join(got, ",") != "1a,3b" || len(rec.Rejects) != 2 ||
			rec.Rejects[0] != (decodetest.RecordedNote{Line: 2, Column: 16777217, Reason: "line too long", Detail: "longer than 16777216 bytes"}) || rec.Rejects[1].Line != 4 {
			t.Errorf("got %q, rejects %+v, %v", got, rec.Rejects, err)
		}
	}
	// A line of exactly MaxLineBytes (newline excluded) is read.
	rec := &decodetest.Recorder{}
	n := 0
	exact := strings.Repeat("y", decode.MaxLineBytes)
	err := decode.ReadRecordsByLine(strings.NewReader(exact+"\n"+exact), rec, func(_ int64, b []byte) {
		if len(b) == decode.MaxLineBytes {
			n++
		}
	})
	if err != nil || n != 2 || len(rec.Rejects) != 0 {
		t.Errorf("exact-size lines: %d read, rejects %+v, %v", n, rec.Rejects, err)
	}
}

func TestReadRecordsByLine(t *testing.T) {
	var got []string
	err := decode.ReadRecordsByLine(strings.NewReader("a\r\n\nb\n"+strings.Repeat("x", 200_000)), &decodetest.Recorder{}, func(n int64, b []byte) {
		got = append(got, string(b[:min(len(b), 3)]))
	})
	if err != nil || strings.Join(got, ",") != "a,,b,xxx" {
		t.Errorf("got %q, %v", got, err)
	}
}

// eachTextLineRecord runs EachTextLine over r and returns what it handed
// on, lines and too-long reports in order.
func eachTextLineRecord(r io.Reader) ([]string, error) {
	var got []string
	err := decode.EachTextLine(r, func(n int64, b []byte) { got = append(got, fmt.Sprintf("%d %q", n, b)) },
		func(n int64) { got = append(got, fmt.Sprintf("%d too long", n)) })
	return got, err
}

// TestEachTextLineInPlace checks that a BytesReader's lines, read in
// place, are those read through the buffer from a bytes.Reader, long lines
// (with and without their newline at the limit) included, and that a
// BytesReader read from before is read through the buffer from there.
func TestEachTextLineInPlace(t *testing.T) {
	exact := strings.Repeat("E", decode.MaxLineBytes)
	for _, in := range append(linesInputs, strings.Repeat("L", decode.MaxLineBytes+1)+"\nafter\n"+exact,
		exact+"\n"+exact+"x\r\n\n"+exact[1:]+"\n\xef\xbb\xbfz", exact[1:]+"\r\nlast") {
		want, werr := eachTextLineRecord(bytes.NewReader([]byte(in)))
		got, err := eachTextLineRecord(decode.NewBytesReader([]byte(in)))
		if err != nil || werr != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%.40q: in place %.200q (%v), through the buffer %.200q (%v)", in, got, err, want, werr)
		}
	}
	r := decode.NewBytesReader([]byte("ab\ncd\n"))
	r.ReadByte()
	if got, err := eachTextLineRecord(r); err != nil || fmt.Sprint(got) != `[1 "b" 2 "cd"]` {
		t.Errorf("after a byte read: %q, %v", got, err)
	}
}

func FuzzEachTextLineInPlace(f *testing.F) {
	for _, in := range linesInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, _ := eachTextLineRecord(bytes.NewReader(data))
		got, _ := eachTextLineRecord(decode.NewBytesReader(data))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: in place %q, through the buffer %q", data, got, want)
		}
	})
}
