package reconcile

import (
	"syscall"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/fleet"
)

// BenchmarkReconcile1M reconciles the logs of a simulated fleet of one
// million requests (fleetDenseShape but 10% of them joinable by time only,
// as fleetShape, and a few output tokens each): about three million
// events, client, proxy and server each. Simulation, writing the logs to a
// temporary folder and ingest are not timed; the process peaks near 7 GB
// (6.9 GB, -benchtime 1x). Besides wall time it reports the process's CPU
// time per run (cpu-s/op, all threads, from getrusage), which stays
// meaningful on a shared, loaded machine.
func BenchmarkReconcile1M(b *testing.B) {
	cfg := fleetDenseShape(1_000_000)
	cfg.NoIDShare, cfg.MeanOut = 0.1, 4
	_, res := ingestFleet(b, fleet.Generate(cfg)) // no truth kept: the fleet is garbage once its logs are written
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := benchCPUTime()
	var rows int
	for b.Loop() {
		rows = len(Events(res.Events, res.Inputs).Requests)
	}
	b.ReportMetric((benchCPUTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(rows), "requests")
}

// benchCPUTime is the user plus system CPU time the process has used.
func benchCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
