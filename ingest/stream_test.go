package ingest

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
)

// TestRunStreamsToDataset streams three inputs to a dataset: a holds ids 1,
// 2 and repeats its own "ok 1"; b holds 3, repeats a's "ok 1", and 4; c is a
// copy of a, so all its events are duplicates and its part must vanish. The
// dataset must hold 1, 2, 3, 4 once each, in one part file (the small parts
// are merged), with no temporary file left.
func TestRunStreamsToDataset(t *testing.T) {
	dir := t.TempDir()
	aData := []byte("#lines\nok 1\nok 2\nok 1\n")
	a := writeFile(t, filepath.Join(dir, "in", "a.log"), aData)
	b := writeFile(t, filepath.Join(dir, "in", "b.log"), []byte("#lines\nok 3\nok 1\nok 4\n"))
	c := writeFile(t, filepath.Join(dir, "in", "c.log"), aData)
	for _, keep := range []bool{false, true} {
		ds := filepath.Join(t.TempDir(), "ds")
		w := openWriter(t, ds)
		res, err := Run([]string{a, b, c}, DriverOptions{Formats: testFormats, Workers: 2, Dataset: ds, KeepEvents: keep})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
		if res.Records != 4 || res.Inputs[0].Duplicates != 1 || res.Inputs[1].Duplicates != 1 || res.Inputs[2].Duplicates != 3 {
			t.Errorf("keep=%v: records %d, duplicates %d/%d/%d; want 4, 1/1/3", keep, res.Records,
				res.Inputs[0].Duplicates, res.Inputs[1].Duplicates, res.Inputs[2].Duplicates)
		}
		if want := map[bool]string{false: "", true: "1,2,3,4"}[keep]; ids(res.Events) != want {
			t.Errorf("keep=%v: kept events %q, want %q", keep, ids(res.Events), want)
		}
		files, err := res.Write(w)
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		events, err := dataset.ReadEvents(ds)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 1 || ids(events) != "1,2,3,4" {
			t.Errorf("keep=%v: %d files holding %q, want 1 file holding 1,2,3,4", keep, len(files), ids(events))
		}
		if tmps, _ := filepath.Glob(filepath.Join(ds, "*", "*", ".part-*")); len(tmps) > 0 {
			t.Errorf("temporary files left: %v", tmps)
		}
	}
}

// TestRunStreamDiscard checks that a result not written leaves no trace of
// its dataset: no part, no temporary file, no folder it created.
func TestRunStreamDiscard(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, filepath.Join(dir, "a.log"), []byte("#lines\nok 1\nok 2\n"))
	ds := filepath.Join(dir, "ds")
	w := openWriter(t, ds)
	res, err := Run([]string{a}, DriverOptions{Formats: testFormats, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	res.Discard()
	w.Close()
	if _, err := os.Stat(ds); !os.IsNotExist(err) {
		t.Errorf("%s still there after Discard (%v)", ds, err)
	}
	res, err = Run([]string{a}, DriverOptions{Formats: testFormats, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	other := openWriter(t, filepath.Join(dir, "elsewhere"))
	defer other.Close()
	if _, err := res.Write(other); err == nil {
		t.Errorf("Write to a folder other than the staging one succeeded")
	}
}

// openWriter opens the dataset folder dir for writing and closes it when
// the test ends.
func openWriter(t testing.TB, dir string) *dataset.Writer {
	t.Helper()
	w, err := dataset.OpenWriter(dir, dataset.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// TestAttrCacheShares checks that kept events share an equal Attrs map and
// never the format's own map, which it may reuse.
func TestAttrCacheShares(t *testing.T) {
	var c attrCache
	own := map[string]string{"region": "eu", "app": "chat"}
	a := c.keep(own)
	own["region"] = "us" // the format reuses its map
	b := c.keep(own)
	own["region"] = "eu"
	d := c.keep(own)
	if a["region"] != "eu" || b["region"] != "us" {
		t.Fatalf("kept maps changed with the format's: %v %v", a, b)
	}
	if reflect.ValueOf(a).Pointer() != reflect.ValueOf(d).Pointer() {
		t.Error("an equal map was copied again instead of shared")
	}
	if reflect.ValueOf(a).Pointer() == reflect.ValueOf(own).Pointer() {
		t.Error("the format's own map was kept")
	}
	if c.keep(nil) != nil {
		t.Error("nil attrs became a map")
	}
}

// TestAttrCacheRests checks that after attrCacheRest maps in a row matched
// none, maps are cloned without comparing except every attrCacheRest-th,
// and that a match on that turn brings sharing back at once.
func TestAttrCacheRests(t *testing.T) {
	var c attrCache
	same := func(a, b map[string]string) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }
	latest := func() map[string]string { return c.recent[(c.next+attrCacheSize-1)%attrCacheSize] }
	distinct := func() { c.keep(map[string]string{"i": strconv.Itoa(c.misses)}) }
	for range attrCacheRest + 1 {
		distinct()
	}
	if m := latest(); same(c.keep(maps.Clone(m)), m) {
		t.Errorf("compared while resting (misses %d)", c.misses)
	}
	for c.misses%attrCacheRest != 0 {
		distinct()
	}
	if m := latest(); !same(c.keep(maps.Clone(m)), m) || c.misses != 0 {
		t.Errorf("the turn's comparison did not share an equal map (misses %d)", c.misses)
	}
	if m := latest(); !same(c.keep(maps.Clone(m)), m) {
		t.Error("not comparing again after a match")
	}
}
