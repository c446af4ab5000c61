package triton

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeTriton(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchTritonInput(), decode.Options{})
}

var benchTritonInput = sync.OnceValue(func() []byte {
	var elems []json.RawMessage
	for _, e := range decodetest.BenchArrayFile(&testing.T{}, "testdata/trace_mixed.json") {
		if bytes.Contains(e, []byte(`"id": 2,`)) {
			elems = append(elems, e)
		}
	}
	return decodetest.BenchArray(elems, `"id": 2,`, `"id": %[1]d,`, `"req-42"`, `"req-%[1]d"`, `"ns": 1`, `"ns": %[4]d1`)
})

func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, Format{}, benchTritonInput(), decode.Options{})
}
