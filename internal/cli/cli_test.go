package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/schema"
)

// testFormat is a format for the CLI tests: inputs start with "#t"; "ok N"
// is a request starting N seconds after 2026-11-23T00:00:00Z, "skip" and
// lines starting with "#" skips, anything else a reject.
type testFormat struct{}

func (testFormat) Name() string           { return "testlines" }
func (testFormat) Source() string         { return schema.SourceClient }
func (testFormat) Describe() string       { return "numbered test lines" }
func (testFormat) Sniff(head []byte) bool { return bytes.HasPrefix(head, []byte("#t")) }
func (testFormat) Decode(in *ingest.Input, sink ingest.Sink) error {
	sc := bufio.NewScanner(in.R)
	for line := int64(1); sc.Scan(); line++ {
		var n int64
		switch _, err := fmt.Sscanf(sc.Text(), "ok %d", &n); {
		case strings.HasPrefix(sc.Text(), "#") || sc.Text() == "skip":
			sink.Skip(line, "not a request")
		case err != nil:
			sink.Reject(line, "bad record", sc.Text())
		default:
			start := int64(1795392000000000000) + n*1e9 // 2026-11-23T00:00:00Z + n s
			sink.Event(line, sc.Bytes(), &schema.Event{Clock: schema.ClockWall, StartNs: &start, RequestID: fmt.Sprint(n)})
		}
	}
	return nil
}

type cliCase struct {
	name       string
	args       []string // "$D" is replaced by the test folder
	stdin      string
	code       int
	stdout     []string // substrings
	stderr     []string
	wantEvents int // events in $D/out after the run; -1: $D/out must not exist
}

