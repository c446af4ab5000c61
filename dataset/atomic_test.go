package dataset

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteFileAtomicNotAFile: writing to a named pipe (as to /dev/null or
// /dev/stdout) goes through the pipe and leaves it a pipe; a rename would
// have put a regular file in its place (as root, over /dev/null itself).
// Writing through a symbolic link replaces its target and keeps the link;
// writing to a folder fails and leaves it.
func TestWriteFileAtomicNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteFileAtomic(fifo, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("after the write, %s is %v (%v), not a named pipe", fifo, fi.Mode(), err)
	}
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("the pipe's reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("nothing reached the pipe's reader")
	}

	target, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after the write, %s is %v (%v), not a symbolic link", link, fi.Mode(), err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "new" {
		t.Errorf("the link's target holds %q (%v), want the new content", b, err)
	}

	if err := WriteFileAtomic(dir, []byte("x")); err == nil {
		t.Errorf("writing to a folder succeeded")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("the folder is gone: %v", err)
	}
}
