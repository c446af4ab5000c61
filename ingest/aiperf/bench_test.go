package aiperf

import (
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// BenchmarkDecodeAIPerf decodes the real export's records, repeated with
// varied ids and times (~200 chunk latencies per request, as AIPerf writes).
func BenchmarkDecodeAIPerf(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchInput(), decode.Options{})
}

var benchInput = sync.OnceValue(func() []byte {
	lines := decodetest.BenchEventLines(&testing.T{}, Format{}, "testdata/profile_export.jsonl")
	return decodetest.BenchLines(lines, "-4785-958a-", "-4785-%04[1]x-", "17595224191", "1759522419%[2]d")
})

func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, Format{}, benchInput(), decode.Options{})
}