func TestCLI(t *testing.T) {
	cases := []cliCase{
		{name: "no args", code: 2, stderr: []string{"Commands:", "ingest -o DATASET"}, wantEvents: -1},
		{name: "--help", args: []string{"--help"}, stdout: []string{"Commands:", "Exit status"}, wantEvents: -1},
		{name: "help ingest", args: []string{"help", "ingest"}, stdout: []string{"Example:\n  ttftrace ingest -o", "-strict"}, wantEvents: -1},
		{name: "ingest --help", args: []string{"ingest", "--help"}, stdout: []string{"usage: ttftrace ingest"}, wantEvents: -1},
		{name: "help unknown", args: []string{"help", "nope"}, code: 2, stderr: []string{`unknown command "nope"`}, wantEvents: -1},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: []string{`unknown command "frobnicate"`}, wantEvents: -1},
		{name: "missing -o", args: []string{"ingest", "$D/good.log"}, code: 2, stderr: []string{"missing -o", "usage: ttftrace ingest"}, wantEvents: -1},
		{name: "missing input", args: []string{"ingest", "-o", "$D/out"}, code: 2, stderr: []string{"missing INPUT"}, wantEvents: -1},
		{name: "bad flag", args: []string{"ingest", "--bogus", "-o", "$D/out", "$D/good.log"}, code: 2, stderr: []string{"bogus"}, wantEvents: -1},
		{name: "bad tz", args: []string{"ingest", "-o", "$D/out", "--tz", "Mars/Olympus", "$D/good.log"}, code: 2, stderr: []string{"--tz"}, wantEvents: -1},
		{name: "missing @file", args: []string{"ingest", "-o", "$D/out", "--log-format", "@$D/nope", "$D/good.log"}, code: 2, stderr: []string{"--log-format"}, wantEvents: -1},
		{name: "unknown --format", args: []string{"ingest", "-o", "$D/out", "--format", "nginx", "$D/good.log"}, code: 2, stderr: []string{`unknown --format "nginx"`}, wantEvents: -1},
		{name: "formats with args", args: []string{"formats", "x"}, code: 2, wantEvents: -1},
		// good.log: header skip + ok 1 + ok 2 + ok 1 (duplicate) = 4 read, 2 records.
		{name: "flags after positionals", args: []string{"ingest", "$D/good.log", "-o", "$D/out", "--host", "lb-1"}, wantEvents: 2,
			stderr: []string{"PATH", "$D/good.log  testlines  lb-1", "wrote 2 events in 1 files"}},
		{name: "quiet", args: []string{"ingest", "-q", "$D/good.log", "-o=$D/out"}, wantEvents: 2},
		// bad.log: header skip + ok 3 + "oops" (reject) + skip = 4 read.
		{name: "rejects without strict", args: []string{"ingest", "-o", "$D/out", "$D/bad.log"}, wantEvents: 1,
			stderr: []string{"bad.log", "wrote 1 events"}},
		{name: "strict", args: []string{"ingest", "$D/good.log", "$D/bad.log", "--strict", "-o", "$D/out"}, code: 3, wantEvents: -1,
			stderr: []string{"$D/bad.log:3: bad record: oops", "1 records rejected under --strict; nothing written"}},
		{name: "missing input file", args: []string{"ingest", "-o", "$D/out", "$D/missing.log"}, code: 1, wantEvents: -1,
			stderr: []string{"missing.log"}},
		{name: "unknown format input", args: []string{"ingest", "-o", "$D/out", "$D/good.log", "$D/other.txt"}, code: 1, wantEvents: -1,
			stderr: []string{"other.txt: unknown format", "1 of 2 inputs could not be read; nothing written"}},
		{name: "stdin", args: []string{"ingest", "-", "-o", "$D/out"}, stdin: "#t\nok 9\n", wantEvents: 1,
			stderr: []string{"-     testlines  stdin"}},
		{name: "double dash", args: []string{"ingest", "-o", "$D/out", "--", "$D/-dash.log"}, wantEvents: 1},
		{name: "analyze a folder that is not a dataset", args: []string{"analyze", "$D", "-o", "$D/a.json"}, code: 1, wantEvents: -1,
			stderr: []string{"$D is not a ttftrace dataset"}},
		{name: "analyze /etc", args: []string{"analyze", "/etc", "-o", "$D/a.json"}, code: 1, wantEvents: -1,
			stderr: []string{"/etc is not a ttftrace dataset"}},
		{name: "analyze a misspelt dataset", args: []string{"analyze", "$D/dataest", "-o", "$D/a.json"}, code: 1, wantEvents: -1,
			stderr: []string{"$D/dataest: no such file or directory"}},
		{name: "formats", args: []string{"formats"}, stdout: []string{"testlines  client  numbered test lines"}, wantEvents: -1},
		{name: "schema", args: []string{"schema"}, stdout: []string{"start_ns", "MAP<STRING,STRING>", "Schema version 1"}, wantEvents: -1},
		{name: "sql", args: []string{"sql", "--dataset", "$D/ds"}, wantEvents: -1,
			stdout: []string{"FROM read_parquet('$D/ds/**/*.parquet', hive_partitioning = true);", "CREATE OR REPLACE VIEW metric_summary"}},
		{name: "sql spark", args: []string{"sql", "--dialect", "spark", "--dataset", "lake.tt.events"}, wantEvents: -1,
			stdout: []string{"FROM lake.tt.events", "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"}},
		{name: "sql spark approx by", args: []string{"sql", "--dialect", "spark", "--approx", "--by", "model+region", "--window", "5m"}, wantEvents: -1,
			stdout: []string{"percentile_approx(value", "'model+region'", "try_element_at(attrs, 'region')", "Time-series window: 5m", "% 300000000000"}},
		{name: "sql bad by", args: []string{"sql", "--by", "model+"}, code: 2, wantEvents: -1,
			stderr: []string{`--by key ""`, "usage: ttftrace sql"}},
		{name: "sql bad table", args: []string{"sql", "--dialect", "trino", "--dataset", "events; DROP TABLE x"}, code: 2, wantEvents: -1,
			stderr: []string{`table "events; DROP TABLE x"`, "usage: ttftrace sql"}},
		{name: "sql bad dialect", args: []string{"sql", "--dialect", "oracle"}, code: 2, wantEvents: -1,
			stderr: []string{`--dialect "oracle": one of duckdb, trino, spark`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runCLICase(t, tc) })
	}
}

func runCLICase(t *testing.T, tc cliCase) {
	dir := t.TempDir()
	files := map[string]string{
		"good.log":  "#t\nok 1\nok 2\nok 1\n",
		"bad.log":   "#t\nok 3\noops\nskip\n",
		"other.txt": "hello\n",
		"-dash.log": "#t\nok 4\n",
	}
	for name, body := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	sub := func(s string) string { return strings.ReplaceAll(s, "$D", dir) }
	var args []string
	for _, a := range tc.args {
		args = append(args, sub(a))
	}
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(tc.stdin), stdout: &stdout, stderr: &stderr, formats: []ingest.Format{testFormat{}}}
	if code := c.main(args); code != tc.code {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
	}
	for _, s := range tc.stdout {
		if !strings.Contains(stdout.String(), sub(s)) {
			t.Errorf("stdout lacks %q:\n%s", sub(s), stdout.String())
		}
	}
	for _, s := range tc.stderr {
		if !strings.Contains(stderr.String(), sub(s)) {
			t.Errorf("stderr lacks %q:\n%s", sub(s), stderr.String())
		}
	}
	out := filepath.Join(dir, "out")
	if tc.wantEvents < 0 {
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s was written", out)
		}
		return
	}
	evs, err := dataset.ReadEvents(out)
	if err != nil || len(evs) != tc.wantEvents {
		t.Errorf("dataset has %d events (err %v), want %d", len(evs), err, tc.wantEvents)
	}
}

