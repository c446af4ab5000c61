package decode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestLineIndexForgets: reading a long array one element a line, the index
// holds the newlines of the element being read, not of the whole stream,
// and still gives every element's line and column.
func TestLineIndexForgets(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("[\n")
	for i := range n {
		fmt.Fprintf(&b, "  {\"i\": %d},\n", i) // element i on line i+2, at column 3
	}
	b.WriteString("  {\"i\": -1\n]") // line n+2: an object cut by the ']' at line n+3
	li := &LineIndex{R: strings.NewReader(b.String())}
	dec := json.NewDecoder(li)
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var rej posRecorder
	seen, most := 0, 0
	err := JSONArrayElements(dec, li, &rej, func(at Pos, raw []byte) {
		if want := (Pos{Line: int64(seen) + 2, Col: 3}); at != want || !bytes.Equal(raw, []byte(fmt.Sprintf(`{"i": %d}`, seen))) {
			t.Fatalf("element %d at %v (%s), want %v", seen, at, raw, want)
		}
		seen++
		most = max(most, len(li.newlines))
	})
	if err != nil || seen != n {
		t.Fatalf("%d elements, %v", seen, err)
	}
	if most > 1000 { // a json.Decoder reads ahead a few KiB: some hundred lines
		t.Errorf("the index held %d newlines of %d", most, n+2)
	}
	if want := (Pos{Line: n + 3, Col: 1}); len(rej.at) != 1 || rej.at[0] != want {
		t.Errorf("the cut object rejected at %v, want %v (the ']')", rej.at, want)
	}
}

// posRecorder keeps the positions of rejects.
type posRecorder struct{ at []Pos }

func (r *posRecorder) Event(int64, []byte, *schema.Event) {}
func (r *posRecorder) Skip(int64, string)                 {}
func (r *posRecorder) Reject(at Pos, _, _ string)         { r.at = append(r.at, at) }
