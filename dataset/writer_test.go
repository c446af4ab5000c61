package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// stageSample stages sampleEvents under the writer's folder.
func stageSample(t *testing.T, w *Writer) []StagedPart {
	t.Helper()
	pw := NewPartWriter(w.Dir())
	for _, ev := range sampleEvents() {
		if _, err := pw.Write(&ev); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	return parts
}

// allFiles lists every file under dir but the lock, relative and sorted.
func allFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != LockFile {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(files)
	return files
}

// TestCommitFailureLeavesNothing fails each step of a commit (4 part
// renames, the rejects file's write, sync and rename, the commit file's)
// with ENOSPC and checks that the call removed every file it made, so the
// dataset's files are those of the commit before.
func TestCommitFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteDataset(dir, sampleEvents()[:1]); err != nil {
		t.Fatal(err)
	}
	before := allFiles(t, dir)
	rejects := []schema.Reject{{File: "a.log", Line: 2, Reason: "bad"}}
	for k := 1; ; k++ {
		n := 0
		w, err := OpenWriter(dir, WriterOptions{Fault: func(step string) error {
			if n++; n == k {
				return syscall.ENOSPC
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = w.Commit(stageSample(t, w), []schema.InputStats{{Path: "a.log"}}, rejects)
		w.Close()
		if err == nil {
			if k != 11 { // 4 renames, 3 steps per file
				t.Errorf("commit went through at step %d, want 11", k)
			}
			break
		}
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), dir) {
			t.Errorf("step %d: err %v, want ENOSPC naming a path in %s", k, err, dir)
		}
		if got := allFiles(t, dir); !reflect.DeepEqual(got, before) {
			t.Fatalf("step %d failed, files %q, want %q", k, got, before)
		}
	}
	s := openAll(t, dir)
	if len(s.Files) != 5 || len(s.Inputs) != 1 || len(readRejects(t, s)) != 1 {
		t.Errorf("after the commit: %d files, %d inputs", len(s.Files), len(s.Inputs))
	}
}

// TestOpenWriterRemovesLeftovers plants what killed writers leave (a part
// no commit names, staged and temporary files, a rejects file without its
// commit) and checks that the next writer removes exactly those.
func TestOpenWriterRemovesLeftovers(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteDataset(dir, sampleEvents()); err != nil {
		t.Fatal(err)
	}
	committed := allFiles(t, dir)
	left := []string{
		"source=client/date=2026-11-23/part-00001.parquet",
		"source=client/date=2026-11-23/.part-123.tmp",
		"source=new/date=unknown/part-00000.parquet",
		"_log/.00000000000000000001.json.456.tmp",
		"_log/00000000000000000001.rejects.jsonl",
	}
	for _, p := range left {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("left"), 0o644)
	}
	w, err := OpenWriter(dir, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got := allFiles(t, dir); !reflect.DeepEqual(got, committed) {
		t.Errorf("files after cleanup %q, want %q", got, committed)
	}
	if len(w.Removed) != len(left) {
		t.Errorf("Removed %q, want the %d planted", w.Removed, len(left))
	}
}

// TestReadLogRefusesGaps: a log whose commit numbers skip one is corrupt.
func TestReadLogRefusesGaps(t *testing.T) {
	dir := t.TempDir()
	for range 2 {
		if _, err := WriteDataset(dir, sampleEvents()[:1]); err != nil {
			t.Fatal(err)
		}
	}
	os.Rename(filepath.Join(dir, LogDir, commitName(1)), filepath.Join(dir, LogDir, commitName(2)))
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "commit 1 is missing") {
		t.Errorf("err = %v, want commit 1 missing", err)
	}
}
