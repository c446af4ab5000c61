package decodetest

import (
	"bytes"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// Deref returns *p, or -1 when p is nil.
func Deref(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// CheckOffset compares an instant with start+off (off -1: want nil).
func CheckOffset(t *testing.T, name string, got *int64, start, off int64) {
	t.Helper()
	switch {
	case off < 0 && got != nil:
		t.Errorf("%s = %d, want nil", name, *got)
	case off >= 0 && (got == nil || *got-start != off):
		t.Errorf("%s = %v, want start+%d", name, got, off)
	}
}

// LineCount is the number of lines of data as proxyLines reads them.
func LineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// RawRecorder records what a decoder reports, with each event's raw
// bytes as they were at the call.
type RawRecorder struct {
	Recorder
	Raws []string
}

// Event keeps ev and a copy of raw.
func (r *RawRecorder) Event(line int64, raw []byte, ev *schema.Event) {
	r.Raws = append(r.Raws, string(raw))
	r.Recorder.Event(line, raw, ev)
}
