package dataset

import (
	"errors"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to path through a synced temporary file in the
// same folder and a rename: readers see the old file or the new one, never a
// part of it, and a failed write leaves no temporary file behind. A path
// that names a device, a pipe or a socket (`-o /dev/null`, `-o /dev/stdout`)
// is written to as it is: a rename would put a file in its place (as root,
// /dev/null itself). A symbolic link stays one: its target is replaced.
func WriteFileAtomic(path string, data []byte) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return &os.PathError{Op: "write", Path: path, Err: errors.New("is a folder")}
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	_, err := writeAtomic(path, data, false, nil)
	return err
}

// writeAtomic writes data to a temporary file beside path, syncs it, gives
// it its name and syncs the folder. With noReplace the name is taken by a
// hard link, which fails when path exists (a commit never replaces another);
// on file systems without hard links it falls back to a rename, safe under
// the writer lock. step, when not nil, is called before each write, sync and
// rename; its error is returned as that step's (a test hook). A failure
// removes the temporary file. placed reports that path holds data, even
// when syncing the folder then failed.
func writeAtomic(path string, data []byte, noReplace bool, step func(string) error) (placed bool, err error) {
	if step == nil {
		step = func(string) error { return nil }
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	err = step("write " + path)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = step("sync " + path)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = step("rename " + path)
	}
	if err == nil {
		err = place(tmp, path, noReplace)
	}
	if err != nil {
		os.Remove(tmp)
		return false, &os.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
	}
	return true, syncDir(dir)
}

// place gives the temporary file tmp the name path: by rename, or, with
// noReplace, by a hard link that fails when path exists.
func place(tmp, path string, noReplace bool) error {
	if !noReplace {
		return os.Rename(tmp, path)
	}
	err := os.Link(tmp, path)
	if errors.Is(err, os.ErrExist) {
		return err
	}
	if err != nil { // no hard links here: the writer lock keeps path free
		return os.Rename(tmp, path)
	}
	return os.Remove(tmp)
}

// unwrapPath returns the cause of a *PathError or *LinkError, so that the
// error names the final path once, not the temporary file's.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// syncDir makes the renames in dir durable. A file system that cannot sync
// folders (EINVAL) is not an error: the rename itself already succeeded.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !isEINVAL(err) {
		return err
	}
	return nil
}
