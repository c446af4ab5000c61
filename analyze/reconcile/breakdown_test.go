package reconcile

import (
	"slices"
	"testing"
)

// TestBreakdownBands: 21 requests with client TTFT k ms (k = 1…21), each
// split as client→proxy 1 ms, return path 2 ms, server other k−3 ms. With
// n−1 = 20, the bands hold ranks p50 [⌊9⌋, ⌈11⌉] = TTFT 10, 11, 12 (mean
// 11), p90 [17, 19] = 18, 19, 20 (mean 19), p99 [⌊19.7⌋, ⌈19.9⌉] = 20, 21
// (mean 20.5); all has mean 11. A request with a client error is left out.
func TestBreakdownBands(t *testing.T) {
	var reqs []ReconciledRequest
	for k := int64(21); k >= 1; k-- { // unsorted on purpose
		reqs = append(reqs, ReconciledRequest{ClientTTFTNs: reconPtr(k * msNs), ClientToProxyNs: reconPtr(msNs),
			ProxyToServerNs: reconPtr(int64(0)), ServerOtherNs: reconPtr((k - 3) * msNs), ReturnPathNs: reconPtr(2 * msNs)})
	}
	failed := reqs[0]
	failed.ClientError = "server_error"
	failed.ClientTTFTNs = reconPtr(1000 * msNs)
	reqs = append(reqs, failed)
	got := breakdownBands(reqs)
	want := []struct {
		band string
		n    int64
		ttft float64
	}{{"all", 21, 11}, {"p50", 3, 11}, {"p90", 3, 19}, {"p99", 2, 20.5}}
	if len(got) != len(want) {
		t.Fatalf("%d bands", len(got))
	}
	for k, w := range want {
		b := got[k]
		sum := b.ClientToProxyMs + b.ProxyToServerMs + b.ServerQueueMs + b.ServerPrefillMs + b.ServerOtherMs + b.ReturnPathMs
		if b.Band != w.band || b.Requests != w.n || !approxEq(b.ClientTTFTMs, w.ttft) || !approxEq(sum, w.ttft) ||
			!approxEq(b.ClientToProxyMs, 1) || !approxEq(b.ServerOtherMs, w.ttft-3) {
			t.Errorf("band %d = %+v, want %s of %d requests, TTFT %.1f", k, b, w.band, w.n, w.ttft)
		}
	}
	if got := breakdownBands(nil); len(got) != 0 {
		t.Errorf("no requests: %+v", got)
	}
}

// TestOffsetTrimming: 25 requests with lower bounds 0…23 plus one stray 1000
// and upper bounds 100…124; trimCount(25) = 1 drops the 1000 and the 100,
// leaving [23, 101] and the estimate 62.
func TestOffsetTrimming(t *testing.T) {
	var b offsetBounds
	for k := int64(0); k < 25; k++ {
		lo := k
		if k == 24 {
			lo = 1000
		}
		b.lower, b.upper = append(b.lower, lo), append(b.upper, 100+k)
	}
	e, ok := b.estimate()
	if !ok || !e.consistent || e.low != 23 || e.high != 101 || e.est != 62 || e.requests != 25 {
		t.Errorf("estimate %+v", e)
	}
	for n, want := range map[int]int{1: 0, 19: 0, 20: 1, 199: 1, 200: 2, 1000: 10} {
		if got := trimCount(n); got != want {
			t.Errorf("trimCount(%d) = %d, want %d", n, got, want)
		}
	}
	if _, ok := (&offsetBounds{lower: []int64{1}}).estimate(); ok {
		t.Error("one-sided bounds gave an estimate")
	}
}

// TestChainStep: a host 2 ± 1 ms from the reference, then a pair measured
// the other way round (θ = clock(from) − clock(to) = 5 in [3, 8]) gives
// 2 − 5 = −3 in [1 − 8, 3 − 3] = [−7, 0].
func TestChainStep(t *testing.T) {
	from := hostClock{est: 2, low: 1, high: 3, depth: 1, requests: 10, consistent: true}
	h := chainStep(&from, offsetEstimate{est: 5, low: 3, high: 8, requests: 4, consistent: true}, false)
	if h.est != -3 || h.low != -7 || h.high != 0 || h.requests != 4 || h.depth != 2 || !h.consistent {
		t.Errorf("chainStep = %+v", h)
	}
}

// TestFences: 20 requests whose inner starts 10…29 ns after the outer and
// ends as much before it. Start gaps sorted: q25 = gaps[⌊0.25·19⌋ = 4] = 14,
// q75 = gaps[14] = 24, IQR 10, so the start fence is 24 + 6·10 = 84; end
// gaps −29…−10: q25 = −25, q75 = −15, end fence −25 − 60 = −85. With 19
// requests there are no fences; flipped, the fence does not apply.
func TestFences(t *testing.T) {
	var b offsetBounds
	for k := int64(10); k < 30; k++ {
		b.addBounds(&joinObs{start: 0, end: 1000, has: obsHasStart | obsHasEnd},
			&joinObs{start: k, end: 1000 - k, has: obsHasStart | obsHasEnd}, false, false)
		if k == 28 {
			c := b
			c.starts, c.ends = slices.Clone(b.starts), slices.Clone(b.ends)
			if e, _ := c.estimate(); e.fenced {
				t.Error("fences with 19 requests")
			}
		}
	}
	e, _ := b.estimate()
	if !e.fenced || e.flipped || e.startFence != 84 || e.endFence != -85 {
		t.Errorf("fences %+v", e)
	}
}
