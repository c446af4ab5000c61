package ingest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/samples"
)

// TestFormatFolders checks that every entry of the formats table is one
// folder ingest/<format>/ with testdata whose every input has a golden, a
// fuzz test of the whole decoder (decodetest.FuzzDecode), a decoder
// benchmark, and a sample, samples/formats/<name>/, holding a file besides
// its flags (internal/cli's TestFormatSamples reads every sample as the
// demo does).
func TestFormatFolders(t *testing.T) {
	bench := regexp.MustCompile(`(?m)^func BenchmarkDecode\w*\(b \*testing\.B\)`)
	for _, f := range Formats() {
		dir := formatDir(f)
		if dir == "." {
			t.Errorf("%s: not in a folder of its own", f.Name())
			continue
		}
		files := decodetest.TestdataFiles(t, filepath.Join(dir, "testdata"))
		if len(files) == 0 {
			t.Errorf("%s: no %s/testdata/", f.Name(), dir)
		}
		for _, p := range files {
			if _, err := os.Stat(p + ".golden"); err != nil {
				t.Errorf("%s: %s has no golden", f.Name(), p)
			}
		}
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		var hasFuzz, hasBench bool
		for _, p := range tests {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			hasFuzz = hasFuzz || fuzzesDecoder(b)
			hasBench = hasBench || bench.Match(b)
		}
		if !hasFuzz || !hasBench {
			t.Errorf("%s: fuzz test %v, decoder benchmark %v; want both", f.Name(), hasFuzz, hasBench)
		}
		if !hasSample(f.Name()) {
			t.Errorf("%s: no sample in samples/formats/%s/", f.Name(), f.Name())
		}
	}
}

// hasSample reports whether samples/formats/name/ holds a file other than
// its flags and README.md.
func hasSample(name string) bool {
	entries, _ := fs.ReadDir(samples.Formats(), name)
	for _, e := range entries {
		if !e.IsDir() && e.Name() != "flags" && e.Name() != "README.md" {
			return true
		}
	}
	return false
}

// fuzzesDecoder reports whether a test file has a fuzz test (func FuzzX(f
// *testing.F)) whose body calls decodetest.FuzzDecode.
func fuzzesDecoder(src []byte) bool {
	for _, fn := range regexp.MustCompile(`(?m)^func `).Split(string(src), -1) {
		if strings.HasPrefix(fn, "Fuzz") && strings.Contains(fn, "(f *testing.F)") && strings.Contains(fn, "decodetest.FuzzDecode(") {
			return true
		}
	}
	return false
}
