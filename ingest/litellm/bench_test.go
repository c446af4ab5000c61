package litellm

import (
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeLiteLLM(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchLiteLLMInput(), decode.Options{})
}

func BenchmarkDecodeLiteLLMSpendLogs(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchSpendLogsInput(), decode.Options{})
}

var benchLiteLLMInput = sync.OnceValue(func() []byte {
	lines := decodetest.BenchEventLines(&testing.T{}, Format{}, "testdata/standard_logging_payload.jsonl")
	return decodetest.BenchLines(lines, "9f1c000", "%07[1]x", "-4000-8000-", "-4000-%04[1]x-", "17954280", "179%05[1]d")
})

var benchSpendLogsInput = sync.OnceValue(func() []byte {
	elems := decodetest.BenchArrayFile(&testing.T{}, "testdata/spend_logs.json")
	return decodetest.BenchArray(elems, "7a7a000", "%07[1]x", "T10:", "T1%[2]d:", " 10:", " 1%[2]d:")
})

func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, Format{}, benchLiteLLMInput(), decode.Options{})
	decodetest.CheckBenchInput(t, Format{}, benchSpendLogsInput(), decode.Options{})
}
