package analyze

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest"
)

// TestSameOnAnyWorkers analyses the logs of a simulated fleet (its default
// topology: every client, proxy and server format it writes) on one worker
// in whole loops, and on several workers with reconciliation's loops split
// into parts of a few observations: analysis.json and the reconciled
// requests must be identical. reconcile's TestSameOnAnyParallelism checks
// its loops alone; this checks the tasks Run spreads over the workers.
func TestSameOnAnyWorkers(t *testing.T) {
	cfg := fleet.DefaultConfig(1500)
	cfg.MeanOut = 20
	dir := t.TempDir()
	files, err := fleet.Generate(cfg).WriteAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join(dir, f.Name))
	}
	res, err := ingest.Run(paths, ingest.DriverOptions{
		LogFormats: map[string]string{"nginx": fleet.NginxLogFormat, "envoy": fleet.EnvoyLogFormat}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers, part int) ([]byte, *Analysis) {
		a := Run(res.Events, res.Inputs, Options{By: [][]string{{"model"}}, Workers: workers, partSize: part, KeepRequests: true})
		b, err := Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		return b, a
	}
	want, wantA := run(1, 0)
	if len(wantA.Requests) < 1000 || len(wantA.Matching) != 3 {
		t.Fatalf("%d requests joined, %d source pairs", len(wantA.Requests), len(wantA.Matching))
	}
	for _, c := range []struct{ workers, part int }{{2, 0}, {4, 7}, {3, 64}, {1, 5}} {
		got, a := run(c.workers, c.part)
		if !bytes.Equal(got, want) || !reflect.DeepEqual(a.Requests, wantA.Requests) {
			t.Errorf("workers %d, parts of %d: analysis.json or the requests differ from one worker's", c.workers, c.part)
		}
	}
}
