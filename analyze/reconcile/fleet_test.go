package reconcile

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestReconcileFleet joins the logs of simulated fleets whose truth is
// known (fleetShape, fleetDenseShape) and checks the joins, the clock
// offsets and the TTFT breakdown against it.
func TestReconcileFleet(t *testing.T) {
	t.Run("sparse", func(t *testing.T) { testFleet(t, simulateFleet(t, fleetShape(20000))) })
	t.Run("deterministic", func(t *testing.T) {
		f := simulateFleet(t, fleetShape(20000))
		if a, b := Events(f.Events, f.Inputs), Events(f.Events, f.Inputs); !reflect.DeepEqual(a, b) {
			t.Error("two runs on the same events differ")
		}
	})
	t.Run("dense", func(t *testing.T) {
		if testing.Short() {
			t.Skip("100k requests")
		}
		testFleet(t, simulateFleet(t, fleetDenseShape(100000)))
	})
}

func testFleet(t *testing.T, f *fleetLogs) {
	rec := Events(f.Events, f.Inputs)
	byClient := map[int64]*ReconciledRequest{}
	for k := range rec.Requests {
		if q := &rec.Requests[k]; q.ClientEvent != nil {
			byClient[*q.ClientEvent] = q
		}
	}
	checkFleetJoins(t, f, byClient)
	checkFleetOffsets(t, f, rec)
	checkFleetBreakdown(t, f, rec, byClient)
	checkFleetDelta(t, f, rec, byClient)
	for _, m := range rec.Matching {
		t.Logf("matching %+v", m)
	}
	t.Logf("notes: %q", rec.Notes)
}

// checkFleetJoins counts the requests whose observers were all joined to the
// right events, and the wrong joins.
func checkFleetJoins(t *testing.T, f *fleetLogs, byClient map[int64]*ReconciledRequest) {
	var right, wrong, noIDs, noIDsRight int
	for _, tr := range f.Requests {
		q := byClient[int64(tr.Client)]
		ok := q != nil && fleetEventIs(q.ProxyEvent, tr.Proxy) && fleetEventIs(q.ServerEvent, tr.Server)
		if ok {
			right++
		} else if q != nil && (!fleetEventIsOrNil(q.ProxyEvent, tr.Proxy) || !fleetEventIsOrNil(q.ServerEvent, tr.Server)) {
			wrong++
		}
		if tr.NoIDs {
			noIDs++
			if ok {
				noIDsRight++
			}
		}
	}
	rate := float64(right) / float64(len(f.Requests))
	t.Logf("fully and rightly joined: %d/%d (%.3f%%); wrong joins: %d; time-only requests right: %d/%d",
		right, len(f.Requests), 100*rate, wrong, noIDsRight, noIDs)
	if rate < 0.99 {
		t.Errorf("joined rightly %.4f of requests, want ≥ 0.99", rate)
	}
	if wrong > len(f.Requests)/1000 {
		t.Errorf("%d wrong joins, want ≤ 0.1%%", wrong)
	}
}

func fleetEventIs(p *int64, want int) bool {
	return p != nil && *p == int64(want) || p == nil && want < 0
}
func fleetEventIsOrNil(p *int64, want int) bool { return p == nil || *p == int64(want) }

