package schema

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.golden")

// TestDocsCoverEveryColumn checks that every leaf column of the Parquet
// schema (other_ids.list.element belongs to other_ids) has a documentation
// entry, and that every entry names a real column.
func TestDocsCoverEveryColumn(t *testing.T) {
	top := map[string]bool{}
	for _, path := range parquet.SchemaOf(Event{}).Columns() {
		top[path[0]] = true
		if meanings[path[0]] == "" {
			t.Errorf("column %v has no documentation in meanings", path)
		}
	}
	for name := range meanings {
		if !top[name] {
			t.Errorf("meanings documents %q, which is not a column of Event", name)
		}
	}
	if len(Columns()) != len(top) {
		t.Errorf("Columns() has %d entries, the schema %d top-level columns", len(Columns()), len(top))
	}
}

// TestSchemaGolden pins the Parquet schema and its documentation, so that any
// column change shows up in review (go test ./schema -run Golden -update
// rewrites it; then bump Version if a column changed).
func TestSchemaGolden(t *testing.T) {
	var got bytes.Buffer
	got.WriteString(ParquetSchema() + "\n\n")
	if err := WriteDocs(&got); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "schema.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./schema -run Golden -update)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("schema or docs differ from %s; review, rerun with -update and bump schema.Version if columns changed:\n%s", golden, got.String())
	}
}

// TestColumnTypes spot-checks the type names read from the schema against
// the Go field types of Event.
func TestColumnTypes(t *testing.T) {
	want := map[string]Column{
		"source":       {Type: "STRING", Nullable: false},
		"status":       {Type: "INT32", Nullable: true},
		"stream":       {Type: "BOOLEAN", Nullable: true},
		"start_ns":     {Type: "INT64", Nullable: true},
		"other_ids":    {Type: "LIST<STRING>"},
		"chunk_tokens": {Type: "LIST<INT32>"},
		"attrs":        {Type: "MAP<STRING,STRING>"},
		"input_line":   {Type: "INT64"},
	}
	for _, c := range Columns() {
		if w, ok := want[c.Name]; ok && (w.Type != c.Type || w.Nullable != c.Nullable) {
			t.Errorf("%s: %s nullable=%v, want %s nullable=%v", c.Name, c.Type, c.Nullable, w.Type, w.Nullable)
		}
	}
}
