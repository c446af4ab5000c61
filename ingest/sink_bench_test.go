package ingest

import (
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest/nginx"
	"github.com/ttftrace/ttftrace/schema"
)

// drainSink returns a unitSink for format f whose batches a goroutine
// hands to write (when not nil) and then recycles (unless keep), and a
// function that ends the unit and returns the events and rejects seen.
func drainSink(f Format, keep bool, write func(*schema.Event)) (*unitSink, func() (int, int)) {
	out := make(chan *batch, unitBatches)
	pool := newBatchPool(8, keep)
	s := &unitSink{name: "bench.log", host: "edge-1", format: f, out: out, pool: pool}
	done := make(chan [2]int)
	go func() {
		var n [2]int
		for b := range out {
			n[0], n[1] = n[0]+len(b.events), n[1]+len(b.rejects)
			if write != nil {
				for i := range b.events {
					write(&b.events[i])
				}
			}
			pool.put(b)
		}
		done <- n
	}()
	return s, func() (int, int) {
		s.flush()
		close(out)
		n := <-done
		return n[0], n[1]
	}
}

// BenchmarkSinkStream measures what the driver adds per event once a format
// has decoded it: provenance, the copy into a batch, the duplicate hash, and
// the Parquet row written to a staged part (a proxy-like event with ids,
// instants and two attributes, no chunks). The sink and the writer run on
// two goroutines, as in the driver.
func BenchmarkSinkStream(b *testing.B) {
	start, end, status := int64(1795392000000000000), int64(1795392001000000000), int32(200)
	ev := schema.Event{Source: schema.SourceProxy, Clock: schema.ClockWall, RequestID: "8d0f6c2e-1c4a-4b7e-9a51-3f0e2d7c9b11",
		TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", Model: "llama-3.1-8b-instruct", Endpoint: "/v1/chat/completions",
		Status: &status, StartNs: &start, EndNs: &end, Attrs: map[string]string{"upstream": "10.0.0.7:8000", "region": "eu"}}
	raw := []byte(`10.0.0.1 - - [23/Nov/2026:09:59:59 +0000] "POST /v1/chat/completions HTTP/1.1" 200 5120 "-" "python-httpx/0.27.0" 1.000 0.052`)
	w := dataset.NewPartWriter(b.TempDir())
	s, stop := drainSink(nginx.Format{}, false, func(e *schema.Event) {
		if _, err := w.Write(e); err != nil {
			panic(err)
		}
	})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		start = 1795392000000000000 + int64(i)*1e6
		s.Event(int64(i+1), raw, &ev)
	}
	stop()
	if _, err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
