package ingest

import (
	"bytes"
	"flag"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testdataFiles lists the inputs of the testdata folder of the format
// named name (formatDir), leaving out goldens, option files and notes.
func testdataFiles(t testing.TB, name string) []string {
	t.Helper()
	f, ok := Lookup(name)
	if !ok || formatDir(f) == "." {
		return decodetest.TestdataFiles(t, filepath.Join("testdata", name))
	}
	return decodetest.TestdataFiles(t, filepath.Join(formatDir(f), "testdata"))
}

// formatDir is the folder of f relative to this package: its package's
// folder ingest/<format>/, or "." for a format still in package ingest.
func formatDir(f Format) string {
	pkg := reflect.TypeOf(f).PkgPath()
	if strings.HasSuffix(pkg, "/ingest") {
		return "."
	}
	return path.Base(pkg)
}

// TestConformance runs every format over its testdata and compares what it
// decoded with the golden file beside each input (-update rewrites them).
// The goldens were checked by hand when written; a change shows up in review.
func TestConformance(t *testing.T) {
	for _, f := range Formats() {
		files := testdataFiles(t, f.Name())
		if len(files) == 0 {
			t.Errorf("format %s has no testdata/%s/", f.Name(), f.Name())
		}
		for _, path := range files {
			t.Run(filepath.Base(path), func(t *testing.T) {
				rec, err := decodetest.DecodeFile(t, f, path)
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				got := rec.Golden()
				golden := path + ".golden"
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("no golden (run go test ./ingest -run Conformance -update): %v", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from its golden; run with -update and review the diff", path)
				}
			})
		}
	}
}

// TestFormatNamesUnique checks the formats table.
func TestFormatNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Formats() {
		if seen[f.Name()] {
			t.Errorf("format %q listed twice", f.Name())
		}
		seen[f.Name()] = true
		switch f.Source() {
		case schema.SourceClient, schema.SourceProxy, schema.SourceServer:
		default:
			t.Errorf("format %q: bad source %q", f.Name(), f.Source())
		}
	}
}
