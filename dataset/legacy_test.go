package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// legacyDataset writes a dataset as ttftrace wrote them before the log:
// part files, _manifest.jsonl and _rejects.jsonl, no _log folder.
func legacyDataset(t *testing.T) (dir string, inputs []schema.InputStats, rejects []schema.Reject) {
	t.Helper()
	dir = t.TempDir()
	if _, err := WriteDataset(dir, sampleEvents()); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, LogDir))
	os.Remove(filepath.Join(dir, LockFile))
	msg := "open x: no such file"
	inputs = []schema.InputStats{
		{Path: "a.log", Format: "nginx", Host: "edge-1", Read: 10, Records: 7, Duplicates: 1, Skipped: 1, Rejected: 1,
			RejectsByReason: map[string]int64{"bad status": 1}},
		{Path: "b.log", Error: &msg},
	}
	rejects = []schema.Reject{{File: "a.log", Line: 3, Reason: "bad status", Detail: `"2x0"`}}
	writeLines(t, filepath.Join(dir, ManifestFile), inputs)
	writeLines(t, filepath.Join(dir, RejectsFile), rejects)
	return dir, inputs, rejects
}

func writeLines[T any](t *testing.T, path string, items []T) {
	b, err := encodeLines(items)
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestLegacyReadAndMigrate reads a dataset written before the log, then
// lets a writer migrate it and checks that readers see the same content
// before and after, and that the migration's commit 0 names every part.
func TestLegacyReadAndMigrate(t *testing.T) {
	dir, inputs, rejects := legacyDataset(t)
	inputs = withLegacyNotes(withLegacyErrors(inputs))
	before := openAll(t, dir)
	if len(before.Files) != 4 || !reflect.DeepEqual(before.Inputs, inputs) || !reflect.DeepEqual(readRejects(t, before), rejects) {
		t.Fatalf("legacy read: %d files, inputs %+v, rejects %+v", len(before.Files), before.Inputs, readRejects(t, before))
	}
	w, err := OpenWriter(dir, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.commits) != 1 || len(w.commits[0].Parts) != 4 || len(w.Removed) != 0 {
		t.Errorf("migration: commits %+v, removed %q", w.commits, w.Removed)
	}
	w.Close()
	after := openAll(t, dir)
	if !reflect.DeepEqual(after.Files, before.Files) || !reflect.DeepEqual(after.Inputs, inputs) || !reflect.DeepEqual(readRejects(t, after), rejects) {
		t.Errorf("after migration: files %q, inputs %+v", after.Files, after.Inputs)
	}
	for _, gone := range []string{ManifestFile, RejectsFile, logNew} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there after migration", gone)
		}
	}
}

func openAll(t *testing.T, paths ...string) *Snapshot {
	t.Helper()
	s, err := Open(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readRejects(t *testing.T, s *Snapshot) []schema.Reject {
	t.Helper()
	r, err := s.ReadRejects()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReadManifestBadLine(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{\"path\":\"a\"}\n{oops\n"), 0o644)
	_, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), ManifestFile+":2:") {
		t.Errorf("err = %v, want one naming line 2", err)
	}
}

// TestOpenRefusesNonDatasets: a folder with no log, no manifest and no
// part files is not a dataset (exit 1 in analyze, never an empty analysis).
func TestOpenRefusesNonDatasets(t *testing.T) {
	empty := t.TempDir()
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "passwd"), []byte("root:x:0:0\n"), 0o644)
	for _, dir := range []string{empty, other} {
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "is not a ttftrace dataset") {
			t.Errorf("Open(%s) err = %v, want not a dataset", dir, err)
		}
	}
	if _, err := Open(filepath.Join(empty, "misspelt")); !os.IsNotExist(err) {
		t.Errorf("Open(missing) err = %v, want not exist", err)
	}
}

// TestLegacyDatasetFromMain reads a dataset written by ttftrace before the
// log (testdata/README.md says how), checks its events against the counts
// its own manifest recorded, then migrates a copy and appends to it.
func TestLegacyDatasetFromMain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "legacy")
	if err := os.CopyFS(dir, os.DirFS("testdata/legacy")); err != nil {
		t.Fatal(err)
	}
	s := openAll(t, dir)
	events, err := s.ReadEvents()
	if err != nil {
		t.Fatal(err)
	}
	var records int64
	for _, in := range s.Inputs {
		records += in.Records
	}
	rejects := readRejects(t, s)
	if len(s.Inputs) != 2 || int64(len(events)) != records || records != 39+8 || len(rejects) != 1 || rejects[0].Line != 9 {
		t.Fatalf("legacy dataset: %d inputs, %d events for %d records, rejects %+v", len(s.Inputs), len(events), records, rejects)
	}
	parts, err := WriteDataset(dir, events[:1])
	if err != nil {
		t.Fatal(err)
	}
	after := openAll(t, dir)
	if len(after.Files) != len(s.Files)+1 || !reflect.DeepEqual(after.Inputs, s.Inputs) || len(readRejects(t, after)) != 1 {
		t.Errorf("after migration and one append: files %q (new %q), inputs %d", after.Files, parts, len(after.Inputs))
	}
	if got, _ := after.ReadEvents(); len(got) != len(events)+1 {
		t.Errorf("after one append: %d events, want %d", len(got), len(events)+1)
	}
}

// TestWriterRefusesOtherFolders: a folder holding files but no dataset is
// not written into (ingest -o ~/logs by mistake).
func TestWriterRefusesOtherFolders(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "access.log"), []byte("x\n"), 0o644)
	if _, err := OpenWriter(dir, WriterOptions{}); err == nil || !strings.Contains(err.Error(), "not a ttftrace dataset and not empty") {
		t.Errorf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%s holds %d files, want only access.log", dir, len(entries))
	}
}
