package triton

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestTritonManyEntries checks the reports of a long array: merged skips
// and rejects between them, traces with many responses (their values
// outgrow the arena's room) and many traces (past one chunk of 256).
func TestTritonManyEntries(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for line := 1; line <= 700; line++ {
		if line > 1 {
			b.WriteString(",\n")
		}
		id := line % 40
		if line > 400 {
			id = line
		}
		switch {
		case line == 64 || line == 65 || line == 128 || line == 129 || line == 300:
			b.WriteString(`{"id":"x"}`)
		case line%7 == 0:
			fmt.Fprintf(&b, `{"id":%d,"timestamps":[{"name":"INFER_RESPONSE_COMPLETE","ns":%d}]}`, id, 5000-line)
		case line%5 == 0:
			fmt.Fprintf(&b, `{"id":%d,"model_name":"m%d","model_version":%d,"request_id":"r%d"}`, id, id%3, id%2, id)
		default:
			fmt.Fprintf(&b, `{"id":%d,"timestamps":[{"name":"REQUEST_START","ns":%d},{"name":"HTTP_SEND_END","ns":%d}]}`, id, line, 9000+line)
		}
	}
	b.WriteString("]")
	rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, b.String())
	var rejected []int64
	for _, r := range rec.Rejects {
		if r.Reason == "invalid entry" {
			rejected = append(rejected, r.Line)
		}
	}
	merged := 0
	for _, s := range rec.Skips {
		merged += btoi(s.Reason == "trace entry merged")
	}
	// Lines 1..400 hold 40 ids: their 395 valid elements are 40 traces and
	// 355 merged skips; ids 401..700 are one element each.
	if !slices.Equal(rejected, []int64{64, 65, 128, 129, 300}) || merged != 355 || rec.Total() != 700 {
		t.Fatalf("invalid entries at %v, %d merged, %d records", rejected, merged, rec.Total())
	}
	var long strings.Builder
	long.WriteString(`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":99999}]}`)
	for k := range 5000 {
		fmt.Fprintf(&long, `,{"id":1,"timestamps":[{"name":"INFER_RESPONSE_COMPLETE","ns":%d}]}`, 7*k%4999+2)
	}
	long.WriteString("]")
	rec = decodetest.DecodeOne(t, Format{}, decode.Options{}, long.String())
	if len(rec.Events) != 1 || len(rec.Skips) != 5000 {
		t.Fatalf("%d events, %d skips", len(rec.Events), len(rec.Skips))
	}
	// Responses at 7k mod 4999 + 2 for k < 5000: 2 twice (k = 0 and 4999),
	// then 3..5000; after the start at 1, offsets 1, 1, 2, …, 4999.
	if ev := rec.Events[0].Event; *ev.FirstTokenNs != 2 || len(ev.ChunkOffsetsNs) != 5000 || ev.ChunkOffsetsNs[0] != 1 || ev.ChunkOffsetsNs[4999] != 4999 {
		t.Errorf("first token %d, %d chunks, last %d", *ev.FirstTokenNs, len(ev.ChunkOffsetsNs), ev.ChunkOffsetsNs[len(ev.ChunkOffsetsNs)-1])
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTritonReadAll checks the sized read of a file, a reader with a
// length, and one that fails.
func TestTritonReadAll(t *testing.T) {
	path := decodetest.TestdataFiles(t, "testdata")[0]
	want, _ := os.ReadFile(path)
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	for _, r := range []io.Reader{fh, bytes.NewReader(want), io.MultiReader(bytes.NewReader(want))} {
		if got, err := decode.ReadAllSized(r, 0); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%T: %v, %d bytes of %d", r, err, len(got), len(want))
		}
	}
	bad := io.MultiReader(bytes.NewReader(want), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, err := decode.ReadAllSized(bad, 0); err != io.ErrUnexpectedEOF {
		t.Fatalf("error %v", err)
	}
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: io.MultiReader(bytes.NewReader(want[:20]), iotest.ErrReader(io.ErrUnexpectedEOF))}, rec); err != nil && rec.Total() == 0 {
		t.Logf("read error: %v", err)
	}
}

// TestTritonRawMatchesFmt checks tritonRaw against the fmt form it
// replaced: "id=N" then " NAME=%v" of the sorted values, names sorted.
func TestTritonRawMatchesFmt(t *testing.T) {
	tr := &tritonTrace{id: -42}
	for i, n := range []string{"REQUEST_END", "A", "INFER_RESPONSE_COMPLETE", "B", "INFER_RESPONSE_COMPLETE", "A"} {
		tr.add(n, int64(9-i)*1e17+int64(i), nil)
	}
	tr.add("Z", -1<<63, nil)
	want := fmt.Sprintf("id=%d", tr.id)
	for _, n := range []string{"A", "B", "INFER_RESPONSE_COMPLETE", "REQUEST_END", "Z"} {
		want += fmt.Sprintf(" %s=%v", n, slices.Sorted(slices.Values(tr.values(n))))
	}
	if got := string(tritonRaw([]byte("junk"), tr)); got != "junk"+want {
		t.Fatalf("got %q, want %q", got, "junk"+want)
	}
}

// TestTritonNameOrder checks the cached name order of tritonOut against
// sorting each trace's names afresh.
func TestTritonNameOrder(t *testing.T) {
	var o tritonOut
	for _, names := range [][]string{
		{"B", "A", "C"}, {"B", "A", "C"}, {"A", "B", "C"}, {"B", "A"}, {"B", "A", "D"}, {}, {"Z"}, {"B", "A", "D"},
	} {
		tr := &tritonTrace{}
		for i, n := range names {
			tr.add(n, int64(i), nil)
		}
		if got, want := o.nameOrder(tr), tritonNameOrder(nil, tr); !slices.Equal(got, want) {
			t.Fatalf("%v: order %v, want %v", names, got, want)
		}
	}
}
