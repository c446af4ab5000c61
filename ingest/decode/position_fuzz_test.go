package decode_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// FuzzPositions checks JSONRefused against encoding/json (a refused byte
// lies in the input, the bytes before it are refused nowhere, and valid
// JSON is never refused) and that every reject of JSONArray lies within
// the input: on one of its lines, at most just past that line's end.
func FuzzPositions(f *testing.F) {
	for _, s := range []string{"[{},\n]", "[{} {}]", "[\n {\"a\": tru}]", "{\"a\":[1,]}", "[{\"a\":1},\n {\"b\":", "\"x\"", "[]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		k, ok := decode.JSONRefused(b)
		if ok {
			if k < 0 || k >= len(b) {
				t.Fatalf("refused at %d of %d bytes", k, len(b))
			}
			if _, again := decode.JSONRefused(b[:k]); again {
				t.Fatalf("the %d bytes before the refused one are refused too", k)
			}
		}
		if json.Valid(b) && ok {
			t.Fatal("valid JSON refused")
		}
		rec := &decodetest.Recorder{}
		if err := decode.JSONArray(bytes.NewReader(b), rec, func(decode.Pos, []byte) {}); err != nil {
			return
		}
		lines := strings.Split(string(b), "\n")
		for _, r := range rec.Rejects {
			if r.Line < 1 || r.Line > int64(len(lines)) || r.Column < 1 || r.Column > int64(len(lines[r.Line-1]))+1 {
				t.Fatalf("reject at %d:%d outside the input's %d lines", r.Line, r.Column, len(lines))
			}
		}
	})
}