// checkFleetOffsets checks every reported offset interval holds the true
// offset (host clock − reference clock).
func checkFleetOffsets(t *testing.T, f *fleetLogs, rec *Result) {
	if len(rec.ClockOffsets) == 0 {
		t.Fatal("no clock offsets")
	}
	var worst, sumErr float64
	for _, c := range rec.ClockOffsets {
		truth := float64(f.Offset[c.Host]-f.Offset[c.Reference]) / 1e6
		if truth < c.LowMs-1e-6 || truth > c.HighMs+1e-6 || !c.Consistent {
			t.Errorf("offset %s−%s (via %q): truth %.4f ms outside [%.4f, %.4f] (consistent %v)",
				c.Host, c.Reference, c.Via, truth, c.LowMs, c.HighMs, c.Consistent)
		}
		err := math.Abs(c.OffsetMs - truth)
		worst, sumErr = max(worst, err), sumErr+err
	}
	// Every host but the reference is related to the one reference, the
	// client host (web-N) with most requests (in the requests' rows).
	ref := rec.Requests[0].Reference
	related := map[string]bool{}
	for _, c := range rec.ClockOffsets {
		if c.Reference == ref {
			related[c.Host] = true
		}
	}
	if len(related) != len(f.Offset)-1 || !strings.HasPrefix(ref, "web-") {
		t.Errorf("%d of %d hosts related to reference %s", len(related), len(f.Offset)-1, ref)
	}
	t.Logf("%d offsets; error vs truth: mean %.3f ms, worst %.3f ms", len(rec.ClockOffsets),
		sumErr/float64(len(rec.ClockOffsets)), worst)
}

// offsetErrors returns, per host, its estimated offset from the
// reference clock less the true one, ms (0 for the reference).
func offsetErrors(f *fleetLogs, rec *Result) map[string]float64 {
	ref := rec.Requests[0].Reference
	out := map[string]float64{ref: 0}
	for _, c := range rec.ClockOffsets {
		if c.Reference == ref {
			out[c.Host] = c.OffsetMs - float64(f.Offset[c.Host]-f.Offset[ref])/1e6
		}
	}
	return out
}

// partOffsetErrors returns how far the offset estimates move the network
// parts of joined request q from the truth, ms: a part y − x on the
// reference clock is off by x's offset error less y's.
func partOffsetErrors(q *ReconciledRequest, errs map[string]float64) [6]float64 {
	c, p, s := errs[q.ClientHost], errs[q.ProxyHost], errs[q.ServerHost]
	return [6]float64{c - p, p - s, 0, 0, 0, s - c}
}

