package dataset

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// randomEvent returns an event whose every field is, at random, absent,
// empty or set (lists and attrs of several lengths, ids with non-ASCII).
func randomEvent(r *rand.Rand) schema.Event {
	str := func() string {
		return []string{"", "a", "chatcmpl-ü€", "x\x00y", "model-7b"}[r.IntN(5)]
	}
	p64 := func() *int64 {
		if r.IntN(3) == 0 {
			return nil
		}
		v := r.Int64N(1<<50) - 1<<49
		return &v
	}
	list := func() int { return []int{0, 0, 1, 3, 300}[r.IntN(5)] }
	e := schema.Event{Source: []string{schema.SourceClient, schema.SourceProxy, schema.SourceServer}[r.IntN(3)], Format: str(), Host: str(), Clock: str(),
		RequestID: str(), TraceID: str(), SpanID: str(), ResponseID: str(), Model: str(), Endpoint: str(), Error: str(),
		PromptTokens: p64(), PromptTokensSource: str(), OutputTokens: p64(), OutputTokensSource: str(),
		StartNs: p64(), HeadersNs: p64(), FirstTokenNs: p64(), LastTokenNs: p64(), EndNs: p64(),
		QueueNs: p64(), PrefillNs: p64(), DecodeNs: p64(), InferenceNs: p64(), ValidationNs: p64(),
		ConnectNs: p64(), TimePerTokenNs: p64(), InputFile: str(), InputLine: r.Int64()}
	if r.IntN(2) == 0 {
		e.Status = i32(int32(r.IntN(600)))
	}
	if r.IntN(3) > 0 {
		e.Stream = bl(r.IntN(2) == 0)
	}
	if r.IntN(3) > 0 {
		e.Completed = bl(r.IntN(2) == 0)
	}
	for range list() {
		e.OtherIDs = append(e.OtherIDs, str())
	}
	n := list()
	for i := range n {
		e.ChunkOffsetsNs = append(e.ChunkOffsetsNs, int64(i)*r.Int64N(1e8))
		if r.IntN(4) > 0 {
			e.ChunkTokens = append(e.ChunkTokens, int32(r.IntN(5)))
		}
	}
	if k := list(); k > 0 || r.IntN(2) == 0 {
		e.Attrs = map[string]string{}
		for i := range k {
			e.Attrs[string(rune('a'+i%26))+str()] = str()
		}
	}
	return e
}

// writeEvents writes evs to one Parquet file, cutting a row group every
// groupRows rows.
func writeEvents(t testing.TB, path string, evs []schema.Event, groupRows int) {
	var buf bytes.Buffer
	w := newParquetWriter(&buf)
	for i := 0; i < len(evs); i += groupRows {
		if _, err := w.Write(evs[i:min(i+groupRows, len(evs))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readBothWays reads a file by columns and by rows.
func readBothWays(t testing.TB, path string) (cols, rows []schema.Event) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	if cols, err = decodeEvents(pf, nil); err != nil {
		t.Fatalf("decodeEvents: %v", err)
	}
	if rows, err = readRows(pf, path, nil); err != nil {
		t.Fatalf("readRows: %v", err)
	}
	return cols, rows
}

// TestDecodeEventsMatchesRows checks the column reader against parquet-go's
// row reader, field by field (nil and empty included), over random events
// in row groups of several sizes.
func TestDecodeEventsMatchesRows(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 7, 500, 3000} {
		evs := make([]schema.Event, size)
		for i := range evs {
			evs[i] = randomEvent(r)
		}
		path := filepath.Join(t.TempDir(), "events.parquet")
		writeEvents(t, path, evs, 1+size/3)
		cols, rows := readBothWays(t, path)
		if len(cols) != len(rows) {
			t.Fatalf("%d events: %d by columns, %d by rows", size, len(cols), len(rows))
		}
		for i := range rows {
			if !reflect.DeepEqual(cols[i], rows[i]) {
				t.Fatalf("%d events: event %d differs: %s", size, i, fieldDiff(cols[i], rows[i]))
			}
		}
		if !reflect.DeepEqual(normalize(cols), normalize(evs)) {
			t.Fatalf("%d events: read differs from written", size)
		}
	}
}

// fieldDiff names the fields where a (by columns) and b (by rows) differ.
func fieldDiff(a, b schema.Event) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	out := ""
	for i := range va.NumField() {
		fa, fb := va.Field(i), vb.Field(i)
		if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
			out += fmt.Sprintf("\n%s: columns %#v, rows %#v", va.Type().Field(i).Name, deref(fa), deref(fb))
		}
	}
	return out
}

