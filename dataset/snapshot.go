package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// Snapshot is the committed content of one or more datasets at the moment
// Open read their logs. Writers only add files and commits, and delete only
// files no commit names, so the files of a snapshot stay readable while
// later ingests run.
type Snapshot struct {
	// Files are the committed part files, dataset by dataset in the order
	// given, each dataset's sorted by path.
	Files []string
	// Inputs are the committed inputs, in commit order.
	Inputs []schema.InputStats
	// rejectFiles hold the rejects as JSON lines, in commit order.
	rejectFiles []string
}

// Open reads the logs of the given datasets. Each path is a dataset folder
// or a single Parquet file; a dataset named twice (or by two paths to the
// same folder) is read once. A folder that is neither a dataset with a log
// nor one written before the log (see legacy.go) is an error.
func Open(paths ...string) (*Snapshot, error) {
	s := &Snapshot{}
	var seen []os.FileInfo
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if containsFile(seen, info) {
			continue
		}
		seen = append(seen, info)
		if !info.IsDir() {
			s.Files = append(s.Files, p)
			continue
		}
		if err := s.add(p); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func containsFile(seen []os.FileInfo, info os.FileInfo) bool {
	for _, s := range seen {
		if os.SameFile(s, info) {
			return true
		}
	}
	return false
}

// add adds the committed content of the dataset folder root.
func (s *Snapshot) add(root string) error {
	commits, ok, err := readLog(root)
	if err != nil {
		return err
	}
	if !ok {
		return s.addLegacy(root)
	}
	var files []string
	for _, c := range commits {
		for _, p := range c.Parts {
			files = append(files, filepath.Join(root, filepath.FromSlash(p)))
		}
		fillInstantErrors(c.Inputs)
		fillTimingNotes(c.Inputs)
		s.Inputs = append(s.Inputs, c.Inputs...)
		if c.Rejects != "" {
			s.rejectFiles = append(s.rejectFiles, filepath.Join(root, filepath.FromSlash(c.Rejects)))
		}
	}
	sort.Strings(files)
	s.Files = append(s.Files, files...)
	return nil
}

// addLegacy adds a dataset written before the log, or refuses a folder that
// is not a dataset at all.
func (s *Snapshot) addLegacy(root string) error {
	legacy, err := isLegacy(root)
	if err != nil {
		return err
	}
	if !legacy {
		return fmt.Errorf("%s is not a ttftrace dataset (no %s folder, no %s, no part files); write one with ttftrace ingest -o %s", root, LogDir, ManifestFile, root)
	}
	files, err := DataFiles(root)
	if err != nil {
		return err
	}
	s.Files = append(s.Files, files...)
	n := len(s.Inputs)
	if s.Inputs, err = readLines(filepath.Join(root, ManifestFile), s.Inputs); err != nil {
		return err
	}
	fillInstantErrors(s.Inputs[n:])
	fillTimingNotes(s.Inputs[n:])
	s.rejectFiles = append(s.rejectFiles, filepath.Join(root, RejectsFile))
	return nil
}

// ReadEvents reads every event of the snapshot's files, in file order.
func (s *Snapshot) ReadEvents() ([]schema.Event, error) {
	return readFiles(s.Files)
}

// ReadRejects returns the snapshot's rejects in commit order.
func (s *Snapshot) ReadRejects() ([]schema.Reject, error) {
	var all []schema.Reject
	for _, f := range s.rejectFiles {
		var err error
		if all, err = readLines(f, all); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// ReadEvents reads every committed event of the given datasets (see Open).
func ReadEvents(paths ...string) ([]schema.Event, error) {
	s, err := Open(paths...)
	if err != nil {
		return nil, err
	}
	return s.ReadEvents()
}

// Files returns the committed part files of the given datasets (see Open).
func Files(paths ...string) ([]string, error) {
	s, err := Open(paths...)
	if err != nil {
		return nil, err
	}
	return s.Files, nil
}

// isPartPath reports whether the slash path rel, relative to a dataset
// root, names a part file in a partition folder.
func isPartPath(rel string) bool {
	dir, name := filepath.Split(filepath.FromSlash(rel))
	return partName.MatchString(name) && strings.HasPrefix(filepath.ToSlash(dir), "source=")
}
