package ingest

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// BenchmarkDecodeOTLP measures the OTLP/JSON decoder on the spans the fleet's
// vLLM host gpu-1 writes (one ExportTraceServiceRequest per line).
func BenchmarkDecodeOTLP(b *testing.B) {
	benchDecode(b, otlp{}, benchLog(b, "gpu-1"), decode.Options{})
}
