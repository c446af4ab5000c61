package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParsePart(t *testing.T) {
	for s, want := range map[string][2]int{"": {0, 0}, "1/1": {1, 1}, "2/3": {2, 3}, "12/12": {12, 12}} {
		i, k, err := parsePart(s)
		if err != nil || [2]int{i, k} != want {
			t.Errorf("%q: %d/%d, %v; want %v", s, i, k, err, want)
		}
	}
	for _, s := range []string{"0/3", "4/3", "x/3", "3", "1/0", "1/", "/2", "-1/2", "1/2/3"} {
		if _, _, err := parsePart(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestRunParts: two parts written one after the other through the flags,
// the first leaving the state the second resumes from.
func TestRunParts(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "week.state")
	for _, part := range []string{"1/2", "2/2"} {
		var stderr strings.Builder
		args := []string{"-week", "-days", "1", "-n", "200", "-part", part, "-state", state, "-o", filepath.Join(dir, part[:1])}
		if code := run(args, io.Discard, &stderr); code != 0 {
			t.Fatalf("-part %s: exit %d: %s", part, code, stderr.String())
		}
		if _, err := os.Stat(state); err != nil {
			t.Fatalf("-part %s: %v", part, err)
		}
	}
	var stderr strings.Builder
	if code := run([]string{"-part", "1/2", "-o", dir}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-week") {
		t.Errorf("-part without -week: exit %d: %s", code, stderr.String())
	}
}
