package ingest

import (
	"bytes"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// BenchmarkKeptDecode measures decoders through the driver's sink keeping
// the events (copies of their slices and maps included), not the counting
// sink of decodetest.BenchDecode: what a format saves by reusing its buffers, less
// what the sink then copies.
func BenchmarkKeptDecode(b *testing.B) {
	for _, c := range []struct{ format, host string }{{"genai-perf", "bench-1"}, {"otlp", "gpu-1"}, {"tgi", "gpu-3"}} {
		f, _ := Lookup(c.format)
		data := decodetest.BenchLog(b, c.host)
		b.Run(c.format, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				s := newInputSink("bench", "h", f)
				s.keepEvents = true
				if err := f.Decode(&decode.Input{R: bytes.NewReader(data), Name: "bench"}, s); err != nil {
					b.Fatal(err)
				}
				if s.stats.Records == 0 || s.stats.Rejected != 0 {
					b.Fatalf("%d events, %d rejects", s.stats.Records, s.stats.Rejected)
				}
			}
		})
	}
}
