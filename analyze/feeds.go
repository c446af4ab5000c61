package analyze

import (
	"math"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"

	"github.com/ttftrace/ttftrace/dataset"
)

const (
	histogramBins  = 40   // bins of a Distribution's histogram
	cdfPoints      = 200  // most points of a Distribution's CDF
	maxPosition    = 512  // last token position of ITLByPosition
	scatterPoints  = 2000 // most points of a TTFTByPrompt scatter
	sketchAccuracy = 0.01 // relative accuracy of ITLByPosition's sketches
)

// distributionMetrics are the metrics given a Distribution, in order.
var distributionMetrics = []string{"ttft", "itl", "tpot", "e2e"}

// distributions returns the histogram and CDF of ttft, itl, tpot and e2e of
// group {}, in that order; metrics computes them, so it runs after metrics.
func (acc *sourceAcc) distributions() []Distribution {
	var out []Distribution
	for _, name := range distributionMetrics {
		if d, ok := acc.dists[name]; ok {
			out = append(out, d)
		}
	}
	return out
}

// newDistribution returns the histogram and CDF of sorted, an ascending
// non-empty slice of one metric's samples in ms.
func newDistribution(src, name string, sorted []float64) Distribution {
	edges, counts := histogram(sorted, histogramBins)
	return Distribution{Source: src, Metric: name, Unit: "ms",
		Edges: edges, Counts: counts, CDF: cdf(sorted, cdfPoints)}
}

// histogram bins sorted samples into at most bins bins between the minimum
// and the maximum: log-spaced when the minimum is positive, linear
// otherwise; every bin is [lo, hi) except the last, which is closed. Equal
// samples make one bin [v, v].
func histogram(sorted []float64, bins int) (edges []float64, counts []int64) {
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if lo == hi {
		return []float64{lo, hi}, []int64{int64(len(sorted))}
	}
	edges = make([]float64, bins+1)
	for i := range edges {
		f := float64(i) / float64(bins)
		if lo > 0 {
			edges[i] = lo * math.Pow(hi/lo, f)
		} else {
			edges[i] = lo + (hi-lo)*f
		}
	}
	edges[0], edges[bins] = lo, hi
	counts = make([]int64, bins)
	b := 0
	for _, v := range sorted {
		for b < bins-1 && v >= edges[b+1] {
			b++
		}
		counts[b]++
	}
	return edges, counts
}

// cdf returns [value, fraction of samples ≤ value] pairs from sorted
// samples: every sample when there are at most points, else the samples at
// ranks ⌈j·n/points⌉ for j = 1…points.
func cdf(sorted []float64, points int) [][2]float64 {
	n := len(sorted)
	var out [][2]float64
	if n <= points {
		for i, v := range sorted {
			out = append(out, [2]float64{v, float64(i+1) / float64(n)})
		}
		return out
	}
	for j := 1; j <= points; j++ {
		rank := (j*n + points - 1) / points // ⌈j·n/points⌉, 1-based
		out = append(out, [2]float64{sorted[rank-1], float64(rank) / float64(n)})
	}
	return out
}

// itlByPosition returns the median and p90 of the per-token gap before each
// output token position 2…512 over the successful requests with chunk
// times (token 1 has no gap before it). A chunk of k tokens after a gap g
// places k gaps g/k at its k positions. Quantiles come from one DDSketch
// per position (1% relative accuracy), so memory stays bounded.
func itlByPosition(c *dataset.Columns, src string, rows []int32) (PositionSeries, bool) {
	sketches := make([]*ddsketch.DDSketch, maxPosition+1)
	for _, row := range rows {
		e := event{c, int(row)}
		off := e.chunkOffsets()
		n := off.Len()
		if n < 2 || !succeeded(e) {
			continue
		}
		tokens := e.chunkTokensList()
		pos := chunkTokens(tokens, n, 0) // positions taken by the first chunk
		for i := 1; i < n && pos < maxPosition; i++ {
			k := chunkTokens(tokens, n, i)
			g := float64(off.Gap(i)) / 1e6 / float64(k)
			for j := int64(0); j < k && pos < maxPosition; j++ {
				pos++
				addToSketch(sketches, int(pos), g)
			}
		}
	}
	ps := PositionSeries{Source: src, Points: []PositionPoint{}}
	for p, s := range sketches {
		if s == nil || s.IsEmpty() {
			continue
		}
		q, err := s.GetValuesAtQuantiles([]float64{0.5, 0.9})
		if err != nil {
			continue
		}
		ps.Points = append(ps.Points, PositionPoint{Position: p, Count: int64(s.GetCount()), P50: q[0], P90: q[1]})
	}
	return ps, len(ps.Points) > 0
}

// addToSketch adds v to the sketch of position p, creating it.
func addToSketch(sketches []*ddsketch.DDSketch, p int, v float64) {
	if sketches[p] == nil {
		// The default mapping with a dense store: the same bins and counts,
		// so the same quantiles, as the default sketch's paginated store,
		// with cheaper adds (ITL by position: ~5M adds at 20k requests). A
		// dense store spans its smallest to largest bin; gaps are int64 ns
		// over at most maxWeight tokens, so at most ~2,700 bins per sign.
		m, err := mapping.NewDefaultMapping(sketchAccuracy)
		if err != nil { // only for an invalid accuracy, which is a constant
			return
		}
		sketches[p] = ddsketch.NewDDSketchFromStoreProvider(m, store.DenseStoreConstructor)
	}
	_ = sketches[p].Add(v) // Add fails only for values beyond ±1e300ish
}
