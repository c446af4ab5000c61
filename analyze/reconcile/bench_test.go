package reconcile

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkReconcile1M reconciles a generated fleet of one million requests
// (about three million events: client, proxy and server each), 10% of them
// joinable by time only. Generation is not timed. Besides wall time it
// reports the process's CPU time per run (cpu-s/op, all threads, from
// getrusage), which stays meaningful on a shared, loaded machine.
func BenchmarkReconcile1M(b *testing.B) {
	cfg := fleetDefault
	cfg.Clients, cfg.Proxies, cfg.Servers = 40, 8, 64
	cfg.Requests, cfg.RatePerSec = 1_000_000, 400
	f := genFleet(cfg)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := benchCPUTime()
	var rows int
	for b.Loop() {
		rows = len(Events(f.Events, nil).Requests)
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
