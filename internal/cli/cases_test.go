package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
)

// cliCase is one run of the command, read from testdata/cases.json (the
// model is gojq's cli/test.yaml): the files it needs, the commands run
// before it, its arguments and standard input, and what it must give. In
// every string "$D" stands for the case's temporary folder, "$S" for the
// samples/ folder of the repository and "$GO" for runtime.Version().
type cliCase struct {
	Name string `json:"name"`
	// Why says where the expected behaviour is specified (SPEC, README,
	// issue) or how a figure was counted by hand.
	Why string `json:"why,omitempty"`
	// Formats "testlines" runs with testFormat as the only input format;
	// empty runs with the real table.
	Formats string `json:"formats,omitempty"`
	// Files are written under $D before the run: the text itself, or a
	// sample (see caseBody).
	Files map[string]string `json:"files,omitempty"`
	// Pre are commands that must succeed before the run, or
	// ["append", FILE, TEXT] to grow a log.
	Pre      [][]string `json:"pre,omitempty"`
	Args     []string   `json:"args"`
	Stdin    string     `json:"stdin,omitempty"`
	Terminal bool       `json:"terminal,omitempty"` // standard input is a terminal
	Chdir    bool       `json:"chdir,omitempty"`    // run in $D
	Exit     int        `json:"exit"`
	// Stdout and Stderr are substrings each stream must hold; StdoutIs is
	// the whole of standard output.
	Stdout    []string `json:"stdout,omitempty"`
	StdoutIs  *string  `json:"stdout_is,omitempty"`
	Stderr    []string `json:"stderr,omitempty"`
	NotStderr []string `json:"not_stderr,omitempty"`
	// Hosts maps an input path to the HOST its row of the ingest summary
	// must show.
	Hosts map[string]string `json:"hosts,omitempty"`
	// Events is the number of events the dataset $D/out must hold; NoOut
	// says $D/out must not exist (nothing written).
	Events *int `json:"events,omitempty"`
	NoOut  bool `json:"no_out,omitempty"`
	// Wrote maps a file the run must have written to substrings it holds.
	Wrote map[string][]string `json:"wrote,omitempty"`
}

// TestCases runs every case of testdata/cases.json through the command in
// memory.
func TestCases(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var cases []cliCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("testdata/cases.json: %v", err)
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.Name] || tc.Name == "" {
			t.Fatalf("case name %q empty or repeated", tc.Name)
		}
		seen[tc.Name] = true
		t.Run(tc.Name, func(t *testing.T) { runCase(t, tc) })
	}
}

func runCase(t *testing.T, tc cliCase) {
	dir := t.TempDir()
	root, err := filepath.Abs("../../samples")
	if err != nil {
		t.Fatal(err)
	}
	sub := strings.NewReplacer("$D", dir, "$S", root, "$GO", runtime.Version()).Replace
	for name, body := range tc.Files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, caseBody(t, body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if tc.Chdir {
		t.Chdir(dir)
	}
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(tc.Stdin), stdout: &stdout, stderr: &stderr, terminal: func() bool { return tc.Terminal }}
	if tc.Formats == "testlines" {
		c.formats = []ingest.Format{testFormat{}}
	}
	for _, p := range tc.Pre {
		runPre(t, c, subAll(sub, p), &stderr)
	}
	stdout.Reset()
	stderr.Reset()
	if code := c.main(subAll(sub, tc.Args)); code != tc.Exit {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.Exit, stdout.String(), stderr.String())
	}
	checkStreams(t, tc, sub, stdout.String(), stderr.String())
	checkOutputs(t, tc, sub, dir)
}

// runPre runs a command that must succeed, or appends to a file.
func runPre(t *testing.T, c *cli, p []string, stderr *bytes.Buffer) {
	if p[0] == "append" { // append TEXT to FILE, a log growing
		f, err := os.OpenFile(p[1], os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString(p[2])
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if code := c.main(p); code != 0 {
		t.Fatalf("%v: exit %d\n%s", p, code, stderr.String())
	}
}

func subAll(sub func(string) string, args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = sub(a)
	}
	return out
}

func checkStreams(t *testing.T, tc cliCase, sub func(string) string, stdout, stderr string) {
	if tc.StdoutIs != nil && stdout != sub(*tc.StdoutIs) {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, sub(*tc.StdoutIs))
	}
	for _, s := range tc.Stdout {
		if !strings.Contains(stdout, sub(s)) {
			t.Errorf("stdout lacks %q:\n%s", sub(s), stdout)
		}
	}
	for _, s := range tc.Stderr {
		if !strings.Contains(stderr, sub(s)) {
			t.Errorf("stderr lacks %q:\n%s", sub(s), stderr)
		}
	}
	for _, s := range tc.NotStderr {
		if strings.Contains(stderr, sub(s)) {
			t.Errorf("stderr has %q:\n%s", sub(s), stderr)
		}
	}
	for path, host := range tc.Hosts {
		if got := summaryHost(stderr, sub(path)); got != host {
			t.Errorf("summary host of %s = %q, want %q\n%s", sub(path), got, host, stderr)
		}
	}
}

func checkOutputs(t *testing.T, tc cliCase, sub func(string) string, dir string) {
	out := filepath.Join(dir, "out")
	if _, err := os.Stat(out); tc.NoOut && err == nil {
		t.Errorf("%s was written", out)
	}
	if tc.Events != nil {
		evs, err := dataset.ReadEvents(out)
		if err != nil || len(evs) != *tc.Events {
			t.Errorf("dataset has %d events (err %v), want %d", len(evs), err, *tc.Events)
		}
	}
	for path, wants := range tc.Wrote {
		b, err := os.ReadFile(sub(path))
		if err != nil {
			t.Errorf("not written: %v", err)
			continue
		}
		for _, s := range wants {
			if !bytes.Contains(b, []byte(sub(s))) {
				t.Errorf("%s lacks %q", sub(path), sub(s))
			}
		}
	}
}

// summaryHost returns the HOST field of path's row in the ingest summary.
func summaryHost(stderr, path string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == path {
			return f[2]
		}
	}
	return ""
}
