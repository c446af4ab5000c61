package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// withLegacyErrors returns inputs with the errors a reader gives inputs of
// old logs, written out by hand: nginx's instants truncated to the ms
// ([−1 ms, 0]), anything else ±1 µs.
func withLegacyErrors(inputs []schema.InputStats) []schema.InputStats {
	out := slices.Clone(inputs)
	for k := range out {
		e := schema.InstantError{ResolutionNs: 1_000, Rounding: schema.RoundingEither, LowNs: -1_000, HighNs: 1_000}
		if out[k].Format == "nginx" {
			e = schema.InstantError{ResolutionNs: 1_000_000, Rounding: schema.RoundingTruncated, LowNs: -1_000_000}
		}
		out[k].InstantErrors = &schema.InstantErrors{Start: e, First: e, End: e}
	}
	return out
}

// TestCommitInstantErrors checks that a commit log entry keeps the errors
// its input declared, and that one written before inputs declared them
// (no instant_errors) reads with those its format had then (Envoy: start
// −1 ms, first −2 ms, end −3 ms, truncated).
func TestCommitInstantErrors(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(dir, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exact := schema.InstantErrors{Start: schema.Exact(), First: schema.Exact(), End: schema.Exact()}
	inputs := []schema.InputStats{{Path: "new.log", Format: "envoy", InstantErrors: &exact}, {Path: "old.log", Format: "envoy"}}
	if _, err := w.Commit(nil, inputs, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s := openAll(t, dir)
	ms := func(n int64) schema.InstantError {
		return schema.InstantError{ResolutionNs: 1_000_000, Rounding: schema.RoundingTruncated, LowNs: -n * 1_000_000}
	}
	want := []*schema.InstantErrors{&exact, {Start: ms(1), First: ms(2), End: ms(3)}}
	if len(s.Inputs) != 2 || !reflect.DeepEqual(s.Inputs[0].InstantErrors, want[0]) || !reflect.DeepEqual(s.Inputs[1].InstantErrors, want[1]) {
		t.Fatalf("inputs read back %+v, want errors %+v, %+v", s.Inputs, *want[0], *want[1])
	}
	// The log keeps what was committed: the old entry stays without errors.
	log, err := os.ReadFile(filepath.Join(dir, LogDir, commitName(int64(len(w.commits)-1))))
	if err != nil || bytes.Count(log, []byte(`"instant_errors"`)) != 1 {
		t.Fatalf("last commit (%v): %s", err, log)
	}
}
