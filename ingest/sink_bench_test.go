package ingest

import (
	"fmt"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest/nginx"
	"github.com/ttftrace/ttftrace/schema"
)

// BenchmarkSinkStream measures what the driver adds per event once a format
// has decoded it: provenance, the duplicate hash, and the Parquet row
// written to a staged part (a proxy-like event with ids, instants and two
// attributes, no chunks), with and without keeping a copy for analysis.
func BenchmarkSinkStream(b *testing.B) {
	start, end, status := int64(1795392000000000000), int64(1795392001000000000), int32(200)
	ev := schema.Event{Source: schema.SourceProxy, Clock: schema.ClockWall, RequestID: "8d0f6c2e-1c4a-4b7e-9a51-3f0e2d7c9b11",
		TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", Model: "llama-3.1-8b-instruct", Endpoint: "/v1/chat/completions",
		Status: &status, StartNs: &start, EndNs: &end, Attrs: map[string]string{"upstream": "10.0.0.7:8000", "region": "eu"}}
	raw := []byte(`10.0.0.1 - - [23/Nov/2026:09:59:59 +0000] "POST /v1/chat/completions HTTP/1.1" 200 5120 "-" "python-httpx/0.27.0" 1.000 0.052`)
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keep=%v", keep), func(b *testing.B) {
			s := newInputSink("bench.log", "edge-1", nginx.Format{})
			s.writer = dataset.NewPartWriter(b.TempDir())
			s.keepEvents = keep
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				start = 1795392000000000000 + int64(i)*1e6
				s.Event(int64(i+1), raw, &ev)
			}
			if _, err := s.writer.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
