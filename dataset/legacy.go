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

	"github.com/ttftrace/ttftrace/schema"
)

// ManifestFile and RejectsFile are the dataset's bookkeeping files, named with
// a leading underscore so that data globs (**/*.parquet) never see them.
const (
	ManifestFile = "_manifest.jsonl"
	RejectsFile  = "_rejects.jsonl"
)

// AppendManifest adds one JSON line per input to the dataset's manifest.
func AppendManifest(dir string, inputs []schema.InputStats) error {
	return appendLines(filepath.Join(dir, ManifestFile), inputs)
}

// AppendRejects adds one JSON line per rejected record to the dataset's
// rejects file.
func AppendRejects(dir string, rejects []schema.Reject) error {
	return appendLines(filepath.Join(dir, RejectsFile), rejects)
}

// ReadManifest returns the manifest lines of the given datasets in order; a
// dataset without a manifest contributes nothing.
func ReadManifest(dirs ...string) ([]schema.InputStats, error) {
	var all []schema.InputStats
	for _, d := range dirs {
		var err error
		if all, err = readLines(filepath.Join(d, ManifestFile), all); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// ReadRejects returns the rejects of the given datasets in order; a dataset
// without a rejects file contributes nothing.
func ReadRejects(dirs ...string) ([]schema.Reject, error) {
	var all []schema.Reject
	for _, d := range dirs {
		var err error
		if all, err = readLines(filepath.Join(d, RejectsFile), all); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// appendLines appends items as JSON lines to path atomically: it writes the
// old contents and the new lines to a temporary file beside path, syncs it
// and renames it over path, so a failed call leaves the old file unchanged.
func appendLines[T any](path string, items []T) error {
	if len(items) == 0 {
		return nil
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	buf := bytes.NewBuffer(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		buf.WriteByte('\n')
	}
	enc := json.NewEncoder(buf)
	for i := range items {
		if err := enc.Encode(&items[i]); err != nil {
			return err
		}
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// WriteFileAtomic writes data to path through a synced temporary file in the
// same folder and a rename: readers see the old file or the new one, never a
// part of it, and a failed write leaves no temporary file behind.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	syncDir(dir)
	return nil
}

// readLines appends the JSON lines of path to into; a missing file (or a
// dataset given as a single Parquet file) adds nothing, and a bad line is an
// error naming path and line.
func readLines[T any](path string, into []T) ([]T, error) {
	if info, err := os.Stat(filepath.Dir(path)); err == nil && !info.IsDir() {
		return into, nil
	}
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
