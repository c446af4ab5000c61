package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/samples"
)

// TestFormatSamples ingests each folder of samples/formats as the demo does
// (its flags, its inputs) and checks every input was read as the format the
// folder names, gave events, and that every format of the table has a
// folder and every folder a format.
func TestFormatSamples(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, samples.Formats()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	for _, f := range ingest.Formats() {
		if !slices.Contains(folders, f.Name()) {
			t.Errorf("no samples/formats/%s/", f.Name())
		}
	}
	for _, name := range folders {
		t.Run(name, func(t *testing.T) { checkSample(t, filepath.Join(dir, name), name) })
	}
}

func checkSample(t *testing.T, dir, format string) {
	if _, ok := ingest.Lookup(format); !ok {
		t.Fatalf("samples/formats/%s: no format of that name", format)
	}
	args, err := sampleArgs(dir)
	if err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(t.TempDir(), "ds")
	var stderr bytes.Buffer
	c := &cli{stdout: &stderr, stderr: &stderr}
	if code := c.main(append([]string{"ingest", "-q", "-o", ds}, args...)); code != exitOK {
		t.Fatalf("ingest %q: exit %d\n%s", args, code, stderr.String())
	}
	snap, err := dataset.Open(ds)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range snap.Inputs {
		if in.Format != format || in.Records == 0 {
			t.Errorf("%s: read as %s, %d events; want %s with events", in.Path, in.Format, in.Records, format)
		}
	}
}

// TestSampleArgs checks a sample folder's flags file becomes flags whose
// @FILE values name the folder's files, and that every other file but
// README.md is an input.
func TestSampleArgs(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"flags":     "--format jsonl\n--map @m.json\n--log-format nginx=@n.fmt\n",
		"m.json":    "{}",
		"n.fmt":     "$msec",
		"a.log":     "x",
		"b.log":     "y",
		"README.md": "about",
	} {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	got, err := sampleArgs(dir)
	want := []string{"--format", "jsonl", "--map", "@" + filepath.Join(dir, "m.json"), "--log-format", "nginx=@" + filepath.Join(dir, "n.fmt"),
		filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("sampleArgs = %q, %v; want %q", got, err, want)
	}
	if _, err := sampleArgs(t.TempDir()); err == nil {
		t.Error("an empty folder gave no error")
	}
}