// TestSQLWritesFile checks that sql -o writes the views to the file and
// nothing to standard output.
func TestSQLWritesFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "views.sql")
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr}
	if code := c.main([]string{"sql", "-o", out, "--dialect", "trino"}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "FROM ttftrace_events;") || stdout.Len() > 0 {
		t.Errorf("file (err %v):\n%.300s\nstdout %q", err, b, stdout.String())
	}
}

// TestIngestIncremental ingests a file, ingests it again (nothing added),
// lets it grow and ingests it again (only the new lines, with their line
// numbers in the file), then renames it and ingests it under its new name
// (recognized by content: nothing added).
func TestIngestIncremental(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "edge-1.access.log")
	os.WriteFile(in, []byte("#t\nok 1\nok 1\nnope\n"), 0o644)
	out := filepath.Join(dir, "ds")
	ingest := func(path, wantSays string) {
		t.Helper()
		var stderr bytes.Buffer
		c := &cli{stdout: &stderr, stderr: &stderr, formats: []ingest.Format{testFormat{}}}
		if code := c.main([]string{"ingest", "-o", out, path}); code != 0 || !strings.Contains(stderr.String(), wantSays) {
			t.Fatalf("exit %d, want 0 and %q in:\n%s", code, wantSays, stderr.String())
		}
	}
	ingest(in, "wrote 1 events in 1 files")
	ingest(in, "already in "+out)
	f, _ := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("ok 2\nskip\nbad\n")
	f.Close()
	ingest(in, "wrote 1 events in 1 files")
	rotated := in + ".1"
	os.Rename(in, rotated)
	ingest(rotated, "already in "+out)
	if _, err := os.Stat(filepath.Join(out, "source=client", "date=2026-11-23", "part-00001.parquet")); err != nil {
		t.Error(err)
	}
	snap, err := dataset.Open(out)
	if err != nil || len(snap.Inputs) != 2 {
		t.Fatalf("inputs %+v, %v; want 2", snap.Inputs, err)
	}
	// First: #t skip, ok 1, ok 1 (duplicate), nope (reject). Then the three
	// new lines 5-7: ok 2, skip, bad (reject at line 7).
	m0, m1 := snap.Inputs[0], snap.Inputs[1]
	if m0.Read != 4 || m0.Records != 1 || m0.Duplicates != 1 || m0.Skipped != 1 || m0.Rejected != 1 {
		t.Errorf("first input %+v", m0)
	}
	if m1.Read != 3 || m1.Records != 1 || m1.Skipped != 1 || m1.Rejected != 1 || m1.Span.Start != 18 || m1.Span.StartLine != 4 || m1.Span.EndLine != 7 {
		t.Errorf("second input %+v, span %+v", m1, m1.Span)
	}
	rej, _ := snap.ReadRejects()
	if len(rej) != 2 || rej[0].Line != 4 || rej[1].Line != 7 || rej[1].Detail != "bad" {
		t.Errorf("rejects %+v", rej)
	}
	evs, _ := snap.ReadEvents()
	if len(evs) != 2 || evs[0].RequestID != "1" || evs[1].RequestID != "2" || evs[1].InputLine != 5 {
		t.Errorf("events %+v", evs)
	}
}

// TestHelpHasExample checks every command's help shows one example of it.
func TestHelpHasExample(t *testing.T) {
	for _, k := range commands() {
		var stdout, stderr bytes.Buffer
		if code := Run([]string{"help", k.name}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("help %s: exit %d", k.name, code)
		}
		if want := "Example:\n  ttftrace " + k.name; !strings.Contains(stdout.String(), want) {
			t.Errorf("help %s lacks %q:\n%s", k.name, want, stdout.String())
		}
	}
}

// TestIngestDeterministic ingests the same inputs into two datasets: every
// file (parts, manifest, rejects) must be byte-identical.
func TestIngestDeterministic(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i := range 12 {
		p := filepath.Join(dir, "in", fmt.Sprintf("h%02d.log", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		// Day 0 or 1 after 2026-11-23 (86400 s), so two date partitions.
		os.WriteFile(p, []byte(fmt.Sprintf("#t\nok %d\nok %d\nbad %d\n", i, 86400+i, i)), 0o644)
		inputs = append(inputs, p)
	}
	ingestTo := func(out string) map[string][]byte {
		c := &cli{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, formats: []ingest.Format{testFormat{}}}
		if code := c.main(append([]string{"ingest", "-q", "-o", out}, inputs...)); code != 0 {
			t.Fatalf("exit %d", code)
		}
		files := map[string][]byte{}
		filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(out, p)
				files[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return files
	}
	a, b := ingestTo(filepath.Join(dir, "a")), ingestTo(filepath.Join(dir, "b"))
	// Two date partitions, the lock, the commit and its rejects.
	if len(a) != 5 {
		names := slices.Sorted(maps.Keys(a))
		t.Errorf("%d files written, want 5: %q", len(a), names)
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two identical runs", name)
		}
	}
}
