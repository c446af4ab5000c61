package ingest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
)

// TestStripeReopensPartitions writes requests whose days go 0, 1, 2, 0, 1,
// 2 … in runs of 50, so each stripe (at most maxOpenParts = 2 part files
// open) closes a partition and opens another part file for it later. The
// dataset must hold every request once, in its own partition.
func TestStripeReopensPartitions(t *testing.T) {
	var b strings.Builder
	b.WriteString("#blocks\n")
	for i := 1; i <= 900; i++ {
		fmt.Fprintf(&b, "ok %d day=%d\n", i, (i-1)/50%3)
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), []byte(b.String()))
	ds := filepath.Join(t.TempDir(), "ds")
	w := openWriter(t, ds)
	res, err := Run([]string{path}, DriverOptions{Formats: blockFormats, BlockBytes: 1024, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if len(res.staged) <= 2*3 {
		t.Errorf("%d staged parts: partitions were not closed and reopened", len(res.staged))
	}
	if _, err := res.Write(w); err != nil {
		t.Fatal(err)
	}
	events, err := dataset.ReadEvents(ds)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range events {
		p := dataset.PartitionOf(&e)
		day := int(e.InputLine-2) / 50 % 3
		if want := fmt.Sprintf("source=proxy/date=2026-11-%d", 23+day); p != want {
			t.Fatalf("request %s in %s, want %s", e.RequestID, p, want)
		}
		if seen[e.RequestID] || e.RequestID != fmt.Sprint(e.InputLine-1) {
			t.Fatalf("request %s (line %d) twice or on the wrong line", e.RequestID, e.InputLine)
		}
		seen[e.RequestID] = true
	}
	if len(events) != 900 {
		t.Errorf("%d events in the dataset, want 900", len(events))
	}
}

// TestStripeWriteFailure streams two inputs to a "dataset" that is a
// regular file, so no part file can be created (as on a full disk): every
// input whose events reached a writer must fail naming the path and the
// error, no part may stay staged, and the run must not panic.
func TestStripeWriteFailure(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("#blocks\n")
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "ok %d day=%d\n", i, i%2)
	}
	a := writeFile(t, filepath.Join(dir, "a.log"), []byte(b.String()))
	c := writeFile(t, filepath.Join(dir, "c.log"), []byte("#blocks\nok 9000 day=0\n"))
	ds := writeFile(t, filepath.Join(dir, "ds"), []byte("not a folder"))
	res, err := Run([]string{a, c}, DriverOptions{Formats: blockFormats, BlockBytes: 512, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range res.Inputs {
		if in.Error == nil || !strings.Contains(*in.Error, ds) || !strings.Contains(*in.Error, "not a directory") {
			t.Errorf("%s: error %v, want one naming %s and the failure", in.Path, in.Error, ds)
		}
		if in.Span != nil {
			t.Errorf("%s failed but has a span", in.Path)
		}
	}
	if len(res.staged) != 0 {
		t.Errorf("%d parts staged after the writers failed", len(res.staged))
	}
}
