package ingest

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
)

// TestDupWindowModel checks dupWindow against a plain list of the last
// capacity sums remembered, on keys crowded onto few table slots (so probe
// runs are long and deletion moves entries) with capacities from 1 to 40.
func TestDupWindowModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for capacity := 1; capacity <= 40; capacity++ {
		w := newDupWindow(capacity)
		var model []rawSum
		for i := range 5000 {
			sum := rawSum{uint64(r.IntN(4)) << (r.IntN(2) * 7), uint64(r.IntN(60))}
			want := slices.Contains(model, sum)
			if !want {
				model = append(model, sum)
				if len(model) > capacity {
					model = model[1:]
				}
			}
			if got := w.seen(sum); got != want {
				t.Fatalf("capacity %d, step %d: seen(%v) = %v, want %v", capacity, i, sum, got, want)
			}
		}
	}
}

// TestRunDuplicateWindow checks which repeats are duplicates with a window
// of 100 records, over blocks of 64 bytes (so repeats cross blocks) and 1
// to 3 workers. Lines 2..1001 are requests 1..1000; then, by hand:
//
//	ok 990  repeats a record 10 back: a duplicate
//	ok 850  150 back, out of the window (901..1000): kept, remembered
//	ok 850  a duplicate of the one just kept
//	ok 901  901 left the window when 850 came in: kept
//
// so 1002 records and 2 duplicates.
func TestRunDuplicateWindow(t *testing.T) {
	var b strings.Builder
	b.WriteString("#blocks\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "ok %d\n", i)
	}
	b.WriteString("ok 990\nok 850\nok 850\nok 901\n")
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), []byte(b.String()))
	for _, w := range []int{1, 2, 3} {
		res, err := Run([]string{path}, DriverOptions{Formats: blockFormats, BlockBytes: 64, Workers: w, DupWindow: 100})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
		in := res.Inputs[0]
		if in.Read != 1005 || in.Records != 1002 || in.Duplicates != 2 || in.Skipped != 1 {
			t.Errorf("workers %d: %+v", w, in)
		}
		tail := res.Events[len(res.Events)-2:]
		if tail[0].RequestID != "850" || tail[0].InputLine != 1003 || tail[1].RequestID != "901" || tail[1].InputLine != 1005 {
			t.Errorf("workers %d: last events %+v", w, tail)
		}
	}
}

// TestRunDuplicatesAcrossInputsAndPartitions streams two inputs to a
// dataset. a holds requests 1..600 on day 0 and 601..1200 on day 1; b
// repeats a's lines of requests 1195..1200 (day 1), then holds 1..3 on day
// 2 (other bytes than a's day-0 lines: not duplicates) and repeats its own
// last line. Decoded in 256-byte blocks on 1, 2 and 3 workers, the datasets
// must hold the same events per partition and be byte for byte the same.
func TestRunDuplicatesAcrossInputsAndPartitions(t *testing.T) {
	dir := t.TempDir()
	var a strings.Builder
	a.WriteString("#blocks\n")
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&a, "ok %d day=%d\n", i, (i-1)/600)
	}
	bData := "#blocks\n"
	for i := 1195; i <= 1200; i++ {
		bData += fmt.Sprintf("ok %d day=1\n", i)
	}
	bData += "ok 1 day=2\nok 2 day=2\nok 3 day=2\nok 3 day=2\n"
	pa := writeFile(t, filepath.Join(dir, "in", "a.log"), []byte(a.String()))
	pb := writeFile(t, filepath.Join(dir, "in", "b.log"), []byte(bData))
	var first map[string][]byte
	for _, w := range []int{1, 2, 3} {
		ds := filepath.Join(dir, fmt.Sprintf("ds%d", w))
		dw := openWriter(t, ds)
		res, err := Run([]string{pa, pb}, DriverOptions{Formats: blockFormats, BlockBytes: 256, Workers: w, Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
		ia, ib := res.Inputs[0], res.Inputs[1]
		if ia.Records != 1200 || ia.Duplicates != 0 || ib.Records != 3 || ib.Duplicates != 7 {
			t.Fatalf("workers %d: a %+v\nb %+v", w, ia, ib)
		}
		if _, err := res.Write(dw); err != nil {
			t.Fatal(err)
		}
		events, err := dataset.ReadEvents(ds)
		if err != nil {
			t.Fatal(err)
		}
		byDay := map[string]int{}
		for _, e := range events {
			byDay[dataset.PartitionOf(&e)]++
		}
		if len(events) != 1203 || len(byDay) != 3 || byDay["source=proxy/date=2026-11-25"] != 3 {
			t.Errorf("workers %d: %d events, by partition %v", w, len(events), byDay)
		}
		files := parquetFiles(t, ds)
		if first == nil {
			first = files
		} else if !equalFiles(first, files) {
			t.Errorf("workers %d: the dataset's Parquet files differ from 1 worker's", w)
		}
	}
}

// parquetFiles reads every Parquet file under dir, by path below dir.
func parquetFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			b, rerr := os.ReadFile(p)
			if rerr != nil {
				t.Fatal(rerr)
			}
			rel, _ := filepath.Rel(dir, p)
			files[rel] = b
		}
		return err
	})
	if len(files) == 0 {
		t.Fatalf("no Parquet file under %s", dir)
	}
	return files
}

func equalFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// BenchmarkDupWindow measures the window at DupWindow, full, on random
// sums (each a new record, as nearly all of a log's are).
func BenchmarkDupWindow(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	w := newDupWindow(DupWindow)
	for range 2 * DupWindow {
		w.seen(rawSum{r.Uint64(), r.Uint64()})
	}
	b.ResetTimer()
	for b.Loop() {
		if w.seen(rawSum{r.Uint64(), r.Uint64()}) {
			b.Fatal("a random sum seen")
		}
	}
}
