package reconcile

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
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

// TestClockEstimatesIncremental runs the rounds as Columns does, each
// estimate adding only the bounds of the joins made since the last, and
// checks every estimate against one gathered afresh from all the joins
// made so far (every joined outer fresh, no bounds kept): the edges and
// the hosts' offsets must be identical.
func TestClockEstimatesIncremental(t *testing.T) {
	f := simulateFleet(t, fleetShape(3000))
	c, err := dataset.ColumnsOf(f.Events, ColumnsOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := newReconciler(c, f.Inputs, parallel.Split{})
	r.joinAllIDs()
	var joined []int
	check := func(ck *clocks, step string) {
		afresh := &reconciler{cols: r.cols, hosts: r.hosts, sources: r.sources, cp: r.cp, ps: r.ps, cs: r.cs}
		n := 0
		for _, p := range []*joinPair{r.cp, r.ps, r.cs} {
			for o, i := range p.outerTo {
				if i >= 0 {
					p.fresh = append(p.fresh, int32(o))
					n++
				}
			}
		}
		want := afresh.estimateClocks()
		if !reflect.DeepEqual(ck.edges, want.edges) || !reflect.DeepEqual(ck.host, want.host) {
			t.Errorf("%s: the kept bounds give other offsets than all joins gathered afresh", step)
		}
		joined = append(joined, n)
	}
	ck := r.estimateClocks()
	check(ck, "after the id joins")
	r.searchOffsets(ck)
	for round := 0; round < 2; round++ {
		r.joinAllTimes(ck)
		r.joinChains(ck)
		ck = r.estimateClocks()
		check(ck, "after a round of time joins")
	}
	if len(ck.edges) < 6 || joined[1] <= joined[0] {
		t.Fatalf("%d host pairs measured, joins %v: the fleet gives no time joins to add", len(ck.edges), joined)
	}
}

// TestRequestsNotKept reconciles a simulated fleet, whose proxies also see
// requests no client logged, with and without keeping the requests: the
// result must be the same but for Requests, and ByReference must count
// the kept requests' references (those without a client are then not
// built at all).
func TestRequestsNotKept(t *testing.T) {
	f := simulateFleet(t, fleetShape(3000))
	run := func(keep bool) (*Result, int) {
		c, err := dataset.ColumnsOf(f.Events, ColumnsOptions())
		if err != nil {
			t.Fatal(err)
		}
		each := 0
		rec := Columns(c, f.Inputs, Options{KeepRequests: keep, Each: func(*ReconciledRequest) { each++ }})
		return rec, each
	}
	kept, eachKept := run(true)
	want, clientless := map[string]int64{}, 0
	for _, q := range kept.Requests {
		want[q.Reference]++
		clientless += int(boolCount(q.ClientEvent == nil))
	}
	if clientless == 0 || clientless == len(kept.Requests) || eachKept != len(kept.Requests) {
		t.Fatalf("%d of %d requests without a client, Each called %d times: the fleet does not test both kinds",
			clientless, len(kept.Requests), eachKept)
	}
	if !reflect.DeepEqual(kept.ByReference, want) {
		t.Errorf("ByReference %v, want %v (counted from Requests)", kept.ByReference, want)
	}
	got, each := run(false)
	if each != len(kept.Requests)-clientless {
		t.Errorf("Each called %d times without KeepRequests, want once per request a client saw (%d)", each, len(kept.Requests)-clientless)
	}
	got.Requests, kept.Requests = nil, nil
	if !reflect.DeepEqual(got, kept) {
		t.Errorf("the result without KeepRequests differs from the one with them")
	}
}

// TestObservations files rows of three sources and one other, on wall and
// steady clocks, from hosts whose first observations fall in different
// parts, as the loop one row at a time did: every source's events,
// unjoinable events and observations (rows and hosts), and the hosts in the
// order their first observation comes, are the same in parts of any size.
func TestObservations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sources := []string{schema.SourceClient, schema.SourceProxy, schema.SourceServer, "other"}
	var events []schema.Event
	for i := range 5000 {
		host := fmt.Sprintf("h%d", rng.IntN(40)*(1+i/1000)) // new hosts keep coming
		e := schema.Event{Source: sources[rng.IntN(4)], Host: host, Clock: schema.ClockWall}
		if rng.IntN(5) == 0 {
			e.Clock = schema.ClockSteady
		}
		events = append(events, e)
	}
	c, err := dataset.ColumnsOf(events, ColumnsOptions())
	if err != nil {
		t.Fatal(err)
	}
	// The row-by-row definition.
	var hosts []string
	hostIndex := map[string]int32{}
	var want [3]obsSource
	for i, e := range events {
		k := slices.Index(sources[:3], e.Source)
		if k < 0 {
			continue
		}
		want[k].events++
		if e.Clock != schema.ClockWall {
			want[k].unjoinable++
			continue
		}
		if _, ok := hostIndex[e.Host]; !ok {
			hostIndex[e.Host] = int32(len(hosts))
			hosts = append(hosts, e.Host)
		}
		want[k].obs = append(want[k].obs, obsRef{event: int32(i), host: hostIndex[e.Host]})
	}
	for _, part := range []int{0, 1, 7, 64, 1000} {
		r := newReconciler(c, nil, parallel.Split{Workers: 3, Part: part})
		if !slices.Equal(r.hosts, hosts) {
			t.Errorf("parts of %d: hosts %v, want %v", part, r.hosts, hosts)
		}
		for k, s := range r.sources {
			if s.events != want[k].events || s.unjoinable != want[k].unjoinable || !slices.Equal(s.obs, want[k].obs) {
				t.Errorf("parts of %d: %s: %d events, %d unjoinable, %d observations; want %d, %d, %d", part, s.name,
					s.events, s.unjoinable, len(s.obs), want[k].events, want[k].unjoinable, len(want[k].obs))
			}
		}
	}
}
