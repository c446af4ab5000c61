package dataset

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// BenchmarkReadFile reads a file of 5000 random events (lists of up to 300
// chunks) by columns, as ReadEvents does, and by parquet-go's row reader.
func BenchmarkReadFile(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	evs := make([]schema.Event, 5000)
	for i := range evs {
		evs[i] = randomEvent(r)
	}
	path := filepath.Join(b.TempDir(), "events.parquet")
	writeEvents(b, path, evs, 2000)
	b.Run("columns", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readFile(path, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readRowsRecovered(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// readRowsRecovered reads path with the row reader alone.
func readRowsRecovered(path string) ([]schema.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return nil, err
	}
	return readRows(pf, path, nil)
}
