package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/ttftrace/ttftrace/schema"
)

// WriterOptions are the settings of OpenWriter.
type WriterOptions struct {
	// NoWait fails at once when another process holds the writer lock,
	// instead of waiting for it.
	NoWait bool
	// Waiting, when not nil, is called once when OpenWriter starts waiting
	// for the lock, with the lock file's path (the command says so on
	// standard error).
	Waiting func(lockPath string)
	// Fault, when not nil, is called before every write, sync and rename
	// of a commit with a description of the step; an error it returns is
	// that step's error. Tests use it to fail or kill a commit at each step.
	Fault func(step string) error
}

// Writer is the one process allowed to add to a dataset: it holds the
// dataset's writer lock from OpenWriter to Close.
type Writer struct {
	dir     string
	opts    WriterOptions
	lock    *os.File
	commits []Commit
	created bool // the folder did not exist before OpenWriter
	// Removed lists the files left by interrupted writers (uncommitted
	// parts and rejects, temporary files) that OpenWriter deleted.
	Removed []string
}

// OpenWriter takes the writer lock of the dataset folder dir (created when
// missing), migrates a dataset written before the log (see legacy.go), reads
// the log, and deletes what interrupted writers left: part and rejects files
// no commit names, and temporary files. Close releases the lock.
func OpenWriter(dir string, opts WriterOptions) (*Writer, error) {
	_, err := os.Stat(dir)
	w := &Writer{dir: dir, opts: opts, created: errors.Is(err, fs.ErrNotExist)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if w.lock, err = lockDataset(dir, opts.NoWait, opts.Waiting); err != nil {
		return nil, err // without the lock, touch nothing: it is another writer's
	}
	if err = w.recover(); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, LogDir)); errors.Is(serr, fs.ErrNotExist) {
			os.Remove(filepath.Join(dir, LockFile)) // no dataset here: leave nothing
		}
		w.Close()
		return nil, err
	}
	return w, nil
}

// recover makes sure the dataset has a log, reads it and cleans up.
func (w *Writer) recover() error {
	if err := os.RemoveAll(filepath.Join(w.dir, logNew)); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(w.dir, LogDir)); errors.Is(err, fs.ErrNotExist) {
		if err := w.createLog(); err != nil {
			return err
		}
	}
	commits, _, err := readLog(w.dir)
	if err != nil {
		return err
	}
	w.commits = commits
	return w.removeUncommitted()
}

// createLog creates the log folder of a new (empty) dataset, or migrates a
// dataset written before the log.
func (w *Writer) createLog() error {
	legacy, err := isLegacy(w.dir)
	if err != nil {
		return err
	}
	if legacy {
		return w.migrate()
	}
	if err := refuseOther(w.dir); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(w.dir, LogDir), 0o755); err != nil {
		return err
	}
	return syncDir(w.dir)
}

// migrate gives a dataset written before the log its commit 0, naming its
// part files and carrying its manifest and rejects. The log is written into
// a new folder renamed into place whole, so that a crash never leaves a log
// without commit 0 (the next writer would take the parts for leftovers).
func (w *Writer) migrate() error {
	c, rejects, err := legacyCommit(w.dir)
	if err != nil {
		return err
	}
	tmp := filepath.Join(w.dir, logNew)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	if _, err := w.writeCommit(tmp, &c, rejects); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(w.dir, LogDir)); err != nil {
		return err
	}
	if err := syncDir(w.dir); err != nil {
		return err
	}
	os.Remove(filepath.Join(w.dir, ManifestFile)) // carried by commit 0 now
	os.Remove(filepath.Join(w.dir, RejectsFile))
	return nil
}

// Commits returns the number of commits in the dataset.
func (w *Writer) Commits() int { return len(w.commits) }

// refuseOther fails for a folder that holds files but no dataset: writing
// there (ingest -o ~/logs by mistake) would mix a dataset into them.
func refuseOther(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != LockFile {
			return fmt.Errorf("%s is not a ttftrace dataset and not empty (it holds %s): give a new or empty folder", dir, e.Name())
		}
	}
	return nil
}

// Dir returns the dataset folder.
func (w *Writer) Dir() string { return w.dir }

// Inputs returns the inputs of every commit, in commit order: what is
// already in the dataset, with the fingerprints of the inputs' spans.
func (w *Writer) Inputs() []schema.InputStats {
	var all []schema.InputStats
	for _, c := range w.commits {
		all = append(all, c.Inputs...)
	}
	return all
}

// Close releases the writer lock. When OpenWriter created the folder and
// nothing was committed, the folder is removed again.
func (w *Writer) Close() error {
	if w.lock == nil {
		return nil
	}
	w.removeIfCreated()
	err := w.lock.Close()
	w.lock = nil
	return err
}

// removeIfCreated removes the dataset folder this writer created when no
// commit was made. The lock file goes last, while still locked: a writer
// waiting on it finds it replaced and locks the new one (see lockDataset).
func (w *Writer) removeIfCreated() {
	if !w.created || len(w.commits) > 0 {
		return
	}
	RemoveEmptyPartitions(w.dir, false)
	os.Remove(filepath.Join(w.dir, LogDir))
	entries, err := os.ReadDir(w.dir)
	if err == nil && len(entries) == 1 && entries[0].Name() == LockFile {
		os.Remove(filepath.Join(w.dir, LockFile))
		os.Remove(w.dir)
	}
}

// WriteDataset writes events under dir (created when missing) as one commit,
// one new part file per partition, and returns the paths written in
// partition order. Events keep their order within a partition, so the same
// events give byte-identical files. It waits for the writer lock.
func WriteDataset(dir string, events []schema.Event) ([]string, error) {
	w, err := OpenWriter(dir, WriterOptions{})
	if err != nil {
		return nil, err
	}
	defer w.Close()
	pw := NewPartWriter(dir)
	for i := range events {
		if _, err := pw.Write(&events[i]); err != nil {
			pw.Abort()
			return nil, err
		}
	}
	parts, err := pw.Close()
	if err != nil {
		return nil, err
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Partition < parts[j].Partition })
	return w.Commit(parts, nil, nil)
}

// errClosed is the error of a Writer used after Close.
var errClosed = errors.New("dataset writer is closed")

// step runs the Fault hook for one step of a commit.
func (w *Writer) step(what string) error {
	if w.opts.Fault == nil {
		return nil
	}
	return w.opts.Fault(what)
}
