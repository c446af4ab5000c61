package analyze

import (
	"math"
	"slices"

	"github.com/ttftrace/ttftrace/analyze/internal/order"
	"github.com/ttftrace/ttftrace/dataset"
)

// buildSeries turns the windows of one source into Series; points carry the
// window start, RFC 3339 UTC. Windows without samples have nil percentiles;
// rates are 0 in an empty window, error rates nil (no requests to divide by).
// The windows' ok lists are rows of c.
func buildSeries(src string, c *dataset.Columns, ws []windowAcc, g grid, withGoodput bool) []Series {
	sec := g.width.Seconds()
	var pp percentilePoints
	ttft, itl := findMetric(coreMetrics, "ttft"), findMetric(coreMetrics, "itl")
	mk := func(metric, unit string, point func(w *windowAcc) Point) Series {
		s := Series{Source: src, Metric: metric, Unit: unit, Window: formatWindow(g.width), Points: make([]Point, len(ws))}
		for i := range ws {
			s.Points[i] = point(&ws[i])
			s.Points[i].T = rfc3339(g.start(i))
		}
		return s
	}
	out := []Series{
		mk("ttft", "ms", func(w *windowAcc) Point { return pp.point(c, w.ok, ttft) }),
		mk("itl", "ms", func(w *windowAcc) Point { return pp.point(c, w.ok, itl) }),
		mk("request_rate", "requests/s", func(w *windowAcc) Point {
			return Point{Count: w.started, Value: ptr(float64(w.started) / sec)}
		}),
		mk("output_tps", "tokens/s", func(w *windowAcc) Point {
			return Point{Count: int64(w.tokens + 0.5), Value: ptr(w.tokens / sec)}
		}),
		mk("concurrency", "requests", func(w *windowAcc) Point {
			return Point{Count: w.overlapping, Value: ptr(w.busyNs / float64(g.width))}
		}),
		mk("error_rate", "fraction", func(w *windowAcc) Point { return errorPoint(w, "") }),
	}
	for _, c := range failureClasses(ws) {
		out = append(out, mk("error_rate."+c, "fraction", func(w *windowAcc) Point { return errorPoint(w, c) }))
	}
	if withGoodput {
		out = append(out, mk("goodput", "requests/s", func(w *windowAcc) Point {
			return Point{Count: w.good, Value: ptr(float64(w.good) / sec)}
		}))
	}
	return out
}

// percentilePoints computes windows' percentile points in one reused
// sample buffer and sort scratch.
type percentilePoints struct {
	buf    []float64
	sorter floatSorter
}

// point returns the count, median and p99 of metric d's samples over the
// requests of rows ok of c.
func (pp *percentilePoints) point(c *dataset.Columns, ok []int32, d *metricDef) Point {
	if need := sampleNeeds[d.name]; need != nil && !slices.ContainsFunc(ok, func(row int32) bool { return need(event{c, int(row)}) }) {
		return Point{} // no request can give a sample (an engine logs no chunks)
	}
	buf := pp.buf[:0] // a local: no write barrier per sample
	var r request
	for _, row := range ok {
		r.resolve(event{c, int(row)}, d.reads)
		buf = d.samples(&r, buf)
	}
	pp.buf = buf
	p := Point{Count: int64(len(buf))}
	if len(buf) == 0 {
		return p
	}
	pp.order(buf, 0.5, 0.99)
	p50, _ := Quantile(buf, 0.5)
	p99, _ := Quantile(buf, 0.99)
	p.P50, p.P99 = &p50, &p99
	return p
}

// order puts in place, in samples, the values Quantile reads for each of
// qs (ascending), as sorting them would: by selection (order.Select) when
// they hold no NaN nor −0 (whose place among equals a selection would not
// keep as slices.Sort does), else by sorting. A window needs two
// quantiles, not its samples sorted.
func (pp *percentilePoints) order(samples []float64, qs ...float64) {
	for _, v := range samples {
		if v != v || math.Float64bits(v) == 1<<63 {
			pp.sorter.sort(samples)
			return
		}
	}
	var ks []int
	for _, q := range qs {
		lo, hi := quantileRanks(len(samples), q)
		ks = append(ks, lo, hi)
	}
	order.Select(samples, ks...)
}

// errorPoint returns the fraction of the window's requests that failed (of
// class, or of any class when class is ""), with Count the failures; the
// value is nil when no request started in the window.
func errorPoint(w *windowAcc, class string) Point {
	var failed int64
	for c, n := range w.failed {
		if class == "" || c == class {
			failed += n
		}
	}
	p := Point{Count: failed}
	if w.started > 0 {
		p.Value = ptr(float64(failed) / float64(w.started))
	}
	return p
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
