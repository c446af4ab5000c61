package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// Instants used below, computed with Python's datetime (an independent route):
// datetime(2026,11,23,tzinfo=utc).timestamp()*1e9 = 1795392000000000000 and
// datetime(2026,11,24,tzinfo=utc).timestamp()*1e9 = 1795478400000000000.
const (
	nov23 int64 = 1795392000000000000
	nov24 int64 = 1795478400000000000
)

func i64(v int64) *int64 { return &v }
func i32(v int32) *int32 { return &v }
func bl(v bool) *bool    { return &v }

func TestPartitionOf(t *testing.T) {
	tests := []struct {
		ev   schema.Event
		want string
	}{
		{schema.Event{Source: schema.SourceClient, Clock: schema.ClockWall, StartNs: i64(nov23)}, "source=client/date=2026-11-23"},
		{schema.Event{Source: schema.SourceClient, Clock: schema.ClockWall, StartNs: i64(nov24 - 1)}, "source=client/date=2026-11-23"},
		{schema.Event{Source: schema.SourceProxy, Clock: schema.ClockWall, StartNs: i64(nov24)}, "source=proxy/date=2026-11-24"},
		{schema.Event{Source: schema.SourceServer, Clock: schema.ClockWall}, "source=server/date=unknown"},
		{schema.Event{Source: schema.SourceServer, Clock: schema.ClockSteady, StartNs: i64(nov23)}, "source=server/date=unknown"},
		{schema.Event{Source: schema.SourceClient, Clock: schema.ClockRelative, StartNs: i64(5)}, "source=client/date=unknown"},
		{schema.Event{Source: "../x", Clock: schema.ClockWall, StartNs: i64(0)}, "source=%2E%2E%2Fx/date=1970-01-01"},
		{schema.Event{Clock: schema.ClockWall, StartNs: i64(nov23)}, "source=unknown/date=2026-11-23"},
	}
	for _, tt := range tests {
		if got := PartitionOf(&tt.ev); got != tt.want {
			t.Errorf("PartitionOf(%s, %s) = %q, want %q", tt.ev.Source, tt.ev.Clock, got, tt.want)
		}
	}
}

// sampleEvents covers every kind of column: nulls, lists, maps, several
// partitions.
func sampleEvents() []schema.Event {
	return []schema.Event{
		{Source: schema.SourceClient, Format: "ttftrace-client", Host: "laptop", Clock: schema.ClockWall,
			RequestID: "r1", TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", OtherIDs: []string{"a", "b"},
			Model: "llama", Endpoint: "/v1/chat/completions", Status: i32(200), Stream: bl(true), Completed: bl(true),
			PromptTokens: i64(900), PromptTokensSource: schema.TokensUsage, OutputTokens: i64(3), OutputTokensSource: schema.TokensCounted,
			StartNs: i64(nov23 + 123), FirstTokenNs: i64(nov23 + 310_700_000), EndNs: i64(nov23 + 4_120_500_000),
			ChunkOffsetsNs: []int64{310_700_000, 400_000_000, 500_000_000}, ChunkTokens: []int32{1, 1, 1},
			Attrs: map[string]string{"region": "eu-west", "app": "chat-web"}, InputFile: "c.jsonl", InputLine: 1},
		{Source: schema.SourceServer, Format: "triton", Host: "gpu-1", Clock: schema.ClockSteady, StartNs: i64(42), EndNs: i64(99),
			QueueNs: i64(7), InputFile: "t.json", InputLine: 3},
		{Source: schema.SourceClient, Format: "ttftrace-client", Host: "laptop", Clock: schema.ClockWall, Error: schema.ErrorRateLimited,
			Status: i32(429), StartNs: i64(nov24 + 5), EndNs: i64(nov24 + 10), InputFile: "c.jsonl", InputLine: 2},
		{Source: schema.SourceProxy, Format: "nginx", Host: "edge-1", Clock: schema.ClockWall, StartNs: i64(nov23 + 1),
			Attrs: map[string]string{"upstream": "10.0.0.1:8000"}, InputFile: "a.log", InputLine: 9},
	}
}

// normalize makes empty lists and maps nil, as Parquet does not tell them apart.
func normalize(evs []schema.Event) []schema.Event {
	out := append([]schema.Event(nil), evs...)
	for i := range out {
		if len(out[i].OtherIDs) == 0 {
			out[i].OtherIDs = nil
		}
		if len(out[i].ChunkOffsetsNs) == 0 {
			out[i].ChunkOffsetsNs = nil
		}
		if len(out[i].ChunkTokens) == 0 {
			out[i].ChunkTokens = nil
		}
		if len(out[i].Attrs) == 0 {
			out[i].Attrs = nil
		}
	}
	return out
}

