package decodetest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// An edges golden (a format's testdata/edges/edges.golden) freezes what a
// decoder reports for inputs at the edges of its format: a JSON array of
// {"input", "decoded"}, decoded being the Recorder's JSON. It was written
// by the route a format's one decoder replaced, which the decoder was
// fuzzed against before that route was deleted.

// edgeGolden is one entry of an edges golden.
type edgeGolden struct {
	Input   string          `json:"input"`
	Decoded json.RawMessage `json:"decoded"`
	Error   string          `json:"error,omitempty"` // the error Decode returned
}

// EdgesGolden returns the edges golden of the inputs as decode reports them.
func EdgesGolden(inputs []string, decode func(input string, rec *Recorder) error) []byte {
	out := make([]edgeGolden, len(inputs))
	for i, in := range inputs {
		rec := &Recorder{}
		if err := decode(in, rec); err != nil {
			out[i].Error = err.Error()
		}
		out[i].Input = in
		out[i].Decoded, _ = json.Marshal(rec)
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	return append(b, '\n')
}

// updateEdges rewrites the edges goldens from what the decoders report
// (go test ./ingest/... -update-edges); review the diff before committing.
var updateEdges = flag.Bool("update-edges", false, "rewrite the edges goldens under testdata/edges/")

// CheckEdges decodes every input by f (input named "x" on host "h") and
// compares what the sink was told with the edges golden at path
// (-update-edges rewrites it).
func CheckEdges(t *testing.T, f Format, inputs []string, path string) {
	t.Helper()
	if *updateEdges {
		golden := EdgesGolden(inputs, func(e string, rec *Recorder) error {
			return f.Decode(&decode.Input{R: strings.NewReader(e), Name: "x", Host: "h"}, rec)
		})
		if err := os.WriteFile(path, golden, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []edgeGolden
	if err := json.Unmarshal(b, &want); err != nil || len(want) != len(inputs) {
		t.Fatalf("%d golden edges for %d inputs: %v", len(want), len(inputs), err)
	}
	for i, e := range inputs {
		rec := &Recorder{}
		var errText string
		if err := f.Decode(&decode.Input{R: strings.NewReader(e), Name: "x", Host: "h"}, rec); err != nil {
			errText = err.Error()
		}
		got, _ := json.MarshalIndent(rec, "", "  ")
		var w bytes.Buffer
		json.Indent(&w, want[i].Decoded, "", "  ")
		var input string // as JSON stored it: invalid UTF-8 replaced
		if q, _ := json.Marshal(e); json.Unmarshal(q, &input) != nil || want[i].Input != input || want[i].Error != errText || !bytes.Equal(got, w.Bytes()) {
			t.Errorf("edge %d %.80q:\ngot  %s %s\nwant %s %s", i, e, errText, got, want[i].Error, w.Bytes())
		}
	}
}

// WithOptions is a decoder given options: its Decode reads every input
// with Opts, so that CheckEdges reads a format's edge inputs with each of
// several log formats.
type WithOptions struct {
	Format
	Opts decode.Options
}

// Decode decodes in with f.Opts.
func (f WithOptions) Decode(in *decode.Input, sink decode.Sink) error {
	in.Opts = f.Opts
	return f.Format.Decode(in, sink)
}
