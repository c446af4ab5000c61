package reconcile

import (
	"math"
)

// offsetBounds collects, for one host pair a < b, the bounds every joined
// request gives on θ = clock(b) − clock(a), in ns. mids holds each request's
// own midpoint, for the best estimate when the bounds contradict.
type offsetBounds struct {
	lower, upper, mids []int64
	// trips holds each request's round trip, outer duration minus inner
	// duration (both network legs and whatever lies between the observers);
	// it does not depend on the clocks.
	trips []int64
	// starts and ends hold each request's inner.start − outer.start and
	// inner.end − outer.end on the hosts' own clocks, oriented as the
	// requests were (outer, inner); dir records that orientation: 1 as
	// stored, 2 flipped, 3 both (then no fences are drawn).
	starts, ends []int64
	dir          uint8
	widen        int64 // the largest widening applied to a bound
}

// hostPair is a host pair with a < b (indices into reconciler.hosts).
type hostPair struct{ a, b int32 }

// offsetEstimate is θ = clock(b) − clock(a) of one host pair, ns.
type offsetEstimate struct {
	est, low, high float64
	requests       int64
	consistent     bool
	// tripLow is the 1% quantile of the joined requests' round trips (a
	// robust minimum) and tripIQR their interquartile range (their typical
	// jitter), ns; both 0 without round trips.
	tripLow, tripIQR int64
	// fenced says startFence and endFence hold: with at least
	// minFenceRequests joined requests, all in the orientation flipped
	// says, a true pair's inner.start − outer.start is at most startFence
	// and its inner.end − outer.end at least endFence (host clocks, ns).
	fenced               bool
	flipped              bool
	startFence, endFence int64
}

// minFenceRequests is how many joined requests a host pair needs before
// its start and end gaps are used to rule candidates out.
const minFenceRequests = 20

// fenceIQRs is how many interquartile ranges beyond the quartile a gap must
// lie to be implausible: for exponential jitter, a true pair lies beyond
// q75 + 6·IQR with probability e^−8 ≈ 0.03%.
const fenceIQRs = 6

// addBounds adds the bounds one joined request gives on θ = inner clock −
// outer clock. In true time the inner observer starts after the outer and
// ends before it, so inner.start − θ ≥ outer.start and inner.end − θ ≤
// outer.end:
//
//	inner.end − outer.end ≤ θ ≤ inner.start − outer.start.
//
// Where the pair is firstOrdered, inner.first − θ ≤ outer.first gives a
// further lower bound θ ≥ inner.first − outer.first. Each bound is widened
// by what the two logs' truncation or rounding allows (offsetLimits).
func (b *offsetBounds) addBounds(o, i *joinObs, firstOrdered, flip bool) {
	b.widen = max(b.widen, o.res+i.res)
	lo, hasLo, up, hasUp := offsetLimits(o, i, firstOrdered)
	if o.has&i.has&(obsHasStart|obsHasEnd) == obsHasStart|obsHasEnd {
		b.trips = append(b.trips, (o.end-o.start)-(i.end-i.start))
		b.starts, b.ends = append(b.starts, i.start-o.start), append(b.ends, i.end-o.end)
		b.dir |= 1 << boolCount(flip)
	}
	if flip { // the bounds are on −θ: the pair is stored as (inner, outer)
		lo, up, hasLo, hasUp = -up, -lo, hasUp, hasLo
	}
	if hasLo {
		b.lower = append(b.lower, lo)
	}
	if hasUp {
		b.upper = append(b.upper, up)
	}
	if hasLo && hasUp {
		b.mids = append(b.mids, lo+(up-lo)/2)
	}
}

// trimCount is how many of n bounds are dropped as outliers on one side:
// 1%, and at least the single most extreme one when n ≥ 20.
func trimCount(n int) int {
	k := n / 100
	if k == 0 && n >= 20 {
		k = 1
	}
	return k
}

