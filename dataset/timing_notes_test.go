package dataset

import (
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestCommitTimingNotes checks that a commit log entry keeps the timing
// note its input declared, that one written before inputs declared them
// (no timing_note) reads with its format's frozen note (nginx: whatever
// log_format it was read with), and that an old entry of a format that
// declares none stays without.
func TestCommitTimingNotes(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(dir, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	own := schema.TimingNote{Lack: "combined has no $request_time", Fix: "give it"}
	inputs := []schema.InputStats{{Path: "new.log", Format: "nginx", TimingNote: &own},
		{Path: "old.log", Format: "nginx"}, {Path: "old.jsonl", Format: "otlp"}}
	if _, err := w.Commit(nil, inputs, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s := openAll(t, dir)
	if len(s.Inputs) != 3 {
		t.Fatalf("%d inputs read back, want 3", len(s.Inputs))
	}
	if n := s.Inputs[0].TimingNote; n == nil || *n != own {
		t.Errorf("new input's note %+v, want %+v", n, own)
	}
	const oldLack = `the log_format they were read with has no $request_time (or their $request_time is "-"), so they have no start instant`
	if n := s.Inputs[1].TimingNote; n == nil || n.Lack != oldLack {
		t.Errorf("old nginx input's note %+v, want lack %q", n, oldLack)
	}
	if n := s.Inputs[2].TimingNote; n != nil {
		t.Errorf("old otlp input's note %+v, want none", n)
	}
}

// withLegacyNotes returns inputs with the notes a reader gives inputs of
// old logs: its frozen note for nginx (TestCommitTimingNotes checks its
// words), none for the others here.
func withLegacyNotes(inputs []schema.InputStats) []schema.InputStats {
	out := slices.Clone(inputs)
	for k := range out {
		if out[k].Format == "nginx" {
			n := legacyTimingNotes["nginx"]
			out[k].TimingNote = &n
		}
	}
	return out
}
