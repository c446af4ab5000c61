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

// AllEvents decodes data by f with opts and fails unless every one of its
// lines is read as an event (a fleet log of the format's own, say).
func AllEvents(t *testing.T, f Format, opts decode.Options, data []byte) {
	t.Helper()
	rec := DecodeOne(t, f, opts, string(data))
	if lines := LineCount(data); len(rec.Events) != lines || lines == 0 {
		t.Errorf("%d lines, %d events (%d skips, %d rejects)", lines, len(rec.Events), len(rec.Skips), len(rec.Rejects))
	}
}

// CheckRejectsAt decodes text by f with opts and fails unless its rejects
// lie at want, in order ("line:col", as decode.Pos prints them); want is
// worked out by hand from the input's bytes.
func CheckRejectsAt(t *testing.T, f Format, opts decode.Options, text string, want ...string) {
	t.Helper()
	rec := DecodeOne(t, f, opts, text)
	var got []string
	for _, r := range rec.Rejects {
		got = append(got, decode.Pos{Line: r.Line, Col: r.Column}.String()+" "+r.Reason)
	}
	if len(got) != len(want) {
		t.Fatalf("rejects at %q, want at %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]+" ") {
			t.Errorf("reject %d at %q, want at %s", i, got[i], want[i])
		}
	}
}
