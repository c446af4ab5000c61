package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

func TestManifestAppendAndRead(t *testing.T) {
	dir := t.TempDir()
	msg := "open x: no such file"
	first := []schema.InputStats{
		{Path: "a.log", Format: "nginx", Host: "edge-1", Read: 10, Records: 7, Duplicates: 1, Skipped: 1, Rejected: 1,
			RejectsByReason: map[string]int64{"bad status": 1}},
		{Path: "b.log", Error: &msg},
	}
	second := []schema.InputStats{{Path: "c.log.gz", Format: "tgi", Read: 3, Records: 3, Truncated: true, Clock: schema.ClockWall}}
	if err := AppendManifest(dir, first); err != nil {
		t.Fatal(err)
	}
	if err := AppendManifest(dir, second); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]schema.InputStats{}, first...), second...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("manifest = %+v\nwant %+v", got, want)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	if n := strings.Count(string(raw), "\n"); n != 3 {
		t.Errorf("manifest has %d lines, want 3 (one per input per call)", n)
	}
	assertNoTemps(t, dir)
}

func TestRejectsAppendAndRead(t *testing.T) {
	dir := t.TempDir()
	a := []schema.Reject{{File: "a.log", Line: 3, Reason: "bad status", Detail: `"2x0"`}}
	b := []schema.Reject{{File: "b.log", Line: 1, Reason: "invalid json"}, {File: "b.log", Line: 9, Reason: "invalid json"}}
	if err := AppendRejects(dir, a); err != nil {
		t.Fatal(err)
	}
	if err := AppendRejects(dir, nil); err != nil {
		t.Fatal(err)
	}
	if err := AppendRejects(dir, b); err != nil {
		t.Fatal(err)
	}
	parts, err := WriteDataset(dir, sampleEvents()[:1])
	if err != nil {
		t.Fatal(err)
	}
	// The second dataset has no rejects file; the third is a single part file.
	got, err := ReadRejects(dir, t.TempDir(), parts[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := append(a, b...); !reflect.DeepEqual(got, want) {
		t.Errorf("rejects = %+v, want %+v", got, want)
	}
}

func TestReadManifestBadLine(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{\"path\":\"a\"}\n{oops\n"), 0o644)
	_, err := ReadManifest(dir)
	if err == nil || !strings.Contains(err.Error(), ManifestFile+":2:") {
		t.Errorf("err = %v, want one naming line 2", err)
	}
}