// checkFleetBreakdown checks that every request's parts add up to its client
// TTFT exactly, and that each band's mean parts are within 3% + 1 ms (the
// proxy log's resolution) of the true means over the same band. The true
// bands are recomputed here from the true client TTFT: ranks ⌊lo(n−1)⌋ to
// ⌈hi(n−1)⌉ of the n broken-down requests. Band "all" must match within
// 0.1 ms once the error of the offset estimates (checkFleetOffsets bounds
// them) is taken out: the network parts move with their two hosts'.
func checkFleetBreakdown(t *testing.T, f *fleetLogs, rec *Result, byClient map[int64]*ReconciledRequest) {
	errs := offsetErrors(f, rec)
	var truths []fleetRequest
	var absErr [6]float64 // per-request |estimate − truth| summed, ns
	for _, tr := range f.Requests {
		q := byClient[int64(tr.Client)]
		if q == nil || q.ReturnPathNs == nil {
			continue
		}
		sum := *q.ClientToProxyNs + *q.ProxyToServerNs + *q.ServerQueueNs + *q.ServerPrefillNs +
			*q.ServerOtherNs + *q.ReturnPathNs
		if sum != *q.ClientTTFTNs {
			t.Fatalf("client event %d: parts add up to %d ns, client TTFT %d ns", tr.Client, sum, *q.ClientTTFTNs)
		}
		if tr.Failed { // the bands keep successful requests only
			continue
		}
		for k, v := range []*int64{q.ClientToProxyNs, q.ProxyToServerNs, q.ServerQueueNs, q.ServerPrefillNs, q.ServerOtherNs, q.ReturnPathNs} {
			absErr[k] += math.Abs(float64(*v - tr.Parts[k]))
		}
		truths = append(truths, tr)
	}
	for k := range absErr {
		absErr[k] /= float64(len(truths)) * 1e6
	}
	t.Logf("per-request mean |error| of the parts: %.3f ms", absErr)
	slices.SortStableFunc(truths, func(x, y fleetRequest) int { return int(x.ClientTTFT - y.ClientTTFT) })
	bounds := map[string][2]float64{"all": {0, 1}, "p50": {0.45, 0.55}, "p90": {0.85, 0.95}, "p99": {0.985, 0.995}}
	if len(rec.TTFTBreakdown) != 4 {
		t.Fatalf("%d bands, want 4", len(rec.TTFTBreakdown))
	}
	for _, b := range rec.TTFTBreakdown {
		n := float64(len(truths) - 1)
		lo, hi := int(math.Floor(bounds[b.Band][0]*n)), int(math.Ceil(bounds[b.Band][1]*n))
		var want, moved [6]float64 // the true mean parts, and how far the offsets' errors move them
		for _, tr := range truths[lo : hi+1] {
			pe := partOffsetErrors(byClient[int64(tr.Client)], errs)
			for k, v := range tr.Parts {
				want[k] += float64(v) / 1e6 / float64(hi+1-lo)
				moved[k] += pe[k] / float64(hi+1-lo)
			}
		}
		got := [6]float64{b.ClientToProxyMs, b.ProxyToServerMs, b.ServerQueueMs, b.ServerPrefillMs, b.ServerOtherMs, b.ReturnPathMs}
		t.Logf("band %s (%d requests): got %.2f, true %.2f ms, moved by the offsets' errors %.2f ms", b.Band, b.Requests, got, want, moved)
		for k := range got {
			// Band "all" is de-biased within 0.1 ms (the proxy's ms-truncated
			// start read 0.48 ms early before) once the offsets' errors are
			// taken out; a quantile band's requests differ from the truth's
			// where TTFT ranks tie.
			tol, off := 0.03*math.Abs(want[k])+1, 0.0
			if b.Band == "all" {
				tol, off = 0.1, moved[k]
			}
			if math.Abs(got[k]-want[k]-off) > tol {
				t.Errorf("band %s part %d: %.3f ms, true %.3f ms", b.Band, k, got[k], want[k])
			}
		}
		for k, r := range map[int]RangeMs{0: b.ClientToProxyRangeMs, 1: b.ProxyToServerRangeMs, 5: b.ReturnPathRangeMs} {
			if want[k] < r.LowMs || want[k] > r.HighMs || got[k] < r.LowMs || got[k] > r.HighMs {
				t.Errorf("band %s part %d: true %.3f ms, estimate %.3f, outside the offsets' range %+v", b.Band, k, want[k], got[k], r)
			}
		}
		t.Logf("band %s ranges: client→proxy %+v, proxy→server %+v, return %+v", b.Band, b.ClientToProxyRangeMs, b.ProxyToServerRangeMs, b.ReturnPathRangeMs)
	}
}

// checkFleetDelta compares the client − server TTFT distribution with the
// truth: one sample per successful request joined at client and server
// (through a proxy or not), true value client TTFT − (queue + prefill +
// other). Over the requests the distribution holds, the true mean must
// match to 0.05 ms (the client log's µs truncation, and any wrong joins).
func checkFleetDelta(t *testing.T, f *fleetLogs, rec *Result, byClient map[int64]*ReconciledRequest) {
	var n, joined int64
	var sum float64
	for _, tr := range f.Requests {
		if tr.Failed { // the deltas keep successful requests only
			continue
		}
		n++
		if q := byClient[int64(tr.Client)]; q != nil && q.ServerTTFTNs != nil {
			joined++
			sum += float64(tr.ClientTTFT-tr.Parts[2]-tr.Parts[3]-tr.Parts[4]) / 1e6
		}
	}
	count, mean := int64(len(rec.TTFTDeltas)), 0.0
	for _, d := range rec.TTFTDeltas {
		mean += d / float64(count)
	}
	t.Logf("client−server TTFT: %d samples of %d requests, mean %.4f ms (true %.4f ms)",
		count, n, mean, sum/float64(joined))
	if count != joined || float64(count) < 0.99*float64(n) || math.Abs(mean-sum/float64(joined)) > 0.05 {
		t.Errorf("TTFT delta %d samples, mean %.4f; true %d of %d, %.4f", count, mean, joined, n, sum/float64(joined))
	}
}
