package ingest

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// recorder is a Sink that keeps everything it is told, for tests.
type recorder struct {
	Events  []recordedEvent `json:"events"`
	Skips   []recordedNote  `json:"skips"`
	Rejects []recordedNote  `json:"rejects"`
}

type recordedEvent struct {
	Line  int64        `json:"line"`
	Event schema.Event `json:"event"`
}

type recordedNote struct {
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Event keeps a copy of ev with its own slices and map, as the driver's
// sink does: formats may reuse them (Sink's contract).
func (r *recorder) Event(line int64, raw []byte, ev *schema.Event) {
	e := *ev
	e.OtherIDs = slices.Clone(e.OtherIDs)
	e.ChunkOffsetsNs = slices.Clone(e.ChunkOffsetsNs)
	e.ChunkTokens = slices.Clone(e.ChunkTokens)
	e.Attrs = maps.Clone(e.Attrs)
	r.Events = append(r.Events, recordedEvent{line, e})
}
func (r *recorder) Skip(line int64, reason string) {
	r.Skips = append(r.Skips, recordedNote{Line: line, Reason: reason})
}
func (r *recorder) Reject(line int64, reason, detail string) {
	r.Rejects = append(r.Rejects, recordedNote{line, reason, detail})
}

// total is the number of records the sink was told about.
func (r *recorder) total() int { return len(r.Events) + len(r.Skips) + len(r.Rejects) }

// decodeFile runs f over one testdata file with options read from a sibling
// "<file>.opts.json" when present.
func decodeFile(t testing.TB, f Format, path string) (*recorder, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{R: bytes.NewReader(data), Name: filepath.Base(path), Host: "testhost", Opts: testOptions(t, path)}
	rec := &recorder{}
	err = f.Decode(in, rec)
	return rec, err
}

// testOptions returns the options in "<path>.opts.json", if any.
func testOptions(t testing.TB, path string) Options {
	t.Helper()
	var o Options
	b, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		return o
	}
	var opts struct {
		LogFormat string   `json:"log_format"`
		Map       string   `json:"map"`
		TZ        string   `json:"tz"`
		Endpoints []string `json:"endpoints"`
	}
	if err := json.Unmarshal(b, &opts); err != nil {
		t.Fatalf("%s.opts.json: %v", path, err)
	}
	o.LogFormat, o.Map, o.Endpoints = opts.LogFormat, opts.Map, opts.Endpoints
	if opts.TZ != "" {
		if o.TZ, err = time.LoadLocation(opts.TZ); err != nil {
			t.Fatalf("%s.opts.json: %v", path, err)
		}
	}
	return o
}

// testdataFiles lists the inputs of testdata/<format>/, leaving out goldens
// and option files.
func testdataFiles(t testing.TB, name string) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join("testdata", name, "*"))
	var files []string
	for _, p := range all {
		if strings.HasSuffix(p, ".golden") || strings.HasSuffix(p, ".opts.json") || strings.HasSuffix(p, ".md") {
			continue
		}
		files = append(files, p)
	}
	return files
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
				got, _ := json.MarshalIndent(rec, "", "  ")
				got = append(got, '\n')
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
func fuzzDecode(t *testing.T, f Format, opts Options, data []byte) {
	rec := &recorder{}
	in := &Input{R: bytes.NewReader(data), Name: "fuzz", Host: "fuzzhost", Opts: opts}
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