func deref(v reflect.Value) any {
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		return v.Elem().Interface()
	}
	return v.Interface()
}

// TestDecodeEventsPlainStrings reads a file whose string columns are plain
// encoded (Event's schema without its dict tags), the layout other writers
// give: the column reader takes byte-array pages as well as dictionary
// indexes.
func TestDecodeEventsPlainStrings(t *testing.T) {
	typ := reflect.TypeFor[schema.Event]()
	fields := make([]reflect.StructField, typ.NumField())
	for i := range fields {
		fields[i] = typ.Field(i)
		fields[i].Tag = reflect.StructTag(strings.ReplaceAll(string(fields[i].Tag), ",dict", ""))
	}
	plain := reflect.StructOf(fields)
	r := rand.New(rand.NewPCG(3, 4))
	evs := make([]schema.Event, 400)
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, parquet.SchemaOf(reflect.New(plain).Interface()),
		parquet.KeyValueMetadata(schema.MetadataVersionKey, strconv.Itoa(schema.Version)))
	for i := range evs {
		evs[i] = randomEvent(r)
		if err := w.Write(reflect.ValueOf(evs[i]).Convert(plain).Interface()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "plain.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cols, rows := readBothWays(t, path)
	if !reflect.DeepEqual(cols, rows) {
		t.Fatal("plain-encoded file: columns and rows differ")
	}
	if !reflect.DeepEqual(normalize(cols), normalize(evs)) {
		t.Fatal("plain-encoded file: read differs from written")
	}
}

// TestReadFileOtherLayout reads a file of another schema (a subset of
// Event's columns): decodeEvents declines it and the row reader reads it.
func TestReadFileOtherLayout(t *testing.T) {
	type small struct {
		Source  string `parquet:"source"`
		StartNs *int64 `parquet:"start_ns,optional"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[small](&buf, parquet.KeyValueMetadata(schema.MetadataVersionKey, strconv.Itoa(schema.Version)))
	if _, err := w.Write([]small{{schema.SourceProxy, i64(5)}, {schema.SourceClient, nil}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "small.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Source != schema.SourceProxy || *got[0].StartNs != 5 || got[1].StartNs != nil {
		t.Errorf("read %+v", got)
	}
}

// FuzzReadFile reads damaged Parquet files: readFile must return events or
// an error, never panic. (TestDecodeEventsMatchesRows compares the readers;
// here the row reader alone takes up to a second on some damaged pages.)
func FuzzReadFile(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	evs := make([]schema.Event, 20)
	for i := range evs {
		evs[i] = randomEvent(r)
	}
	var buf bytes.Buffer
	w := newParquetWriter(&buf)
	if _, err := w.Write(evs); err != nil {
		f.Fatal(err)
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	valid := buf.Bytes()
	f.Add(uint16(100), byte(1), uint16(0), byte(0))
	f.Add(uint16(291), byte(0x41), uint16(8439), byte(0x41))
	f.Fuzz(func(t *testing.T, at1 uint16, b1 byte, at2 uint16, b2 byte) {
		readFile(damagedFile(t, valid, at1, b1, at2, b2), nil) // an error is fine; a panic fails
	})
}

// damagedFile writes valid with up to two bytes changed (xor b1 at at1 and
// b2 at at2, modulo its length) to a file of its own and returns its path.
// A fuzz test damages a valid file so: free-form bytes mostly exercise
// parquet-go's footer parsing, which can allocate what a damaged length
// claims.
func damagedFile(t *testing.T, valid []byte, at1 uint16, b1 byte, at2 uint16, b2 byte) string {
	t.Helper()
	data := bytes.Clone(valid)
	data[int(at1)%len(data)] ^= b1
	data[int(at2)%len(data)] ^= b2
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
