package ingest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/samples"
)

// TestFormatFolders checks that every entry of the formats table is one
// folder ingest/<format>/ with testdata whose every input has a golden, a
// fuzz test of the whole decoder (decodetest.FuzzDecode), a decoder benchmark, and a sample in samples/ (a demo log
// sniffed as the format, or samples/formats/<name>/).
func TestFormatFolders(t *testing.T) {
	demo := demoSampleFormats(t)
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
		if _, err := fs.Stat(samples.Formats(), f.Name()); err != nil && !slices.Contains(demo, f.Name()) {
			t.Errorf("%s: no sample in samples/demo or samples/formats/%s", f.Name(), f.Name())
		}
	}
}

// demoSampleFormats runs the driver over the demo's logs as `ttftrace demo`
// does and returns the format of each; every log must give events.
func demoSampleFormats(t *testing.T) []string {
	dir := t.TempDir()
	if err := os.CopyFS(dir, samples.Demo()); err != nil {
		t.Fatal(err)
	}
	opts := DriverOptions{LogFormats: map[string]string{}}
	for name, file := range map[string]string{"nginx": "nginx.log_format", "envoy": "envoy.format.json"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		opts.LogFormats[name] = string(b)
	}
	inputs, _ := filepath.Glob(filepath.Join(dir, "*.gz"))
	res, err := Run(inputs, opts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range res.Inputs {
		if in.Error != nil || in.Records == 0 {
			t.Errorf("demo sample %s (%s): %d events, error %v", filepath.Base(in.Path), in.Format, in.Records, in.Error)
		}
		names = append(names, in.Format)
	}
	return names
}

// TestSamples decodes every sample of samples/formats: each folder's files
// are sniffed as the format the folder names (jsonl, which no sniffer
// claims, is read with --format jsonl and its map) and give events.
func TestSamples(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, samples.Formats()); err != nil {
		t.Fatal(err)
	}
	for _, f := range Formats() {
		files, _ := filepath.Glob(filepath.Join(dir, f.Name(), "*"))
		files = slices.DeleteFunc(files, func(p string) bool { return filepath.Ext(p) == ".md" || filepath.Base(p) == "gateway.map.json" })
		if len(files) == 0 {
			continue
		}
		var opts DriverOptions
		if f.Name() == "jsonl" {
			m, err := os.ReadFile(filepath.Join(dir, "jsonl", "gateway.map.json"))
			if err != nil {
				t.Fatal(err)
			}
			opts.Format, opts.Options.Map = "jsonl", string(m)
		}
		res, err := Run(files, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range res.Inputs {
			if in.Format != f.Name() || in.Records == 0 || in.Error != nil {
				t.Errorf("sample %s: format %q, %d events, error %v; want %s with events", in.Path, in.Format, in.Records, in.Error, f.Name())
			}
		}
	}
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
