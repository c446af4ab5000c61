package ingest

import (
	"bytes"
	"testing"
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
				s, stop := drainSink(c.f, true, nil)
				if err := c.f.Decode(&Input{R: bytes.NewReader(c.data), Name: "bench"}, s); err != nil {
					b.Fatal(err)
				}
				if events, rejects := stop(); events == 0 || rejects != 0 {
					b.Fatalf("%d events, %d rejects", events, rejects)
				}
			}
		})
	}
}
