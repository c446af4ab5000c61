package ingest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
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
	res, err := Run([]string{path}, DriverOptions{Formats: blockFormats, BlockBytes: 1024, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if len(res.staged) <= 2*3 {
		t.Errorf("%d staged parts: partitions were not closed and reopened", len(res.staged))
	}
	if _, err := res.Write(ds); err != nil {
		t.Fatal(err)
	}
	events, err := schema.ReadDataset(ds)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range events {
		p := schema.PartitionOf(&e)
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
