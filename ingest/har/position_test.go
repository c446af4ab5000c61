package har

import (
	"errors"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestErrorPosition checks where an input that is no HAR document is said
// to stop being readable, counted by hand: the byte the JSON decoder
// stopped at.
func TestErrorPosition(t *testing.T) {
	for _, c := range []struct{ in, at string }{
		{`{"log":{}}`, "1:9"},                                         // the '}' closing "log" without entries
		{`{"x":tru,"log":{"entries":[]}}`, "1:6"},                     // the value "tru" starts at byte 6
		{"{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"", "4:5"}, // cut in a key: line 4 at its '"'
	} {
		err := (Format{}).Decode(&decode.Input{R: strings.NewReader(c.in), Name: "a.har"}, &decodetest.Recorder{})
		var at *decode.Error
		if !errors.As(err, &at) || at.Pos.String() != c.at || !strings.HasPrefix(err.Error(), "a.har:"+c.at+": har: not a HAR document: ") {
			t.Errorf("%q: %v, want an error at %s", c.in, err, c.at)
		}
	}
}

// TestRejectColumns checks a reject's column in a damaged entries array:
// the byte encoding/json refuses.
func TestRejectColumns(t *testing.T) {
	in := "{\"log\": {\"entries\": [\n  {}, -]}}" // line 2 "  {}, -]": ']' is byte 8
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, in, "2:8")
}
