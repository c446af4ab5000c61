package ingest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// recorder, recordedEvent and recordedNote are decodetest's, for the tests
// of the formats still in this package.
type (
	recordedEvent = decodetest.RecordedEvent
	recordedNote  = decodetest.RecordedNote
)

// decodeFile runs f over one testdata file with options read from a sibling
// "<file>.opts.json" when present.
func decodeFile(t testing.TB, f Format, path string) (*decodetest.Recorder, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in := &decode.Input{R: bytes.NewReader(data), Name: filepath.Base(path), Host: "testhost"}
	if o, err := os.ReadFile(path + ".opts.json"); err == nil {
		var opts struct {
			LogFormat string   `json:"log_format"`
			Map       string   `json:"map"`
			TZ        string   `json:"tz"`
			Endpoints []string `json:"endpoints"`
		}
		if err := json.Unmarshal(o, &opts); err != nil {
			t.Fatalf("%s.opts.json: %v", path, err)
		}
		in.Opts.LogFormat, in.Opts.Map, in.Opts.Endpoints = opts.LogFormat, opts.Map, opts.Endpoints
		if opts.TZ != "" {
			if in.Opts.TZ, err = time.LoadLocation(opts.TZ); err != nil {
				t.Fatalf("%s.opts.json: %v", path, err)
			}
		}
	}
	rec := &decodetest.Recorder{}
	err = f.Decode(in, rec)
	return rec, err
}

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
				rec, err := decodeFile(t, f, path)
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

// fuzzDecode is the body every format's fuzz test shares: Decode must not
// panic, and must account for every record it reads exactly once (it may
// return an error only for an input it cannot read at all).
func fuzzDecode(t *testing.T, f Format, opts decode.Options, data []byte) {
	rec := &decodetest.Recorder{}
	in := &decode.Input{R: bytes.NewReader(data), Name: "fuzz", Host: "fuzzhost", Opts: opts}
	_ = f.Decode(in, rec)
	for _, e := range rec.Events {
		if e.Event.Source == "" || e.Event.Format != f.Name() {
			t.Fatalf("event without source or with format %q", e.Event.Format)
		}
	}
}

// seedFuzz adds a format's testdata files to a fuzz corpus.
func seedFuzz(f *testing.F, name string) {
	for _, p := range testdataFiles(f, name) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}