func TestWriteReadDataset(t *testing.T) {
	dir := t.TempDir()
	evs := sampleEvents()
	paths, err := WriteDataset(dir, evs)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range paths {
		r, _ := filepath.Rel(dir, p)
		rel = append(rel, filepath.ToSlash(r))
	}
	want := []string{
		"source=client/date=2026-11-23/part-00000.parquet",
		"source=client/date=2026-11-24/part-00000.parquet",
		"source=proxy/date=2026-11-23/part-00000.parquet",
		"source=server/date=unknown/part-00000.parquet",
	}
	if !reflect.DeepEqual(rel, want) {
		t.Fatalf("files = %q, want %q", rel, want)
	}
	got, err := ReadEvents(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Read order is path order: client/11-23, client/11-24, proxy, server.
	wantEvs := normalize([]schema.Event{evs[0], evs[2], evs[3], evs[1]})
	if !reflect.DeepEqual(normalize(got), wantEvs) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, wantEvs)
	}
	assertNoTemps(t, dir)
}

func TestWriteDatasetAppends(t *testing.T) {
	dir := t.TempDir()
	evs := sampleEvents()
	first, err := WriteDataset(dir, evs[:1])
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(first[0])
	second, err := WriteDataset(dir, evs[:1])
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(second[0]) != "part-00001.parquet" || filepath.Dir(second[0]) != filepath.Dir(first[0]) {
		t.Errorf("second write went to %s, want part-00001 beside %s", second[0], first[0])
	}
	after, _ := os.ReadFile(first[0])
	if !bytes.Equal(before, after) {
		t.Error("appending rewrote an old part file")
	}
	got, err := ReadEvents(dir)
	if err != nil || len(got) != 2 {
		t.Fatalf("read %d events, err %v; want 2", len(got), err)
	}
}

func TestWriteDatasetDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	pa, err := WriteDataset(a, sampleEvents())
	if err != nil {
		t.Fatal(err)
	}
	pb, err := WriteDataset(b, sampleEvents())
	if err != nil {
		t.Fatal(err)
	}
	for i := range pa {
		x, _ := os.ReadFile(pa[i])
		y, _ := os.ReadFile(pb[i])
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s and %s differ (%d and %d bytes)", pa[i], pb[i], len(x), len(y))
		}
	}
}

// TestWriteDatasetFailureLeavesNothing makes the second partition's folder
// impossible to create (a plain file stands in its place) and checks that the
// first partition, already encoded, was not left behind either.
func TestWriteDatasetFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteDataset(dir, nil); err != nil { // an empty dataset
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "source=proxy"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteDataset(dir, sampleEvents()); err == nil {
		t.Fatal("write succeeded, want an error")
	}
	files, _ := DataFiles(dir)
	if len(files) != 0 {
		t.Errorf("failed write left %q", files)
	}
	assertNoTemps(t, dir)
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func TestReadEventsRefusesUnknownVersion(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []parquet.WriterOption
		want string
	}{
		{"v2", []parquet.WriterOption{parquet.KeyValueMetadata(schema.MetadataVersionKey, "2")}, "schema version 2 is not supported"},
		{"none", nil, "schema version none is not supported"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "source=client", "date=unknown", "part-00000.parquet")
			os.MkdirAll(filepath.Dir(path), 0o755)
			var buf bytes.Buffer
			w := parquet.NewGenericWriter[schema.Event](&buf, tt.opts...)
			w.Write(sampleEvents()[:1])
			w.Close()
			os.WriteFile(path, buf.Bytes(), 0o644)
			_, err := ReadEvents(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want %q naming %s", err, tt.want, path)
			}
		})
	}
}

func TestReadEventsGarbageFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.parquet")
	os.WriteFile(path, []byte("PAR1 not really"), 0o644)
	if _, err := ReadEvents(dir); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want an error naming %s", err, path)
	}
}

// TestReadEventsManyRows crosses several read batches and a row-group
// boundary is not needed for that: 2500 rows = 1024 + 1024 + 452.
func TestReadEventsManyRows(t *testing.T) {
	dir := t.TempDir()
	evs := make([]schema.Event, 2500)
	for i := range evs {
		evs[i] = schema.Event{Source: schema.SourceProxy, Clock: schema.ClockWall, StartNs: i64(nov23 + int64(i)), InputLine: int64(i + 1)}
	}
	if _, err := WriteDataset(dir, evs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadEvents(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2500 || got[2499].InputLine != 2500 || *got[1024].StartNs != nov23+1024 {
		t.Errorf("read %d rows; last line %d", len(got), got[len(got)-1].InputLine)
	}
}

func TestDataFilesSkipsUnderscoreAndDot(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteDataset(dir, sampleEvents()[:1]); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"_tmp/x.parquet", ".hidden/y.parquet", "source=client/_z.parquet"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("junk"), 0o644)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(`{"path":"a"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := DataFiles(dir)
	if err != nil || len(files) != 1 {
		t.Errorf("DataFiles = %q, %v; want the one part file", files, err)
	}
}
