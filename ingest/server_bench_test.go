package ingest

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// Benchmarks of the server-side and generic JSON decoders, whose inputs the
// generated fleet does not write: each input is built from the format's
// testdata, records repeated with varied ids and times to about 10-30 MB.

func BenchmarkDecodeJSONL(b *testing.B) {
	decodetest.BenchDecodeCPU(b, genericJSONL{}, benchJSONLInput(), decodetest.BenchOpts(b, "testdata/jsonl/gateway.jsonl"))
}

func BenchmarkDecodeHAR(b *testing.B) {
	decodetest.BenchDecodeCPU(b, har{}, benchHARInput(), decode.Options{})
}

// TestBenchInputs checks that every record of the benchmark inputs becomes
// an event, so the benchmarks measure the event route.
func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, genericJSONL{}, benchJSONLInput(), decodetest.BenchOpts(t, "testdata/jsonl/gateway.jsonl"))
	decodetest.CheckBenchInput(t, har{}, benchHARInput(), decode.Options{})
}

var benchJSONLInput = sync.OnceValue(func() []byte {
	lines := decodetest.BenchEventLines(&testing.T{}, genericJSONL{}, "testdata/jsonl/gateway.jsonl")
	return decodetest.BenchLines(lines, `"r-`, `"r%[1]d-`, "T10:00:0", "T10:%02[3]d:0", "17954280", "179%05[1]d")
})

var benchHARInput = sync.OnceValue(func() []byte {
	var doc struct {
		Log struct {
			Entries []json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	data, _ := os.ReadFile("testdata/har/llm_chat.har")
	if err := json.Unmarshal(data, &doc); err != nil {
		panic(err)
	}
	var good []json.RawMessage
	for _, e := range doc.Log.Entries {
		one := append(append([]byte(`{"log": {"entries": [`), e...), "]}}"...)
		rec := &decodetest.Recorder{}
		if err := (har{}).Decode(&decode.Input{R: bytes.NewReader(one), Name: "x"}, rec); err == nil && len(rec.Events) > 0 && len(rec.Rejects) == 0 {
			good = append(good, e)
		}
	}
	arr := decodetest.BenchArray(good, "9f1c2d3e", "%08[1]x", "req_7f8e9d", "req_%[1]d_", "T10:", "T1%[2]d:", "chatcmpl-abc", "chatcmpl-%[1]d-")
	return append(append([]byte(`{"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "pages": [], "entries": `), arr...), "}}\n"...)
})
