package fleet

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteWeekParts: the parts of a week, written one after the other
// from the state each leaves, hold together exactly the whole week's
// records (gateway and TGI lines, OTLP spans), each once, each part's logs
// in their host's order; a part written from the week's start without a
// state is byte-identical to the one resumed from its state.
func TestWriteWeekParts(t *testing.T) {
	dir := t.TempDir()
	cfg, files := writeDay(t, filepath.Join(dir, "whole"))
	const parts = 3
	union := map[string][]string{}
	for p := 1; p <= parts; p++ {
		pc := cfg
		pc.Part, pc.Parts, pc.State = p, parts, filepath.Join(dir, "state.json")
		pf, err := WriteWeek(filepath.Join(dir, fmt.Sprint("part", p)), pc)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pf, files) {
			t.Fatalf("part %d writes %v, the week %v", p, pf, files)
		}
		n := 0
		for _, f := range pf {
			lines := readLines(t, filepath.Join(dir, fmt.Sprint("part", p), f.Name))
			checkLogOrder(t, f, lines)
			recs := weekRecords(t, f, lines)
			union[f.Name], n = append(union[f.Name], recs...), n+len(recs)
		}
		// The daily rhythm puts 14.7% of the day's requests in its first
		// third (∫ dailyRate over 00:00–08:00), 441 of 3,000, with 2 records
		// each (a gateway's, an engine's); the other parts hold more.
		if n < 600 {
			t.Errorf("part %d: %d records", p, n)
		}
	}
	for _, f := range files {
		want := weekRecords(t, f, readLines(t, filepath.Join(dir, "whole", f.Name)))
		got := union[f.Name]
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the parts hold %d records, the week %d, not the same", f.Name, len(got), len(want))
		}
	}
	cold := cfg
	cold.Part, cold.Parts = 2, parts
	if _, err := WriteWeek(filepath.Join(dir, "cold2"), cold); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		a, _ := os.ReadFile(filepath.Join(dir, "cold2", f.Name))
		b, _ := os.ReadFile(filepath.Join(dir, "part2", f.Name))
		if string(a) != string(b) {
			t.Errorf("%s: part 2 from the week's start differs from part 2 resumed", f.Name)
		}
	}
}

// weekRecords returns the records of one log: its lines, or for OTLP the
// spans of its lines.
func weekRecords(t *testing.T, f File, lines []string) []string {
	t.Helper()
	if f.Format != "otlp" {
		return lines
	}
	var out []string
	for _, l := range lines {
		var doc struct {
			ResourceSpans []struct {
				ScopeSpans []struct {
					Spans []json.RawMessage
				}
			}
		}
		if err := json.Unmarshal([]byte(l), &doc); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, s := range doc.ResourceSpans[0].ScopeSpans[0].Spans {
			out = append(out, string(s))
		}
	}
	return out
}

// TestWriteWeekPartState: a state is used only for its week and part.
func TestWriteWeekPartState(t *testing.T) {
	dir := t.TempDir()
	cfg := DefaultWeek(500)
	cfg.Days, cfg.Part, cfg.Parts, cfg.State = 1, 1, 4, filepath.Join(dir, "state.json")
	if _, err := WriteWeek(dir, cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Part = 3
	if _, err := WriteWeek(dir, cfg); err == nil || !strings.Contains(err.Error(), "part 2's start, not part 3's") {
		t.Errorf("part 3 from part 2's state: %v", err)
	}
	cfg.Part, cfg.Seed = 2, 9
	if _, err := WriteWeek(dir, cfg); err == nil || !strings.Contains(err.Error(), "another week") {
		t.Errorf("another seed: %v", err)
	}
	cfg.Part = 5
	if _, err := WriteWeek(dir, cfg); err == nil || !strings.Contains(err.Error(), "part 5 of 4") {
		t.Errorf("part 5 of 4: %v", err)
	}
}

// TestWriteWeekMemory: the lines waiting to be written are those of the
// requests in flight, so a week four times as long at the same rate holds
// about as many at once (not four times as many), and a part no more than
// the whole week.
func TestWriteWeekMemory(t *testing.T) {
	day := DefaultWeek(30000)
	day.Days = 1
	_, peakDay, err := writeWeek(t.TempDir(), day)
	if err != nil {
		t.Fatal(err)
	}
	four := DefaultWeek(4 * day.Requests)
	four.Days = 4
	_, peakFour, err := writeWeek(t.TempDir(), four)
	if err != nil {
		t.Fatal(err)
	}
	if peakDay < 3 || peakFour >= 2*peakDay {
		t.Errorf("at most %d lines waiting in a day, %d in four days", peakDay, peakFour)
	}
	four.Parts, four.State = 4, filepath.Join(t.TempDir(), "state.json")
	for four.Part = 1; four.Part <= four.Parts; four.Part++ {
		_, peak, err := writeWeek(t.TempDir(), four)
		if err != nil {
			t.Fatal(err)
		}
		if peak > peakFour {
			t.Errorf("part %d: %d lines waiting, the whole week %d", four.Part, peak, peakFour)
		}
	}
}
