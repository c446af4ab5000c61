package ingest

import (
	"bytes"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// BenchmarkKeptDecode measures decoders through the driver's sink keeping
// the events (copies of their slices and maps included), not the counting
// sink of benchDecode: what a format saves by reusing its buffers, less
// what the sink then copies.
func BenchmarkKeptDecode(b *testing.B) {
	for _, c := range []struct {
		f    Format
		data []byte
	}{
		{vllmBench{}, benchVLLMBenchInput()},
		{triton{}, benchTritonInput()},
	} {
		b.Run(c.f.Name(), func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				s := newInputSink("bench", "h", c.f)
				s.keepEvents = true
				if err := c.f.Decode(&decode.Input{R: bytes.NewReader(c.data), Name: "bench"}, s); err != nil {
					b.Fatal(err)
				}
				if s.stats.Records == 0 || s.stats.Rejected != 0 {
					b.Fatalf("%d events, %d rejects", s.stats.Records, s.stats.Rejected)
				}
			}
		})
	}
}
