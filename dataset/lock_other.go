//go:build !unix

package dataset

import (
	"errors"
	"os"
)

// lockDataset is not available without flock: writing a dataset is refused
// rather than done without a lock.
func lockDataset(dir string, noWait bool, waiting func(lockPath string)) (*os.File, error) {
	return nil, errors.New("writing a dataset needs flock, which this system lacks")
}

// isEINVAL reports a sync a folder does not support.
func isEINVAL(err error) bool { return true }
