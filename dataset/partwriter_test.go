package dataset

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/ttftrace/ttftrace/schema"
)

// TestPartWriterPartitions streams events whose days alternate across the
// midnight of 2026-11-24 (the cache of the last partition must not keep an
// event on the wrong day) and checks each partition holds its events in order.
func TestPartWriterPartitions(t *testing.T) {
	dir := t.TempDir()
	starts := []int64{nov24 - 1, nov24, nov23, nov24 + 5, nov24 - 2}
	pw := NewPartWriter(dir)
	for i, s := range starts {
		ev := schema.Event{Source: schema.SourceProxy, Clock: schema.ClockWall, StartNs: i64(s), InputLine: int64(i + 1)}
		if _, err := pw.Write(&ev); err != nil {
			t.Fatal(err)
		}
	}
	steady := schema.Event{Source: schema.SourceProxy, Clock: schema.ClockSteady, StartNs: i64(nov23), InputLine: 6}
	if _, err := pw.Write(&steady); err != nil {
		t.Fatal(err)
	}
	parts, err := pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	// Lines 1, 3, 5 start on 2026-11-23 (nov24-1, nov23, nov24-2), lines 2
	// and 4 on 2026-11-24, line 6 has a steady clock: date unknown.
	want := map[string][]int64{
		"source=proxy/date=2026-11-23": {1, 3, 5},
		"source=proxy/date=2026-11-24": {2, 4},
		"source=proxy/date=unknown":    {6},
	}
	if len(parts) != len(want) {
		t.Fatalf("%d parts, want %d: %+v", len(parts), len(want), parts)
	}
	for _, p := range parts {
		events, err := readFile(p.Temp, nil)
		if err != nil {
			t.Fatal(err)
		}
		var lines []int64
		for _, e := range events {
			lines = append(lines, e.InputLine)
		}
		if !equalInts(lines, want[p.Partition]) || p.Rows != len(lines) {
			t.Errorf("%s: lines %v (rows %d), want %v", p.Partition, lines, p.Rows, want[p.Partition])
		}
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPartWriterRowGroupsByBytes writes 100 events of 100,000 chunks each:
// about 800 kB of offsets per event (eventBytes: 256 + 8×100,000 = 800,256),
// so a row group ends every ceil(16 MiB / 800,256 B) = 21 events and the
// file holds ceil(100/21) = 5 row groups, though 100 rows are far below
// RowsPerRowGroup.
func TestPartWriterRowGroupsByBytes(t *testing.T) {
	dir := t.TempDir()
	pw := NewPartWriter(dir)
	chunks := make([]int64, 100_000)
	for i := 0; i < 100; i++ {
		for j := range chunks {
			chunks[j] = int64(i + j)
		}
		ev := schema.Event{Source: schema.SourceClient, Clock: schema.ClockWall, StartNs: i64(nov23), ChunkOffsetsNs: chunks}
		if _, err := pw.Write(&ev); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(parts[0].Temp)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pf.RowGroups()); n != 5 {
		t.Errorf("%d row groups, want 5", n)
	}
	events, err := readFile(parts[0].Temp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 100 || events[99].ChunkOffsetsNs[5] != 99+5 {
		t.Errorf("read back %d events, last chunk[5] wrong", len(events))
	}
}

// TestCompactParts stages, in one partition, a part larger than
// SmallPartBytes (incompressible chunk offsets) between two small ones, and
// one small part alone in another partition. Only the two small parts of the
// first partition merge, into the place of the first of them.
func TestCompactParts(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(dir, WriterOptions{}) // staging happens under the lock
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	stage := func(events ...schema.Event) StagedPart {
		pw := NewPartWriter(dir)
		for i := range events {
			if _, err := pw.Write(&events[i]); err != nil {
				t.Fatal(err)
			}
		}
		parts, err := pw.Close()
		if err != nil || len(parts) != 1 {
			t.Fatalf("%v, %d parts", err, len(parts))
		}
		return parts[0]
	}
	client := func(line int64) schema.Event {
		return schema.Event{Source: schema.SourceClient, Clock: schema.ClockWall, StartNs: i64(nov23), InputLine: line}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	big := client(2)
	for range SmallPartBytes / 8 * 3 / 2 { // 1.5 × SmallPartBytes of random int64s
		big.ChunkOffsetsNs = append(big.ChunkOffsetsNs, rng.Int64())
	}
	parts := []StagedPart{
		stage(client(1)),
		stage(big),
		stage(client(3), client(4)),
		stage(schema.Event{Source: schema.SourceServer, Clock: schema.ClockSteady, InputLine: 5}),
	}
	got, err := CompactParts(dir, parts)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := [][]int64{{1, 3, 4}, {2}, {5}}
	if len(got) != len(wantLines) {
		t.Fatalf("%d parts after compaction, want %d: %+v", len(got), len(wantLines), got)
	}
	for i, p := range got {
		events, err := readFile(p.Temp, nil)
		if err != nil {
			t.Fatal(err)
		}
		var lines []int64
		for _, e := range events {
			lines = append(lines, e.InputLine)
		}
		if !equalInts(lines, wantLines[i]) {
			t.Errorf("part %d (%s): lines %v, want %v", i, p.Partition, lines, wantLines[i])
		}
	}
	for _, old := range []StagedPart{parts[0], parts[2]} {
		if _, err := os.Stat(old.Temp); !os.IsNotExist(err) {
			t.Errorf("merged part %s still there", old.Temp)
		}
	}
	paths, err := w.Commit(got, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"source=client/date=2026-11-23/part-00000.parquet", "source=client/date=2026-11-23/part-00001.parquet", "source=server/date=unknown/part-00000.parquet"}
	for i, p := range paths {
		if rel, _ := filepath.Rel(dir, p); rel != filepath.FromSlash(want[i]) {
			t.Errorf("committed %s, want %s", rel, want[i])
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*", "*", ".part-*")); len(tmps) > 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// TestPartWriterAttrsAfterNone writes events without attributes followed by
// events with them into one part (as compacting a HAR part after a client
// part does) and reads every attribute back: the batch's attribute slots
// must cover the rows before that had none.
func TestPartWriterAttrsAfterNone(t *testing.T) {
	pw := NewPartWriter(t.TempDir())
	attrs := []map[string]string{nil, nil, {"region": "eu"}, nil, {"region": "us", "app": "x"}}
	for i, a := range attrs {
		ev := schema.Event{Source: schema.SourceClient, Clock: schema.ClockWall, StartNs: i64(nov23), InputLine: int64(i + 1), Attrs: a}
		if _, err := pw.Write(&ev); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := pw.Close()
	if err != nil || len(parts) != 1 {
		t.Fatalf("parts %+v, %v; want 1", parts, err)
	}
	events, err := readFile(parts[0].Temp, nil)
	if err != nil || len(events) != len(attrs) {
		t.Fatalf("%d events, %v; want %d", len(events), err, len(attrs))
	}
	for i, e := range events {
		if len(e.Attrs) != len(attrs[i]) || e.Attrs["region"] != attrs[i]["region"] || e.Attrs["app"] != attrs[i]["app"] {
			t.Errorf("event %d: attrs %v, want %v", i+1, e.Attrs, attrs[i])
		}
	}
}

// TestWriteEventsSameFiles writes 30,000 random events of three partitions
// (sources) once through Write, one by one, and once through WriteEvents in
// runs of 1 to 3,000 events: the part files must be identical byte for
// byte, though WriteEvents hands most rows to parquet-go without copying
// them. Lists of up to 300 entries end row groups by bytes inside runs.
func TestWriteEventsSameFiles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	evs := make([]schema.Event, 30_000)
	for i := range evs {
		evs[i] = randomEvent(r)
	}
	files := func(write func(pw *PartWriter) error) [][]byte {
		pw := NewPartWriter(t.TempDir())
		if err := write(pw); err != nil {
			t.Fatal(err)
		}
		parts, err := pw.Close()
		if err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, p := range parts {
			b, err := os.ReadFile(p.Temp)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	one := files(func(pw *PartWriter) error {
		for i := range evs {
			if _, err := pw.Write(&evs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	runs := files(func(pw *PartWriter) error {
		for rest := evs; len(rest) > 0; {
			n := min(len(rest), 1+r.IntN(3000))
			if err := pw.WriteEvents(rest[:n]); err != nil {
				return err
			}
			rest = rest[n:]
		}
		return nil
	})
	if len(one) != 3 || len(runs) != len(one) {
		t.Fatalf("%d and %d parts, want 3", len(one), len(runs))
	}
	for i := range one {
		if !bytes.Equal(one[i], runs[i]) {
			t.Errorf("part %d differs: %d bytes one by one, %d by runs", i, len(one[i]), len(runs[i]))
		}
	}
}

// TestPartCodecSameBytes checks that the part files' codec compresses
// pages to the bytes parquet-go's own zstd codec at the same level gives,
// from several goroutines at once (its encoders are shared), and that
// they decompress to the page.
func TestPartCodecSameBytes(t *testing.T) {
	ref := &zstd.Codec{Level: zstd.SpeedFastest}
	pages := make([][]byte, 12)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range pages {
		for range 1000 * (i + 1) { // compressible: repeated words with random counts
			pages[i] = fmt.Appendf(pages[i], "span-%d llm_request %d;", r.IntN(50), r.IntN(1e6))
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i, p := range pages {
				got, err := partCodec.Encode(nil, p)
				want, _ := ref.Encode(nil, p)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("goroutine %d, page %d: %d bytes (%v), parquet-go's codec %d", g, i, len(got), err, len(want))
					return
				}
				if back, err := ref.Decode(nil, got); err != nil || !bytes.Equal(back, p) {
					t.Errorf("goroutine %d, page %d: decodes to %d bytes (%v), want %d", g, i, len(back), err, len(p))
				}
			}
		})
	}
	wg.Wait()
}
