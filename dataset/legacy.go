package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// Datasets written before the commit log (ttftrace up to issue 12) have no
// _log folder: their part files are all data, _manifest.jsonl holds one
// InputStats line per input and _rejects.jsonl one Reject line per rejected
// record. Readers read them as they are; the first writer migrates them by
// writing commit 0, which names every part file there and carries the
// manifest and rejects, into a new log folder that it renames into place.

// isLegacy reports whether root holds a dataset written before the log.
func isLegacy(root string) (bool, error) {
	if _, err := os.Stat(filepath.Join(root, ManifestFile)); err == nil {
		return true, nil
	}
	files, err := DataFiles(root)
	return len(files) > 0, err
}

// legacyCommit returns commit 0 of a dataset written before the log, with
// the rejects it must carry.
func legacyCommit(root string) (Commit, []schema.Reject, error) {
	files, err := DataFiles(root)
	if err != nil {
		return Commit{}, nil, err
	}
	c := Commit{Parts: []string{}}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		c.Parts = append(c.Parts, filepath.ToSlash(rel))
	}
	if c.Inputs, err = readLines[schema.InputStats](filepath.Join(root, ManifestFile), nil); err != nil {
		return c, nil, err
	}
	rejects, err := readLines[schema.Reject](filepath.Join(root, RejectsFile), nil)
	return c, rejects, err
}

// DataFiles lists the Parquet files of a folder, sorted by path, leaving out
// files and folders whose names start with "_" or "."; a path naming a file
// is returned as it is. It is the file list of a dataset written before the
// log; a dataset with a log is read from its commits instead.
func DataFiles(root string) ([]string, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{root}, nil
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(name, ".parquet") {
			files = append(files, p)
		}
		return nil
	})
	return files, err // WalkDir visits in lexical order
}

// readLines appends the JSON lines of path to into; a missing file adds
// nothing, and a bad line is an error naming path and line.
func readLines[T any](path string, into []T) ([]T, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return into, nil
	}
	if err != nil {
		return into, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return into, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		into = append(into, v)
	}
	return into, sc.Err()
}
