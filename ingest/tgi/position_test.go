package tgi

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks that a reject points at the value refused: the
// columns are found in the input's text by strings.Index, not by the
// decoder.
func TestRejectColumns(t *testing.T) {
	text := testdataLine(t, "testdata/router.log", 11) // total_time="12.5xs"
	col := strings.Index(text, `"12.5xs"`) + 2         // the value inside its quotes
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, text+"\n", fmt.Sprintf("1:%d", col))

	bad := testdataLine(t, "testdata/router_json.log", 4) // "total_time": "bad" in the record and in its span
	col = strings.LastIndex(bad, `"bad"`) + 2             // the span's: the handler span's times are read
	cut := `{"timestamp": "not json`                      // a string never closed: just past its 23 bytes
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, bad+"\n"+cut+"\n", fmt.Sprintf("1:%d", col), "2:24")
}

// testdataLine returns line n (1-based) of the file at path.
func testdataLine(t *testing.T, path string, n int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")[n-1]
}
