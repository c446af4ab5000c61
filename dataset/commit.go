package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// Commit adds the staged parts, the inputs' accounting and the rejects to
// the dataset as one commit, and returns the part files' final paths. The
// parts get their final names first (each the next free number of its
// partition, in the order given), then the rejects file is written, then
// the commit file, which is the commit point: until it exists, no reader
// sees the parts, and after a crash the next writer deletes them. On error
// nothing is committed and the files this call made are removed, except when
// only syncing the log folder failed once the commit file was in place: the
// commit is then made, and the error says so.
func (w *Writer) Commit(parts []StagedPart, inputs []schema.InputStats, rejects []schema.Reject) ([]string, error) {
	if w.lock == nil {
		RemoveParts(parts)
		return nil, errClosed
	}
	v := int64(len(w.commits))
	c := Commit{Version: v, Parts: []string{}, Inputs: inputs}
	finals, err := w.renameParts(parts)
	for _, f := range finals {
		rel, _ := filepath.Rel(w.dir, f)
		c.Parts = append(c.Parts, filepath.ToSlash(rel))
	}
	placed := false
	if err == nil {
		placed, err = w.writeCommit(filepath.Join(w.dir, LogDir), &c, rejects)
	}
	if err != nil && !placed {
		for _, f := range finals {
			os.Remove(f)
		}
		return nil, err
	}
	w.commits = append(w.commits, c)
	if err != nil { // readers see the commit; a rerun finds its inputs there
		return finals, fmt.Errorf("commit %d is made, but may not survive a power cut: %w", v, err)
	}
	return finals, nil
}

// writeCommit writes the rejects file (when there are rejects; c.Rejects
// then names it) and then the commit file of c into the log folder logDir.
// placed reports that the commit file is in place, even if an error came
// after (syncing the folder): the commit is then made.
func (w *Writer) writeCommit(logDir string, c *Commit, rejects []schema.Reject) (placed bool, err error) {
	if len(rejects) > 0 {
		b, err := encodeLines(rejects)
		if err != nil {
			return false, err
		}
		c.Rejects = LogDir + "/" + rejectsName(c.Version)
		if _, err := writeAtomic(filepath.Join(logDir, rejectsName(c.Version)), b, false, w.step); err != nil {
			return false, err
		}
	}
	b, err := encodeCommit(*c)
	if err == nil {
		placed, err = writeAtomic(filepath.Join(logDir, commitName(c.Version)), b, true, w.step)
	}
	if errors.Is(err, fs.ErrExist) {
		err = fmt.Errorf("%s: commit %d was written by another process: is the dataset on a file system without flock?", w.dir, c.Version)
	}
	if err != nil && !placed && c.Rejects != "" {
		os.Remove(filepath.Join(logDir, rejectsName(c.Version)))
	}
	return placed, err
}

// renameParts gives staged parts their final names, in the order given, and
// syncs their folders. It returns the paths renamed so far, also on error;
// the parts not renamed are removed.
func (w *Writer) renameParts(parts []StagedPart) ([]string, error) {
	next := map[string]int{}
	var finals []string
	for i, p := range parts {
		final, err := w.finalName(p, next)
		if err == nil {
			err = w.step("rename " + final)
		}
		if err == nil {
			err = os.Rename(p.Temp, final)
		}
		if err != nil {
			RemoveParts(parts[i:])
			return finals, &os.PathError{Op: "rename", Path: final, Err: unwrapPath(err)}
		}
		finals = append(finals, final)
	}
	synced := map[string]bool{}
	for _, f := range finals {
		if d := filepath.Dir(f); !synced[d] {
			synced[d] = true
			if err := syncDir(d); err != nil {
				return finals, err
			}
		}
	}
	return finals, nil
}

// finalName returns the next free part name of p's partition; next holds
// the numbers already given in this commit.
func (w *Writer) finalName(p StagedPart, next map[string]int) (string, error) {
	pdir := filepath.Join(w.dir, filepath.FromSlash(p.Partition))
	n, ok := next[p.Partition]
	if !ok {
		var err error
		if n, err = nextPartNumber(pdir); err != nil {
			return "", err
		}
	}
	next[p.Partition] = n + 1
	final := filepath.Join(pdir, fmt.Sprintf("part-%05d.parquet", n))
	if _, err := os.Lstat(final); !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s exists though the writer lock is held: is the dataset on a file system without flock?", final)
	}
	return final, nil
}

// removeUncommitted deletes what interrupted writers left: part files in
// partition folders that no commit names, rejects files of commits that do
// not exist, and temporary files (names starting with "." and ending in
// ".tmp"). Only the lock holder runs it, so no live writer's files go.
func (w *Writer) removeUncommitted() error {
	committed := map[string]bool{}
	for _, c := range w.commits {
		for _, p := range c.Parts {
			committed[p] = true
		}
		if c.Rejects != "" {
			committed[c.Rejects] = true
		}
	}
	defer RemoveEmptyPartitions(w.dir, false)
	return filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(w.dir, p)
		rel = filepath.ToSlash(rel)
		if isLeftOver(rel, d.Name()) && !committed[rel] {
			if err := os.Remove(p); err != nil {
				return err
			}
			w.Removed = append(w.Removed, p)
		}
		return nil
	})
}

// isLeftOver reports whether the file at rel (relative to the root, slash
// separated) is one a writer makes before its commit: a part file, a
// rejects file of the log, or a temporary file.
func isLeftOver(rel, name string) bool {
	switch {
	case strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp"):
		return true
	case strings.HasPrefix(rel, LogDir+"/"):
		return strings.HasSuffix(name, ".rejects.jsonl")
	}
	return isPartPath(rel)
}
