package analyze

import (
	"bytes"
	"reflect"
	"testing"
)

// TestSameOnAnyParallelism runs the analysis of a fleet (id, trace and time
// joins, clock bounds over twelve host pairs) on one worker in whole loops,
// and on several workers with reconciliation's loops split into parts of a
// few observations (so that every parallel loop runs many parts at once):
// analysis.json and the reconciled requests must be identical. Run with
// -race, it also checks that the parts write only their own results.
func TestSameOnAnyParallelism(t *testing.T) {
	cfg := fleetDefault
	cfg.Requests = 4000
	f := genFleet(cfg)
	run := func(workers, part int) ([]byte, []ReconciledRequest) {
		a := Run(f.Events, nil, Options{Workers: workers, partSize: part, KeepRequests: true})
		b, err := Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		return b, a.Requests
	}
	want, wantReqs := run(1, 0)
	if len(wantReqs) < cfg.Requests/2 {
		t.Fatalf("only %d of %d requests joined", len(wantReqs), cfg.Requests)
	}
	for _, c := range []struct{ workers, part int }{{2, 0}, {2, 1}, {4, 7}, {3, 64}, {1, 5}} {
		got, reqs := run(c.workers, c.part)
		if !bytes.Equal(got, want) {
			t.Errorf("workers %d, parts of %d: analysis.json differs from one worker's", c.workers, c.part)
		}
		if !reflect.DeepEqual(reqs, wantReqs) {
			t.Errorf("workers %d, parts of %d: reconciled requests differ from one worker's", c.workers, c.part)
		}
	}
}

// TestForParts checks that forParts visits every index once, in parts of
// the given size, whatever the workers.
func TestForParts(t *testing.T) {
	for _, c := range []struct{ n, size, workers, part, parts int }{
		{0, 4, 2, 0, 0}, {1, 4, 2, 0, 1}, {10, 4, 3, 0, 3}, {12, 4, 1, 0, 3}, {10, 4, 2, 1, 10}, {10, 1, 8, 3, 4},
	} {
		pl := parallelism{c.workers, c.part}
		if got := pl.partCount(c.n, c.size); got != c.parts {
			t.Errorf("%+v: %d parts, want %d", c, got, c.parts)
		}
		seen := make([]int, c.n)
		bounds := make([][2]int, c.parts)
		pl.forParts(c.n, c.size, func(k, from, to int) {
			bounds[k] = [2]int{from, to}
			for i := from; i < to; i++ {
				seen[i]++
			}
		})
		for i, v := range seen {
			if v != 1 {
				t.Errorf("%+v: index %d visited %d times", c, i, v)
			}
		}
		for k := 1; k < c.parts; k++ {
			if bounds[k][0] != bounds[k-1][1] {
				t.Errorf("%+v: part %d starts at %d, part %d ended at %d", c, k, bounds[k][0], k-1, bounds[k-1][1])
			}
		}
	}
}

// TestJoinCodes checks that the method codes the clock bounds filter on
// name the methods joinMethods lists at those codes.
func TestJoinCodes(t *testing.T) {
	for code, name := range map[int]string{joinCodeTrace: JoinTrace, joinCodeID: JoinID, joinCodeTime: JoinTime, joinCodeChain: JoinChain} {
		if joinMethods[code] != name {
			t.Errorf("code %d is %q in joinMethods, want %q", code, joinMethods[code], name)
		}
	}
}
