package ingest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

func TestWriteSummary(t *testing.T) {
	msg := "unknown format"
	var buf bytes.Buffer
	WriteSummary(&buf, []schema.InputStats{
		{Path: "a.log", Format: "nginx", Host: "edge-1", Read: 10, Records: 6, Duplicates: 1, Skipped: 2, Rejected: 1},
		{Path: "b.log.gz", Format: "nginx", Host: "edge-2", Read: 5, Records: 5, Truncated: true},
		{Path: "c.txt", Host: "c", Error: &msg},
	}, map[string][]string{"b.log.gz": {"gpu-01", "gpu-02"}}) // b's records name their hosts
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// Totals by hand: read 10+5+0 = 15, records 6+5 = 11, dup 1, skipped 2, rejected 1.
	want := [][]string{
		{"PATH", "FORMAT", "HOST", "READ", "RECORDS", "DUP", "SKIPPED", "REJECTED", "TRUNCATED"},
		{"a.log", "nginx", "edge-1", "10", "6", "1", "2", "1"},
		{"b.log.gz", "nginx", "gpu-01,gpu-02", "5", "5", "0", "0", "0", "yes"},
		{"c.txt", "c", "0", "0", "0", "0", "0"},
		{"total", "(3", "inputs)", "15", "11", "1", "2", "1"},
		{"c.txt:", "unknown", "format"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("line %d = %q, want fields %q", i, lines[i], w)
		}
	}
}

// TestRecordHosts lists each input's hosts once, sorted.
func TestRecordHosts(t *testing.T) {
	evs := []schema.Event{{InputFile: "t.jsonl", Host: "gpu-02"}, {InputFile: "t.jsonl", Host: "gpu-01"},
		{InputFile: "t.jsonl", Host: "gpu-02"}, {InputFile: "a.log", Host: "gw-a"}}
	got := RecordHosts(evs)
	if strings.Join(got["t.jsonl"], ",") != "gpu-01,gpu-02" || strings.Join(got["a.log"], ",") != "gw-a" || len(got) != 2 {
		t.Errorf("RecordHosts = %v", got)
	}
}
