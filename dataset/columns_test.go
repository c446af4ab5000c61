package dataset

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ttftrace/ttftrace/schema"
)

func p[T any](v T) *T { return &v }

// columnsTestEvents are events with every needed column null, empty and
// set, including lists and attributes.
func columnsTestEvents(n int) []schema.Event {
	var evs []schema.Event
	for i := range n {
		e := schema.Event{Source: []string{"client", "proxy", "server"}[i%3], Format: "f" + fmt.Sprint(i%4),
			Host: "h" + fmt.Sprint(i%7), Clock: "wall", InputFile: "in", InputLine: int64(i)}
		if i%2 == 0 {
			e.Model, e.Endpoint, e.Status = "m"+fmt.Sprint(i%5), "/v1/x", p(int32(200+i%3))
			e.StartNs, e.EndNs, e.OutputTokens = p(int64(i)*1e6), p(int64(i)*1e6+5e5), p(int64(i%9))
			e.Completed = p(i%4 == 0)
			e.TraceID = fmt.Sprintf("%032x", i)
			e.RequestID = fmt.Sprintf("REQ-%d", i)
		}
		if i%3 == 1 {
			e.Error, e.FirstTokenNs, e.QueueNs, e.PrefillNs = "server_error", p(int64(i)), p(int64(-i)), p(int64(7))
			e.ChunkOffsetsNs, e.ChunkTokens = []int64{1, 2, int64(i)}, []int32{1, 2, 3}
			e.Attrs = map[string]string{"app": "a" + fmt.Sprint(i%2), "region": "r"}
			e.ResponseID, e.OtherIDs = "chatcmpl-x"+fmt.Sprint(i), []string{"o1", "REQ-1", "o1"}
		}
		if i%5 == 3 {
			e.PromptTokens, e.HeadersNs, e.LastTokenNs, e.DecodeNs = p(int64(i)), p(int64(3)), p(int64(4)), p(int64(5))
			e.ChunkOffsetsNs = []int64{int64(i)}
			if i%3 != 1 {
				e.ChunkTokens = []int32{1} // one count per chunk, all 1: kept as a bit
			}
		}
		evs = append(evs, e)
	}
	return evs
}

// columnsRow is row i of c as comparable values.
func columnsRow(c *Columns, i int) string {
	var b strings.Builder
	fmt.Fprint(&b, c.Source.At(i), c.Clock.At(i), c.Format.At(i), c.Error.At(i), c.Host.At(i), c.Model.At(i), c.Endpoint.At(i), c.InputFile.At(i))
	st, ok := c.Status.Get(i)
	fmt.Fprint(&b, st, ok)
	done, ok := c.Completed.Get(i)
	fmt.Fprint(&b, done, ok)
	for _, col := range []*ColumnsNullable[int64]{&c.PromptTokens, &c.OutputTokens, &c.StartNs, &c.HeadersNs,
		&c.FirstTokenNs, &c.LastTokenNs, &c.EndNs, &c.QueueNs, &c.PrefillNs, &c.DecodeNs} {
		v, ok := col.Get(i)
		fmt.Fprint(&b, v, ok)
	}
	fmt.Fprint(&b, c.ChunkOffsetsNs.At(i).Append(nil), c.ChunkTokensAt(i), c.AttrOf(i, "app"), c.AttrOf(i, "region"), len(c.Attrs.At(i)))
	trace, ok := c.TraceID.Get(i)
	fmt.Fprint(&b, trace, ok)
	fmt.Fprint(&b, c.IDKeys.At(i), string(c.TraceText.At(i)), string(c.RequestText.At(i)), string(c.ResponseText.At(i)))
	return b.String()
}

