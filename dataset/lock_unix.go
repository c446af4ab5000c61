//go:build unix

package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDataset takes the dataset's writer lock: an exclusive flock on
// dir/_lock, held until the returned file is closed (the kernel releases it
// when the process ends, however it ends, so a killed writer never leaves
// the dataset locked). When another process holds it, lockDataset fails at
// once under noWait, else calls waiting and blocks.
func lockDataset(dir string, noWait bool, waiting func(lockPath string)) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	for {
		// The folder too may have gone while we waited: a writer that
		// created it and committed nothing removes it (Writer.Close).
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if noWait {
				f.Close()
				return nil, fmt.Errorf("%s: another ingest is writing this dataset (lock %s is held); try again later, or drop --no-wait to wait", dir, path)
			}
			if waiting != nil {
				waiting(path)
				waiting = nil
			}
			err = flockRetry(f)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if sameFile(f, path) {
			return f, nil
		}
		f.Close() // the lock file was replaced while we waited: lock the new one
	}
}

// flockRetry blocks until the exclusive lock is taken, retrying when a
// signal interrupts the wait.
func flockRetry(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// sameFile reports whether the open file f is still the file at path.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// isEINVAL reports a sync a folder does not support.
func isEINVAL(err error) bool { return errors.Is(err, syscall.EINVAL) }
