package otlp

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// BenchmarkDecodeOTLP measures the OTLP/JSON decoder on the spans the fleet's
// vLLM host gpu-1 writes (one ExportTraceServiceRequest per line).
func BenchmarkDecodeOTLP(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchLog(b, "gpu-1"), decode.Options{})
}
