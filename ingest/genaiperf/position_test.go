package genaiperf

import (
	"errors"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestGenaiPerfErrorPosition: a document refused before its first request
// gives the line and byte column where the value or delimiter that could
// not be read starts, also when that lies past the scanner's first buffers.
func TestGenaiPerfErrorPosition(t *testing.T) {
	long := strings.Repeat("a", 3*gpReadSize)
	for _, c := range []struct {
		doc  string
		want decode.Pos
	}{
		// "experiments": null on line 3: the value starts after 3 spaces,
		// the 13-byte key "experiments" and ": ", at column 3+13+2+1 = 19.
		{"{\n  \"endpoint\": \"v1/chat/completions\",\n   \"experiments\": null}", decode.Pos{Line: 3, Col: 19}},
		// A 786,432-byte string on line 1, then on line 2 an experiment that
		// is no object: the 1 after 1 space, the key, ": " and '[', at
		// column 1+13+2+1+1 = 18.
		{"{\"x\": \"" + long + "\",\n \"experiments\": [1,}", decode.Pos{Line: 2, Col: 18}},
		// The same with the refused value on the long line itself: column
		// 1 + 7 + len(long) + 3 + 13 + 2 = len(long) + 26.
		{"{\"x\": \"" + long + "\", \"experiments\": 7}", decode.Pos{Line: 1, Col: int64(len(long)) + 26}},
	} {
		err := Format{}.Decode(&decode.Input{R: strings.NewReader(c.doc), Name: "x.json"}, &decodetest.Recorder{})
		var pe *decode.Error
		if !errors.As(err, &pe) || pe.Pos != c.want || pe.File != "x.json" {
			t.Errorf("%.40q…: error %v; want at %v", c.doc, err, c.want)
		}
	}
}
