package decodetest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// CheckOnePerLine checks that a line-based format reports every line of
// data exactly once.
func CheckOnePerLine(t *testing.T, f Format, opts decode.Options, data []byte) {
	rec := &Recorder{}
	if err := f.Decode(&decode.Input{R: bytes.NewReader(data), Name: "fuzz", Host: "h", Opts: opts}, rec); err != nil {
		t.Fatalf("decode: %v", err)
	}
	lines := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	seen := map[int64]int{}
	for _, e := range rec.Events {
		seen[e.Line]++
	}
	for _, n := range append(rec.Skips, rec.Rejects...) {
		seen[n.Line]++
	}
	for l := int64(1); l <= int64(lines); l++ {
		if seen[l] != 1 {
			t.Fatalf("line %d reported %d times", l, seen[l])
		}
	}
	if rec.Total() != lines {
		t.Fatalf("%d records for %d lines", rec.Total(), lines)
	}
}

// DecodeOne runs a format over text and returns the Recorder.
func DecodeOne(t *testing.T, f Format, opts decode.Options, text string) *Recorder {
	t.Helper()
	rec := &Recorder{}
	if err := f.Decode(&decode.Input{R: strings.NewReader(text), Name: "t", Host: "h", Opts: opts}, rec); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return rec
}
