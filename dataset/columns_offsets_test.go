package dataset

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ttftrace/ttftrace/schema"
)

// TestColumnsOffsets keeps rows of chunk offsets of every shape — none, one,
// steady gaps, gaps at and past 2³² ns, steps back, extreme values — read
// from events and from a Parquet file of several pages, and gives each row
// back as it was: its offsets, count, first, last and every gap.
func TestColumnsOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := []func() []int64{
		func() []int64 { return nil },
		func() []int64 { return []int64{rng.Int64N(1e10)} },
		func() []int64 { // a stream: gaps of 0–80 ms after a first offset up to 30 s
			off := []int64{rng.Int64N(3e10)}
			for range rng.IntN(400) {
				off = append(off, off[len(off)-1]+rng.Int64N(8e7))
			}
			return off
		},
		func() []int64 { return []int64{5, 5 + 1<<32 - 1, 5 + 2*(1<<32-1)} }, // the largest packed gap
		func() []int64 { return []int64{5, 5 + 1<<32} },                      // one past it
		func() []int64 { return []int64{100, 50, 200} },                      // a step back
		func() []int64 { return []int64{-1 << 62, 1 << 62} },                 // a gap past int64
		func() []int64 { return []int64{-3e9, -2e9, 0} },                     // negative offsets, packable
	}
	var evs []schema.Event
	var want [][]int64
	for i := range 3000 {
		off := shapes[rng.IntN(len(shapes))]()
		evs = append(evs, schema.Event{Source: "client", Clock: "wall", Host: "h", InputFile: "in",
			InputLine: int64(i), StartNs: p(int64(i)), ChunkOffsetsNs: off})
		want = append(want, off)
	}
	direct, err := ColumnsOf(evs, ColumnsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.parquet")
	if err := parquet.WriteFile(path, evs, parquet.KeyValueMetadata(schema.MetadataVersionKey, fmt.Sprint(schema.Version)),
		parquet.PageBufferSize(4096)); err != nil {
		t.Fatal(err)
	}
	read, err := ReadColumns([]string{path}, ColumnsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Columns{"events": direct, "parquet": read} {
		if len(c.ChunkOffsetsNs.first) == 0 || len(c.ChunkOffsetsNs.wide.Values) == 0 {
			t.Fatalf("%s: %d packed rows, %d offsets kept whole: want both", name, len(c.ChunkOffsetsNs.first), len(c.ChunkOffsetsNs.wide.Values))
		}
		for i, w := range want {
			o := c.ChunkOffsetsNs.At(i)
			if got := o.Append(nil); !slices.Equal(got, w) || o.Len() != len(w) || c.ChunkOffsetsNs.Len(i) != len(w) {
				t.Fatalf("%s row %d: %v (len %d, %d), want %v", name, i, got, o.Len(), c.ChunkOffsetsNs.Len(i), w)
			}
			if len(w) == 0 {
				continue
			}
			if o.First != w[0] || o.Last != w[len(w)-1] {
				t.Fatalf("%s row %d: first %d last %d, want %d %d", name, i, o.First, o.Last, w[0], w[len(w)-1])
			}
			for j := 1; j < len(w); j++ {
				if o.Gap(j) != w[j]-w[j-1] {
					t.Fatalf("%s row %d: gap %d = %d, want %d", name, i, j, o.Gap(j), w[j]-w[j-1])
				}
			}
		}
	}
}
