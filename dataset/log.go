package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/ttftrace/ttftrace/schema"
)

// The commit log. A dataset written by this version holds, beside its
// partition folders:
//
//	DATASET/_lock                            the writer lock (flock)
//	DATASET/_log/00000000000000000000.json   commit 0
//	DATASET/_log/00000000000000000001.json   commit 1
//	DATASET/_log/00000000000000000001.rejects.jsonl   the rejects of commit 1
//
// A commit file is the single commit point of one ingest: it names the part
// files it adds, the inputs it read (with their fingerprints) and its
// rejects file. It is written to a temporary file, synced, given its name by
// a hard link that fails if the name exists, and the folder is synced; so a
// commit is there whole or not at all. The committed content of a dataset is
// the union of its commit files 0…N, which are numbered without gaps. A part
// or rejects file that no commit names is not data: readers never list it
// and the next writer deletes it.

// LogDir, LockFile, ManifestFile and RejectsFile are the dataset's
// bookkeeping names; they start with "_" so that data globs never see them.
// ManifestFile and RejectsFile are the layout before the log (see legacy.go).
const (
	LogDir       = "_log"
	LockFile     = "_lock"
	ManifestFile = "_manifest.jsonl"
	RejectsFile  = "_rejects.jsonl"
	logNew       = "_log.new" // a log being created by migration
)

// Commit is one entry of the log.
type Commit struct {
	Version int64 `json:"version"`
	// Parts are the part files added, slash-separated, relative to the root.
	Parts []string `json:"parts"`
	// Inputs account for the inputs read, one per input.
	Inputs []schema.InputStats `json:"inputs"`
	// Rejects is the rejects file of the commit, relative to the root, or
	// empty when nothing was rejected.
	Rejects string `json:"rejects,omitempty"`
}

var commitFile = regexp.MustCompile(`^(\d{20})\.json$`)

func commitName(v int64) string  { return fmt.Sprintf("%020d.json", v) }
func rejectsName(v int64) string { return fmt.Sprintf("%020d.rejects.jsonl", v) }

// readLog returns the commits of the dataset at root in order, and false
// when root has no log folder. A missing number in the sequence or a commit
// file that does not parse is an error naming the file.
func readLog(root string) ([]Commit, bool, error) {
	entries, err := os.ReadDir(filepath.Join(root, LogDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var commits []Commit
	for _, e := range entries { // ReadDir sorts by name: by version
		m := commitFile.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		path := filepath.Join(root, LogDir, e.Name())
		v, _ := strconv.ParseInt(m[1], 10, 64)
		if v != int64(len(commits)) {
			return nil, true, fmt.Errorf("%s: commit %d is missing from the log", path, len(commits))
		}
		c, err := readCommit(path)
		if err != nil {
			return nil, true, err
		}
		commits = append(commits, c)
	}
	return commits, true, nil
}

// readCommit reads one commit file.
func readCommit(path string) (Commit, error) {
	var c Commit
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		return c, fmt.Errorf("%s: unreadable commit: %w", path, err)
	}
	return c, nil
}

// encodeCommit returns the commit file's bytes: one JSON object per line
// would be no easier to read, so it is indented for people.
func encodeCommit(c Commit) ([]byte, error) {
	b, err := json.MarshalIndent(c, "", " ")
	return append(b, '\n'), err
}

// encodeLines returns items as JSON lines.
func encodeLines[T any](items []T) ([]byte, error) {
	var out []byte
	for i := range items {
		b, err := json.Marshal(&items[i])
		if err != nil {
			return nil, err
		}
		out = append(append(out, b...), '\n')
	}
	return out, nil
}
