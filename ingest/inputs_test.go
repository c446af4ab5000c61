package ingest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestExpandInputsSymlinks follows links to files and folders (as in
// Kubernetes' /var/log/containers), walks a folder reached through a link
// loop once, reads a file named through two links once, and keeps a
// dangling link so that reading it fails with its name.
func TestExpandInputsSymlinks(t *testing.T) {
	dir := t.TempDir()
	j := func(p ...string) string { return filepath.Join(append([]string{dir}, p...)...) }
	writeFile(t, j("pods", "a", "0.log"), []byte("#lines\nok 1\n"))
	writeFile(t, j("pods", "b", "0.log"), []byte("#lines\nok 2\n"))
	os.MkdirAll(j("containers"), 0o755)
	links := map[string]string{
		j("containers", "a.log"):       j("pods", "a", "0.log"),
		j("containers", "a-again"):     j("pods", "a", "0.log"),
		j("containers", "b"):           j("pods", "b"),
		j("containers", "loop"):        j("containers"),
		j("containers", "gone.log"):    j("pods", "c", "0.log"),
		j("containers", ".hidden.log"): j("pods", "b", "0.log"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ExpandInputs([]string{j("containers")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{j("containers", "a-again"), j("containers", "b", "0.log"), j("containers", "gone.log")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ExpandInputs = %q\nwant %q", got, want)
	}
	res, err := Run([]string{j("containers")}, DriverOptions{Formats: testFormats})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 2 || len(res.Failed()) != 1 || !strings.Contains(*res.Failed()[0].Error, "gone.log") {
		t.Errorf("records %d, failed %+v; want 2 and gone.log failing", res.Records, res.Failed())
	}
}

// TestFIFOIsAStream reads a named pipe given by name: it is read once, as
// it comes, while another goroutine writes it.
func TestFIFOIsAStream(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("#lines\nok 1\nok 2\nok 3\n")
		f.Close()
	}()
	ds := filepath.Join(t.TempDir(), "ds")
	w := openWriter(t, ds)
	res, err := Run([]string{fifo}, DriverOptions{Formats: testFormats, Dataset: ds, Known: w.Inputs()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 3 || len(res.Failed()) != 0 || res.Inputs[0].Span == nil || res.Inputs[0].Span.End != 22 {
		t.Errorf("records %d, inputs %+v; want 3 records of 22 bytes", res.Records, res.Inputs)
	}
	res.Discard()
}

// TestHostFromPathWorkingFolder: a generic file named without a folder
// takes the working folder's name.
func TestHostFromPathWorkingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gw-c")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if got := HostFromPath("access.log"); got != "gw-c" {
		t.Errorf("HostFromPath(access.log) in gw-c = %q", got)
	}
	if got := HostFromPath("edge-1.log"); got != "edge-1" {
		t.Errorf("HostFromPath(edge-1.log) = %q", got)
	}
}
