package dataset

import (
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// readBack reads every event of the part file at path with parquet-go's
// generic reader (reflection over schema.Event's tags), a route
// independent of the dataset's own column decoder (readFile).
func readBack(t *testing.T, path string) []schema.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[schema.Event](f)
	defer r.Close()
	events := make([]schema.Event, r.NumRows())
	if n, err := r.Read(events); n != len(events) {
		t.Fatalf("%s: read %d of %d rows: %v", path, n, len(events), err)
	}
	return events
}

// normalized returns ev as it reads back: the empty lists and maps it
// was written with read as nil.
func normalized(ev schema.Event) schema.Event {
	if len(ev.OtherIDs) == 0 {
		ev.OtherIDs = nil
	}
	if len(ev.ChunkOffsetsNs) == 0 {
		ev.ChunkOffsetsNs = nil
	}
	if len(ev.ChunkTokens) == 0 {
		ev.ChunkTokens = nil
	}
	if len(ev.Attrs) == 0 {
		ev.Attrs = nil
	}
	return ev
}

// TestPartWriterReadsBack writes 70,000 random events into one partition
// (more than RowsPerRowGroup rows; every 16th event keeps its lists of up
// to 300 entries and attribute maps are not cut, so row groups end by
// bytes; every column is null, empty and set) and reads them back with parquet-go's generic reader:
// every event equals the one written, in order.
func TestPartWriterReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var want []schema.Event
	pw := NewPartWriter(t.TempDir())
	for i := range 70_000 {
		ev := randomEvent(r)
		ev.Source, ev.Clock = schema.SourceProxy, schema.ClockSteady
		if i%16 != 0 {
			ev.OtherIDs, ev.ChunkOffsetsNs = ev.OtherIDs[:min(len(ev.OtherIDs), 3)], ev.ChunkOffsetsNs[:min(len(ev.ChunkOffsetsNs), 3)]
			ev.ChunkTokens = ev.ChunkTokens[:min(len(ev.ChunkTokens), 3)]
		}
		if _, err := pw.Write(&ev); err != nil {
			t.Fatal(err)
		}
		want = append(want, normalized(ev))
	}
	parts, err := pw.Close()
	if err != nil || len(parts) != 1 {
		t.Fatalf("%d parts, %v; want 1", len(parts), err)
	}
	got := readBack(t, parts[0].Temp)
	if len(got) != len(want) || parts[0].Rows != len(got) {
		t.Fatalf("%d rows read, %d staged, want %d", len(got), parts[0].Rows, len(want))
	}
	for i := range got {
		if g := normalized(got[i]); !reflect.DeepEqual(g, want[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, g, want[i])
		}
	}
}