// estimate returns the offset these bounds give: the middle of
// [max lower, min upper] after trimming trimCount outliers on each side.
// Trimming only widens the interval, so every true bound still holds. When
// the trimmed bounds still cross (low > high), the estimate is the median of
// the requests' own midpoints, [low, high] is reported in order, and
// consistent is false. It returns false without bounds on both sides.
func (b *offsetBounds) estimate() (offsetEstimate, bool) {
	if len(b.lower) == 0 || len(b.upper) == 0 {
		return offsetEstimate{}, false
	}
	low := float64(selectInts(b.lower, len(b.lower)-1-trimCount(len(b.lower)))[0])
	high := float64(selectInts(b.upper, trimCount(len(b.upper)))[0])
	e := offsetEstimate{low: low, high: high, consistent: low <= high,
		requests: int64(max(len(b.lower), len(b.upper)))}
	if len(b.trips) > 0 {
		q := quantiles(b.trips, 0.01, 0.25, 0.75)
		e.tripLow, e.tripIQR = q[0], q[2]-q[1]
	}
	b.fences(&e)
	if e.consistent {
		e.est = low + (high-low)/2
		return e, true
	}
	e.low, e.high = high, low
	e.est = float64(lowerMedian(b.mids))
	if len(b.mids) == 0 {
		e.est = low + (high-low)/2
	}
	return e, true
}

// fences sets e's start and end fences (Tukey's far-out fences, widened to
// fenceIQRs interquartile ranges) when there are enough requests in one
// orientation.
func (b *offsetBounds) fences(e *offsetEstimate) {
	if len(b.starts) < minFenceRequests || b.dir == 3 {
		return
	}
	s, d := quantiles(b.starts, 0.25, 0.75), quantiles(b.ends, 0.25, 0.75)
	e.fenced, e.flipped = true, b.dir == 2
	e.startFence = s[1] + fenceIQRs*(s[1]-s[0])
	e.endFence = d[0] - fenceIQRs*(d[1]-d[0])
}

// quantiles returns the values of xs (not empty) at the sorted positions
// ⌊q·(n−1)⌋ of the ascending fractions qs, reordering xs.
func quantiles(xs []int64, qs ...float64) []int64 {
	ks := make([]int, len(qs))
	for j, q := range qs {
		ks[j] = int(q * float64(len(xs)-1))
	}
	return selectInts(xs, ks...)
}

// lowerMedian returns the lower median of xs, reordering it; 0 for none.
func lowerMedian(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	return selectInts(xs, (len(xs)-1)/2)[0]
}

// hostClock is one host's clock relative to the reference of its connected
// component of the host graph, ns: subtract est from its instants.
type hostClock struct {
	ref        int32
	est        float64
	low, high  float64
	requests   int64 // fewest joined requests along the chain
	consistent bool
	via        []int32 // intermediate hosts of the chain
	depth      int     // edges from the reference
	parent     int32   // the previous host of the chain; -1 for the reference
}

// shift is what to subtract from the host's instants, ns.
func (h *hostClock) shift() int64 { return int64(math.Round(h.est)) }

// uncertainty bounds how far the estimate may be from the true offset, ns.
func (h *hostClock) uncertainty() int64 {
	return int64(math.Ceil(max(h.est-h.low, h.high-h.est, 0)))
}

// chainStep returns the clock of host "to" reached from "from" over an edge
// whose estimate e is θ = clock(to) − clock(from) when forward, or
// clock(from) − clock(to) otherwise.
func chainStep(from *hostClock, e offsetEstimate, forward bool) hostClock {
	h := hostClock{ref: from.ref, depth: from.depth + 1,
		requests: e.requests, consistent: from.consistent && e.consistent}
	if from.depth > 0 {
		h.requests = min(h.requests, from.requests)
	}
	if forward {
		h.est, h.low, h.high = from.est+e.est, from.low+e.low, from.high+e.high
	} else {
		h.est, h.low, h.high = from.est-e.est, from.low-e.high, from.high-e.low
	}
	return h
}
