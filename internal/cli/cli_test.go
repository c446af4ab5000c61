package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// testFormat is a format for the CLI tests: inputs start with "#t"; "ok N"
// is a request starting N seconds after 2026-11-23T00:00:00Z, "skip" and
// lines starting with "#" skips, anything else a reject.
type testFormat struct{}

func (testFormat) Name() string           { return "testlines" }
func (testFormat) Source() string         { return schema.SourceClient }
func (testFormat) Describe() string       { return "numbered test lines" }
func (testFormat) Sniff(head []byte) bool { return bytes.HasPrefix(head, []byte("#t")) }
func (testFormat) Decode(in *ingest.Input, sink ingest.Sink) error {
	sc := bufio.NewScanner(in.R)
	for line := int64(1); sc.Scan(); line++ {
		var n int64
		switch _, err := fmt.Sscanf(sc.Text(), "ok %d", &n); {
		case strings.HasPrefix(sc.Text(), "#") || sc.Text() == "skip":
			sink.Skip(line, "not a request")
		case err != nil:
			sink.Reject(decode.At(line), "bad record", sc.Text())
		default:
			start := int64(1795392000000000000) + n*1e9 // 2026-11-23T00:00:00Z + n s
			sink.Event(line, sc.Bytes(), &schema.Event{Clock: schema.ClockWall, StartNs: &start, RequestID: fmt.Sprint(n)})
		}
	}
	return nil
}

// TestSQLWritesFile checks that sql -o writes the views to the file and
// nothing to standard output.
func TestSQLWritesFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "views.sql")
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr}
	if code := c.main([]string{"sql", "-o", out, "--dialect", "trino"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "FROM ttftrace_events;") || stdout.Len() > 0 {
		t.Errorf("file (err %v):\n%.300s\nstdout %q", err, b, stdout.String())
	}
}

// TestIngestIncremental ingests a file, ingests it again (nothing added),
// lets it grow and ingests it again (only the new lines, with their line
// numbers in the file), then renames it and ingests it under its new name
// (recognized by content: nothing added).
func TestIngestIncremental(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "edge-1.access.log")
	os.WriteFile(in, []byte("#t\nok 1\nok 1\nnope\n"), 0o644)
	out := filepath.Join(dir, "ds")
	ingest := func(path, wantSays string) {
		t.Helper()
		var stderr bytes.Buffer
		c := &cli{stdout: &stderr, stderr: &stderr, formats: []ingest.Format{testFormat{}}}
		if code := c.main([]string{"ingest", "-o", out, path}); code != 0 || !strings.Contains(stderr.String(), wantSays) {
			t.Fatalf("exit %d, want 0 and %q in:\n%s", code, wantSays, stderr.String())
		}
	}
	ingest(in, "wrote 1 events in 1 files")
	ingest(in, "already in "+out)
	f, _ := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("ok 2\nskip\nbad\n")
	f.Close()
	ingest(in, "wrote 1 events in 1 files")
	rotated := in + ".1"
	os.Rename(in, rotated)
	ingest(rotated, "already in "+out)
	if _, err := os.Stat(filepath.Join(out, "source=client", "date=2026-11-23", "part-00001.parquet")); err != nil {
		t.Error(err)
	}
	snap, err := dataset.Open(out)
	if err != nil || len(snap.Inputs) != 2 {
		t.Fatalf("inputs %+v, %v; want 2", snap.Inputs, err)
	}
	// First: #t skip, ok 1, ok 1 (duplicate), nope (reject). Then the three
	// new lines 5-7: ok 2, skip, bad (reject at line 7).
	m0, m1 := snap.Inputs[0], snap.Inputs[1]
	if m0.Read != 4 || m0.Records != 1 || m0.Duplicates != 1 || m0.Skipped != 1 || m0.Rejected != 1 {
		t.Errorf("first input %+v", m0)
	}
	if m1.Read != 3 || m1.Records != 1 || m1.Skipped != 1 || m1.Rejected != 1 || m1.Span.Start != 18 || m1.Span.StartLine != 4 || m1.Span.EndLine != 7 {
		t.Errorf("second input %+v, span %+v", m1, m1.Span)
	}
	rej, _ := snap.ReadRejects()
	if len(rej) != 2 || rej[0].Line != 4 || rej[1].Line != 7 || rej[1].Detail != "bad" {
		t.Errorf("rejects %+v", rej)
	}
	evs, _ := snap.ReadEvents()
	if len(evs) != 2 || evs[0].RequestID != "1" || evs[1].RequestID != "2" || evs[1].InputLine != 5 {
		t.Errorf("events %+v", evs)
	}
}

// TestHelpHasExample checks every command's help shows one example of it.
func TestHelpHasExample(t *testing.T) {
	for _, k := range commands() {
		var stdout, stderr bytes.Buffer
		if code := Run([]string{"help", k.name}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("help %s: exit %d", k.name, code)
		}
		if want := "Example:\n  ttftrace " + k.name; !strings.Contains(stdout.String(), want) {
			t.Errorf("help %s lacks %q:\n%s", k.name, want, stdout.String())
		}
	}
}

// TestIngestDeterministic ingests the same inputs into two datasets: every
// file (parts, manifest, rejects) must be byte-identical.
func TestIngestDeterministic(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i := range 12 {
		p := filepath.Join(dir, "in", fmt.Sprintf("h%02d.log", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		// Day 0 or 1 after 2026-11-23 (86400 s), so two date partitions.
		os.WriteFile(p, []byte(fmt.Sprintf("#t\nok %d\nok %d\nbad %d\n", i, 86400+i, i)), 0o644)
		inputs = append(inputs, p)
	}
	ingestTo := func(out string) map[string][]byte {
		c := &cli{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, formats: []ingest.Format{testFormat{}}}
		if code := c.main(append([]string{"ingest", "-q", "-o", out}, inputs...)); code != 0 {
			t.Fatalf("exit %d", code)
		}
		files := map[string][]byte{}
		filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(out, p)
				files[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return files
	}
	a, b := ingestTo(filepath.Join(dir, "a")), ingestTo(filepath.Join(dir, "b"))
	// Two date partitions, the lock, the commit and its rejects.
	if len(a) != 5 {
		names := slices.Sorted(maps.Keys(a))
		t.Errorf("%d files written, want 5: %q", len(a), names)
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two identical runs", name)
		}
	}
}
