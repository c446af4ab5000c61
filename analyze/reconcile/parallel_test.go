package reconcile

import (
	"reflect"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
)

// TestSameOnAnyParallelism reconciles the logs of a simulated fleet (id,
// trace and time joins, clock bounds over the host pairs of 6 clients, 3
// proxies and 4 servers) on one worker in whole loops, and on several
// workers with the loops split into parts of a few observations
// (so that every parallel loop runs many parts at once): the results,
// joined requests included, must be identical. Run with -race, it also
// checks that the parts write only their own results.
func TestSameOnAnyParallelism(t *testing.T) {
	const requests = 4000
	f := simulateFleet(t, fleetShape(requests))
	run := func(workers, part int) *Result {
		c, err := dataset.ColumnsOf(f.Events, ColumnsOptions())
		if err != nil {
			t.Fatal(err)
		}
		return Columns(c, f.Inputs, Options{Workers: workers, PartSize: part, KeepRequests: true})
	}
	want := run(1, 0)
	if len(want.Requests) < requests/2 {
		t.Fatalf("only %d of %d requests joined", len(want.Requests), requests)
	}
	for _, c := range []struct{ workers, part int }{{2, 0}, {2, 1}, {4, 7}, {3, 64}, {1, 5}} {
		if got := run(c.workers, c.part); !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d, parts of %d: the result differs from one worker's", c.workers, c.part)
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
