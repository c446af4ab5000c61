package har

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeHAR(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchHARInput(), decode.Options{})
}

var benchHARInput = sync.OnceValue(func() []byte {
	var doc struct {
		Log struct {
			Entries []json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	data, _ := os.ReadFile("testdata/llm_chat.har")
	if err := json.Unmarshal(data, &doc); err != nil {
		panic(err)
	}
	var good []json.RawMessage
	for _, e := range doc.Log.Entries {
		one := append(append([]byte(`{"log": {"entries": [`), e...), "]}}"...)
		rec := &decodetest.Recorder{}
		if err := (Format{}).Decode(&decode.Input{R: bytes.NewReader(one), Name: "x"}, rec); err == nil && len(rec.Events) > 0 && len(rec.Rejects) == 0 {
			good = append(good, e)
		}
	}
	arr := decodetest.BenchArray(good, "9f1c2d3e", "%08[1]x", "req_7f8e9d", "req_%[1]d_", "T10:", "T1%[2]d:", "chatcmpl-abc", "chatcmpl-%[1]d-")
	return append(append([]byte(`{"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "pages": [], "entries": `), arr...), "}}\n"...)
})

func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, Format{}, benchHARInput(), decode.Options{})
}
