// Package decodetest holds what every format's tests share: a decode.Sink that
// keeps what it is told (its JSON is the golden files' form), the reading of
// a format's testdata with its options, the body of every format's fuzz
// test and its benchmark, and the simulated fleet the benchmarks read.
package decodetest

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format is what the tests need of a format: its name and its decoder.
type Format interface {
	Name() string
	Decode(in *decode.Input, sink decode.Sink) error
}

// Recorder is a decode.Sink that keeps everything it is told, for tests. Its JSON
// (indented, one trailing newline) is the form of the golden files.
type Recorder struct {
	Events  []RecordedEvent `json:"events"`
	Skips   []RecordedNote  `json:"skips"`
	Rejects []RecordedNote  `json:"rejects"`
}

// RecordedEvent is one event a Recorder was told, with its line.
type RecordedEvent struct {
	Line  int64        `json:"line"`
	Event schema.Event `json:"event"`
}

// RecordedNote is one skip or reject a Recorder was told; Column is a
// reject's (decode.Pos.Col), 0 for a skip.
type RecordedNote struct {
	Line   int64  `json:"line"`
	Column int64  `json:"column,omitempty"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Event keeps a copy of ev with its own slices and map, as the driver's
// sink does: formats may reuse them (decode.Sink's contract).
func (r *Recorder) Event(line int64, raw []byte, ev *schema.Event) {
	e := *ev
	e.OtherIDs = slices.Clone(e.OtherIDs)
	e.ChunkOffsetsNs = slices.Clone(e.ChunkOffsetsNs)
	e.ChunkTokens = slices.Clone(e.ChunkTokens)
	e.Attrs = maps.Clone(e.Attrs)
	r.Events = append(r.Events, RecordedEvent{line, e})
}

// Skip keeps a skipped record's line and reason.
func (r *Recorder) Skip(line int64, reason string) {
	r.Skips = append(r.Skips, RecordedNote{Line: line, Reason: reason})
}

// Reject keeps a rejected record's position, reason and detail.
func (r *Recorder) Reject(at decode.Pos, reason, detail string) {
	r.Rejects = append(r.Rejects, RecordedNote{Line: at.Line, Column: at.Col, Reason: reason, Detail: detail})
}

// Total is the number of records the sink was told about.
func (r *Recorder) Total() int { return len(r.Events) + len(r.Skips) + len(r.Rejects) }

// Golden returns what the golden file of r holds: indented JSON and a newline.
func (r *Recorder) Golden() []byte {
	got, _ := json.MarshalIndent(r, "", "  ")
	return append(got, '\n')
}

// CountingSink counts what a format reports and keeps nothing.
type CountingSink struct{ Events, Skips, Rejects int }

func (c *CountingSink) Event(int64, []byte, *schema.Event) { c.Events++ }
func (c *CountingSink) Skip(int64, string)                 { c.Skips++ }
func (c *CountingSink) Reject(decode.Pos, string, string)  { c.Rejects++ }

// DecodeFile runs f over one testdata file with options read from a sibling
// "<file>.opts.json" when present.
func DecodeFile(t testing.TB, f Format, path string) (*Recorder, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in := &decode.Input{R: bytes.NewReader(data), Name: filepath.Base(path), Host: "testhost", Opts: Opts(t, path)}
	rec := &Recorder{}
	err = f.Decode(in, rec)
	return rec, err
}

// Opts returns the options of a testdata file, read from its sibling
// "<file>.opts.json" (none when there is no such file).
func Opts(t testing.TB, path string) decode.Options {
	t.Helper()
	o, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		return decode.Options{}
	}
	var opts struct {
		LogFormat string   `json:"log_format"`
		Map       string   `json:"map"`
		TZ        string   `json:"tz"`
		Endpoints []string `json:"endpoints"`
	}
	if err := json.Unmarshal(o, &opts); err != nil {
		t.Fatalf("%s.opts.json: %v", path, err)
	}
	d := decode.Options{LogFormat: opts.LogFormat, Map: opts.Map, Endpoints: opts.Endpoints}
	if opts.TZ != "" {
		var err error
		if d.TZ, err = time.LoadLocation(opts.TZ); err != nil {
			t.Fatalf("%s.opts.json: %v", path, err)
		}
	}
	return d
}

// TestdataFiles lists the inputs in folder dir (a format's testdata/),
// leaving out goldens, option files and notes.
func TestdataFiles(t testing.TB, dir string) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(dir, "*"))
	var files []string
	for _, p := range all {
		if strings.HasSuffix(p, ".golden") || strings.HasSuffix(p, ".opts.json") || strings.HasSuffix(p, ".md") {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			continue
		}
		files = append(files, p)
	}
	return files
}

// FuzzDecode is the body every format's fuzz test shares: Decode must not
// panic, and every event must name its source and the format.
func FuzzDecode(t *testing.T, f Format, opts decode.Options, data []byte) {
	rec := &Recorder{}
	in := &decode.Input{R: bytes.NewReader(data), Name: "fuzz", Host: "fuzzhost", Opts: opts}
	_ = f.Decode(in, rec)
	for _, e := range rec.Events {
		if e.Event.Source == "" || e.Event.Format != f.Name() {
			t.Fatalf("event without source or with format %q", e.Event.Format)
		}
	}
}

// SeedFuzz adds the files of testdata folder dir to a fuzz corpus.
func SeedFuzz(f *testing.F, dir string) {
	for _, p := range TestdataFiles(f, dir) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// BenchFleet is a simulated fleet of 3000 requests (the same topology
// ttftrace-gen writes), generated once for all decoder benchmarks.
var BenchFleet = sync.OnceValue(func() *fleet.Fleet {
	cfg := fleet.DefaultConfig(3000)
	cfg.MeanOut = 250
	return fleet.Generate(cfg)
})

// SmallFleet is a simulated fleet of 300 requests, generated once for the
// tests that read generated logs.
var SmallFleet = sync.OnceValue(func() *fleet.Fleet { return fleet.Generate(fleet.DefaultConfig(300)) })

// BenchLog returns the log host writes for BenchFleet.
func BenchLog(b *testing.B, host string) []byte { return FleetLog(b, BenchFleet(), host) }

// FleetLog returns the log host writes for f.
func FleetLog(tb testing.TB, f *fleet.Fleet, host string) []byte {
	h, err := f.Host(host)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.WriteHost(&buf, h); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchDecode reports the decode throughput of format over data, in MB/s of
// input; it checks that every record became an event.
func BenchDecode(b *testing.B, format Format, data []byte, opts decode.Options) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rec := &CountingSink{}
		if err := format.Decode(&decode.Input{R: bytes.NewReader(data), Name: "bench", Opts: opts}, rec); err != nil {
			b.Fatal(err)
		}
		if rec.Events == 0 || rec.Rejects != 0 {
			b.Fatalf("%d events, %d rejects", rec.Events, rec.Rejects)
		}
	}
}
