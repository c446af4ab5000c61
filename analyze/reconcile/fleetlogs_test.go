package reconcile

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/schema"
)

// fleetShape is the fleet the reconciliation tests simulate: 6 clients, 3
// nginx proxies and 4 OTLP servers at 40 requests/s, 10% of the requests
// sent without any id (only time joins them), 1% rate limited at the proxy,
// 5% reaching the server with no proxy, 30% of the rest carrying a trace
// id. Clients are 11–14 ms from their proxy each way (the links of a
// client outside the data centre); clocks are off by up to ±2 s.
func fleetShape(requests int) fleet.Config {
	return fleet.Config{Requests: requests, Seed: 1, Start: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
		Rate: 40, MeanOut: 30, MaxSkew: 2 * time.Second, NoIDShare: 0.1,
		Shape: &fleet.Shape{Clients: 6, Proxies: 3, Servers: 4, LimitedShare: 0.01, DirectShare: 0.05, TraceShare: 0.3,
			ClientDelay: 10 * time.Millisecond}}
}

// fleetDenseShape has 40 clients, 8 proxies and 64 servers at 400
// requests/s, 30% of them sharing no id.
func fleetDenseShape(requests int) fleet.Config {
	cfg := fleetShape(requests)
	cfg.Seed, cfg.Rate, cfg.NoIDShare = 5, 400, 0.3
	cfg.Shape.Clients, cfg.Shape.Proxies, cfg.Shape.Servers = 40, 8, 64
	return cfg
}

// fleetRequest is the truth about one simulated request: its event indices
// (-1 when absent) and its true TTFT parts in ns.
type fleetRequest struct {
	Client, Proxy, Server  int
	NoIDs, Limited, Direct bool
	// Failed is a request that did not succeed at client or server (rate
	// limited, an engine error, a stream the user cut).
	Failed     bool
	Parts      [6]int64 // client→proxy, proxy→server, queue, prefill, other, return path
	ClientTTFT int64    // true, equal to the sum of Parts
}

// fleetLogs is a simulated fleet's logs as ingest reads them, with the
// truth.
type fleetLogs struct {
	Events   []schema.Event
	Inputs   []schema.InputStats
	Offset   map[string]int64 // host clock − true clock, ns
	Requests []fleetRequest
}

// simulateFleet simulates cfg with package fleet, writes every host's log
// into a temporary folder and ingests the logs as `ttftrace ingest` does.
// Each event's request is the one fleet.Logged lists at its place in its
// log; the mapping is checked against each event's host and start.
func simulateFleet(tb testing.TB, cfg fleet.Config) *fleetLogs {
	tb.Helper()
	f := fleet.Generate(cfg)
	files, res := ingestFleet(tb, f)
	out := &fleetLogs{Events: res.Events, Inputs: res.Inputs, Offset: map[string]int64{}}
	for _, h := range f.Hosts {
		out.Offset[h.Name] = h.OffsetNs
	}
	out.Requests = make([]fleetRequest, len(f.Requests))
	for n := range out.Requests {
		out.Requests[n] = truthOf(&f.Requests[n])
	}
	at := 0
	for k, file := range files {
		h, _ := f.Host(file.Host)
		logged := f.Logged(h)
		if in := res.Inputs[k]; in.Records != int64(len(logged)) || in.Rejected != 0 {
			tb.Fatalf("%s: %d records, %d rejected, %d requests logged", file.Name, in.Records, in.Rejected, len(logged))
		}
		for j, r := range logged {
			out.placeEvent(tb, at+j, r, h)
		}
		at += len(logged)
	}
	return out
}

// ingestFleet writes every host's log of f into a temporary folder and
// ingests them, each under its host's name, in the order fleet.WriteAll
// lists them.
func ingestFleet(tb testing.TB, f *fleet.Fleet) ([]fleet.File, *ingest.Result) {
	tb.Helper()
	dir := tb.TempDir()
	files, err := f.WriteAll(dir)
	if err != nil {
		tb.Fatal(err)
	}
	paths, hostOf := make([]string, len(files)), map[string]string{}
	for k, file := range files {
		paths[k] = filepath.Join(dir, file.Name)
		hostOf[paths[k]] = file.Host
	}
	res, err := ingest.Run(paths, ingest.DriverOptions{HostOf: func(p string) string { return hostOf[p] },
		LogFormats: map[string]string{"nginx": fleet.NginxLogFormat, "envoy": fleet.EnvoyLogFormat}})
	if err != nil {
		tb.Fatal(err)
	}
	return files, res
}

// truthOf is the truth of r, its events not yet placed.
func truthOf(r *fleet.Request) fleetRequest {
	return fleetRequest{Client: -1, Proxy: -1, Server: -1,
		NoIDs: r.RequestID == "", Limited: r.Server == nil, Direct: r.Proxy == nil && r.Server != nil,
		Failed: r.Status != 200 || r.ErrorClass != "",
		Parts: [6]int64{r.ProxyStart - r.ClientStart, r.ServerStart - r.ProxyStart, r.QueueNs, r.PrefillNs,
			r.OtherNs, r.ReturnNs},
		ClientTTFT: r.ClientFirst - r.ClientStart}
}

// placeEvent records event k as host h's observation of request r, after
// checking that the event is h's and starts where r does on h's clock
// (within the 1 ms of the coarsest log).
func (l *fleetLogs) placeEvent(tb testing.TB, k int, r *fleet.Request, h *fleet.Host) {
	ev, tr := &l.Events[k], &l.Requests[r.Index]
	var slot *int
	var start int64
	switch ev.Source {
	case schema.SourceClient:
		slot, start = &tr.Client, r.ClientStart
	case schema.SourceProxy:
		slot, start = &tr.Proxy, r.ProxyStart
	case schema.SourceServer:
		slot, start = &tr.Server, r.ServerStart
	}
	if slot == nil || ev.Host != h.Name || ev.StartNs == nil || *ev.StartNs-(start+h.OffsetNs) > 1e6 ||
		start+h.OffsetNs-*ev.StartNs > 1e6 {
		tb.Fatalf("event %d (%s on %s) is not request %d's on %s", k, ev.Source, ev.Host, r.Index, h.Name)
	}
	*slot = k
}
