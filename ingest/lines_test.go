package ingest

import (
	"fmt"
	"strings"
	"testing"
)

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
