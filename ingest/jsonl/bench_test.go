package jsonl

import (
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// Benchmarks of the server-side and generic JSON decoders, whose inputs the
// generated fleet does not write: each input is built from the format's
// testdata, records repeated with varied ids and times to about 10-30 MB.

func BenchmarkDecodeJSONL(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchJSONLInput(), decodetest.BenchOpts(b, "testdata/gateway.jsonl"))
}

// TestBenchInputs checks that every record of the benchmark inputs becomes
// an event, so the benchmarks measure the event route.
func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, Format{}, benchJSONLInput(), decodetest.BenchOpts(t, "testdata/gateway.jsonl"))
}

var benchJSONLInput = sync.OnceValue(func() []byte {
	lines := decodetest.BenchEventLines(&testing.T{}, Format{}, "testdata/gateway.jsonl")
	return decodetest.BenchLines(lines, `"r-`, `"r%[1]d-`, "T10:00:0", "T10:%02[3]d:0", "17954280", "179%05[1]d")
})