func TestReadColumnsMatchesEvents(t *testing.T) {
	evs := columnsTestEvents(140_000) // three row groups in the largest partition
	dir := t.TempDir()
	files, err := WriteDataset(dir, evs)
	if err != nil {
		t.Fatal(err)
	}
	read, err := ReadEvents(dir)
	if err != nil {
		t.Fatal(err)
	}
	lower := func(id string) (ColumnsID, bool) { return ColumnsIDOf(strings.ToLower(id)), id != "" }
	opts := ColumnsOptions{IDKey: lower, TextSources: []string{"client"}, Attrs: []string{"app", "region"}}
	want, err := ColumnsOf(read, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadColumns(files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows != len(evs) || want.Rows != len(evs) { // in path order: by source
		t.Fatalf("rows %d and %d, want %d", got.Rows, want.Rows, len(evs))
	}
	for i := range evs {
		if g, w := columnsRow(got, i), columnsRow(want, i); g != w {
			t.Fatalf("row %d:\n got %s\nwant %s", i, g, w)
		}
	}
	// IDKeys: "REQ-1" and "req-1" are one key; "o1" repeated counts once.
	direct, _ := ColumnsOf(evs[:2], opts)
	if keys := direct.IDKeys.At(1); len(keys) != 3 || keys[0] != ColumnsIDOf("chatcmpl-x1") ||
		keys[1] != ColumnsIDOf("o1") || keys[2] != ColumnsIDOf("req-1") {
		t.Errorf("row 1 keys %v", keys)
	}
}

// TestReadColumnsRowRoute reads a file whose layout differs (an extra
// column) through the row reader.
func TestReadColumnsRowRoute(t *testing.T) {
	type wider struct {
		schema.Event
		Extra int64 `parquet:"extra"`
	}
	evs := columnsTestEvents(50)
	path := filepath.Join(t.TempDir(), "x.parquet")
	rows := make([]wider, len(evs))
	for i := range evs {
		rows[i] = wider{Event: evs[i], Extra: 1}
	}
	if err := parquet.WriteFile(path, rows, parquet.KeyValueMetadata(schema.MetadataVersionKey, fmt.Sprint(schema.Version))); err != nil {
		t.Fatal(err)
	}
	opts := ColumnsOptions{Attrs: []string{"region"}}
	got, err := ReadColumns([]string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ColumnsOf(evs, opts)
	for i := range evs {
		if g, w := columnsRow(got, i), columnsRow(want, i); g != w {
			t.Fatalf("row %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

// TestReadColumnsFilesInOrder reads files of one row group each, a file
// read row by row and an empty file among them: the rows come in file
// order, as the events read file by file do, whatever the decoders ahead.
func TestReadColumnsFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	evs := columnsTestEvents(600)
	version := parquet.KeyValueMetadata(schema.MetadataVersionKey, fmt.Sprint(schema.Version))
	var files []string
	for k := range 6 {
		path := filepath.Join(dir, fmt.Sprintf("%d.parquet", k))
		part := evs[k*100 : (k+1)*100]
		var err error
		switch k {
		case 2: // another layout: the row route
			type wider struct {
				schema.Event
				Extra int64 `parquet:"extra"`
			}
			rows := make([]wider, len(part))
			for i := range part {
				rows[i] = wider{Event: part[i]}
			}
			err = parquet.WriteFile(path, rows, version)
		case 4: // no rows
			err = parquet.WriteFile(path, []schema.Event{}, version)
			evs = append(evs[:400], evs[500:]...)
		default:
			err = parquet.WriteFile(path, part, version)
		}
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	opts := ColumnsOptions{Attrs: []string{"app"}, TextSources: []string{"client"}}
	got, err := ReadColumns(files, opts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ColumnsOf(evs[:500], opts)
	if got.Rows != want.Rows {
		t.Fatalf("%d rows, want %d", got.Rows, want.Rows)
	}
	for i := range want.Rows {
		if g, w := columnsRow(got, i), columnsRow(want, i); g != w {
			t.Fatalf("row %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

// TestReadColumnsCorruptPage overwrites the pages of the second of three
// files (its footer intact): reading fails naming that file, and leaves no
// goroutine behind.
func TestReadColumnsCorruptPage(t *testing.T) {
	dir := t.TempDir()
	version := parquet.KeyValueMetadata(schema.MetadataVersionKey, fmt.Sprint(schema.Version))
	evs := columnsTestEvents(3000)
	var files []string
	for k := range 3 {
		path := filepath.Join(dir, fmt.Sprintf("%d.parquet", k))
		if err := parquet.WriteFile(path, evs[k*1000:(k+1)*1000], version); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	b, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	for i := 4; i < len(b)/2; i++ { // after the magic, before the footer
		b[i] = byte(i * 7)
	}
	if err := os.WriteFile(files[1], b, 0o644); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	_, err = ReadColumns(files, ColumnsOptions{})
	// The first column decoded is status (the coded columns are read
	// after it): the error names the file, the row group and the column.
	if want := files[1] + ": row group 0: column status: "; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want one with %q", err, want)
	}
	for try := 0; runtime.NumGoroutine() > before && try < 100; try++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after, %d before", n, before)
	}
}

func TestReadColumnsRefusesUnknownVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	if err := parquet.WriteFile(path, columnsTestEvents(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadColumns([]string{path}, ColumnsOptions{}); err == nil || !strings.Contains(err.Error(), "schema version none") {
		t.Errorf("err = %v", err)
	}
}

func TestColumnsNeeded(t *testing.T) {
	if len(columnsNeeded) != columnsCount {
		t.Fatalf("%d columns, columnsCount %d", len(columnsNeeded), columnsCount)
	}
	if _, ok := columnsLeaves(columnsEventSchema); !ok {
		t.Fatal("the event schema lacks a needed column")
	}
}

func TestColumnsIDOf(t *testing.T) {
	trace := "4bf92f3577b34da6a3ce929d0e0e4736"
	raw, _ := hex.DecodeString(trace)
	want := ColumnsID{binary.BigEndian.Uint64(raw[:8]), binary.BigEndian.Uint64(raw[8:])}
	if got := ColumnsIDOf(trace); got != want {
		t.Errorf("packed %x, want %x", got, want)
	}
	if ColumnsIDOf("") != (ColumnsID{}) || ColumnsIDOf("x") == (ColumnsID{}) {
		t.Error("the empty id must be, and only it, the zero ColumnsID")
	}
	if ColumnsIDOf(strings.ToUpper(trace)) == want {
		t.Error("upper-case hex is hashed, not packed")
	}
	seen := map[ColumnsID]string{}
	for i := range 200_000 {
		for _, id := range []string{fmt.Sprint(i), fmt.Sprintf("req_%07d", i), fmt.Sprintf("chatcmpl-%d-abcdefgh", i)} {
			k := ColumnsIDOf(id)
			if prev, ok := seen[k]; ok {
				t.Fatalf("%q and %q share %x", prev, id, k)
			}
			seen[k] = id
		}
	}
	if !reflect.DeepEqual(ColumnsIDOf("req_0000001"), ColumnsIDOf(string([]byte("req_0000001")))) {
		t.Error("not deterministic")
	}
}

// FuzzReadColumns reads damaged Parquet files of the dataset's schema, of
// several row groups with every column null, empty and set: ReadColumns
// must return columns or an error naming the file, never panic.
func FuzzReadColumns(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "valid.parquet")
	version := parquet.KeyValueMetadata(schema.MetadataVersionKey, fmt.Sprint(schema.Version))
	if err := parquet.WriteFile(path, columnsTestEvents(300), version, parquet.MaxRowsPerRowGroup(100)); err != nil {
		f.Fatal(err)
	}
	valid, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint16(100), byte(1), uint16(0), byte(0))
	f.Add(uint16(2000), byte(0x41), uint16(5000), byte(0x80))
	opts := ColumnsOptions{IDKey: func(id string) (ColumnsID, bool) { return ColumnsIDOf(id), id != "" },
		TextSources: []string{"client"}, Attrs: []string{"app"}}
	f.Fuzz(func(t *testing.T, at1 uint16, b1 byte, at2 uint16, b2 byte) {
		damaged := damagedFile(t, valid, at1, b1, at2, b2)
		if _, err := ReadColumns([]string{damaged}, opts); err != nil && !strings.Contains(err.Error(), damaged) {
			t.Errorf("error %v does not name the file", err)
		}
	})
}
