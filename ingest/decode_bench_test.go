package ingest

import (
	"bytes"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"

	"github.com/ttftrace/ttftrace/ingest/decode"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// benchFleet is a simulated fleet of 3000 requests (the same topology
// ttftrace-gen writes), generated once for all decoder benchmarks.
var benchFleet = sync.OnceValue(func() *fleet.Fleet {
	cfg := fleet.DefaultConfig(3000)
	cfg.MeanOut = 250
	return fleet.Generate(cfg)
})

// benchLog returns the log host writes for benchFleet.
func benchLog(b *testing.B, host string) []byte {
	return fleetLog(b, benchFleet(), host)
}

// smallFleet is a simulated fleet of 300 requests, generated once for the
// tests that compare decoding routes on generated logs.
var smallFleet = sync.OnceValue(func() *fleet.Fleet { return fleet.Generate(fleet.DefaultConfig(300)) })

// fleetLog returns the log host writes for f.
func fleetLog(tb testing.TB, f *fleet.Fleet, host string) []byte {
	h, err := f.Host(host)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.WriteHost(&buf, h); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// benchDecode reports the decode throughput of format over data, in MB/s of
// input; it checks that every record became an event.
func BenchDecode(b *testing.B, format Format, data []byte, opts decode.Options) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rec := &decodetest.CountingSink{}
		if err := format.Decode(&decode.Input{R: bytes.NewReader(data), Name: "bench", Opts: opts}, rec); err != nil {
			b.Fatal(err)
		}
		if rec.Events == 0 || rec.Rejects != 0 {
			b.Fatalf("%d events, %d rejects", rec.Events, rec.Rejects)
		}
	}
}

func BenchmarkDecodeClientJSONL(b *testing.B) {
	decodetest.BenchDecodeCPU(b, clientJSONL{}, benchLog(b, "web-1"), decode.Options{})
}
