package ingest

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// CPU-time variants of the jsonl and LiteLLM benchmarks (server_bench_test.go)
// for comparing changes on a shared machine: same inputs, plus cpu-MB/s.

func BenchmarkDecodeJSONLCPU(b *testing.B) {
	benchDecodeCPU(b, genericJSONL{}, benchJSONLInput(), benchOpts(b, "testdata/jsonl/gateway.jsonl"))
}

func BenchmarkDecodeLiteLLMCPU(b *testing.B) {
	benchDecodeCPU(b, litellm{}, benchLiteLLMInput(), decode.Options{})
}

func BenchmarkDecodeLiteLLMSpendLogsCPU(b *testing.B) {
	benchDecodeCPU(b, litellm{}, benchSpendLogsInput(), decode.Options{})
}
