package analyze

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

const (
	targetWindows = 60     // an automatic window gives at most about this many
	maxWindows    = 10_000 // a given window giving more is replaced by an automatic one
)

// niceWindows are the automatic window widths, smallest first; spans too
// long for 60 days use whole days.
var niceWindows = []time.Duration{
	time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second,
	time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 6 * time.Hour, 24 * time.Hour,
}

// grid is the time-series windows: n windows of width starting at origin,
// Unix nanoseconds, aligned to multiples of width since 1970-01-01 UTC.
type grid struct {
	origin int64
	width  time.Duration
	n      int
}

// index returns the window holding ns, and false outside the grid.
func (g grid) index(ns int64) (int, bool) {
	if g.n == 0 || ns < g.origin {
		return 0, false
	}
	i := (ns - g.origin) / int64(g.width)
	return int(i), i < int64(g.n)
}

// start returns the Unix nanosecond start of window i.
func (g grid) start(i int) int64 { return g.origin + int64(i)*int64(g.width) }

// chooseGrid lays windows over the wall-clock events, from the earliest
// start to the latest start or end. The width is want, or automatic when
// want is 0 or would give more than maxWindows windows (with a note).
func chooseGrid(c *dataset.Columns, want time.Duration) (grid, []string) {
	var lo, hi instant
	for i := range c.Rows {
		e := event{c, i}
		start := e.at(&c.StartNs)
		if !start.ok || e.clock() != schema.ClockWall {
			continue
		}
		s, end := start.ns, start.ns
		if t := e.at(&c.EndNs); t.ok {
			end = max(end, t.ns)
		}
		if !lo.ok || s < lo.ns {
			lo = instant{s, true}
		}
		if !hi.ok || end > hi.ns {
			hi = instant{end, true}
		}
	}
	if !lo.ok {
		return grid{}, nil
	}
	if hi.ns-lo.ns < 0 { // the instants are so far apart that their difference overflows
		return grid{}, []string{"the wall-clock instants span more than 292 years: no time series"}
	}
	span := time.Duration(hi.ns - lo.ns)
	var notes []string
	w := want
	if w > 0 && int64(span/w) >= maxWindows {
		notes = append(notes, fmt.Sprintf("--window %s would give more than %d windows over %s: using an automatic window", formatWindow(w), maxWindows, span))
		w = 0
	}
	if w <= 0 {
		w = autoWindow(span)
	}
	origin := floorDiv(lo.ns, int64(w)) * int64(w)
	return grid{origin: origin, width: w, n: int((hi.ns-origin)/int64(w)) + 1}, notes
}

// autoWindow returns the smallest nice width giving at most 60 windows over
// span, or whole days beyond 60 days.
func autoWindow(span time.Duration) time.Duration {
	for _, w := range niceWindows {
		if span <= targetWindows*w {
			return w
		}
	}
	day := 24 * time.Hour
	days := (span + targetWindows*day - 1) / (targetWindows * day)
	return days * day
}

// floorDiv is a / b rounded towards −∞, for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// windowAcc collects one window of one source.
type windowAcc struct {
	ok          []int32 // successful requests started in the window, as event rows
	started     int64   // requests started in the window
	good        int64   // successful requests started in the window meeting every SLO
	failed      map[string]int64
	tokens      float64 // output tokens observed in the window
	busyNs      float64 // sum over requests of their overlap with the window
	overlapping int64   // requests in flight at some time in the window
}

// timeseries returns the source's series over the grid, from its
// wall-clock events placed by their start instant (output tokens by their
// arrival, concurrency by overlap). Order: ttft, itl, request_rate,
// output_tps, concurrency, error_rate, error_rate.<class>…, goodput.
func timeseries(c *dataset.Columns, src string, rows []int32, g grid, slo map[string]float64, defs []metricDef) []Series {
	if g.n == 0 {
		return nil
	}
	ws := make([]windowAcc, g.n)
	sizeOK(ws, c, rows, g)
	seen := false
	var r request // one for the loop: its address escapes into meetsSLO's samples
	for _, row := range rows {
		i, ok := windowOf(c, row, g)
		if !ok {
			continue
		}
		seen = true
		r.resolve(event{c, int(row)}, allFields)
		if addToWindow(&ws[i], &r, slo, defs) {
			ws[i].ok = append(ws[i].ok, row)
		}
		placeTokens(ws, g, &r)
		addOverlap(ws, g, &r)
	}
	if !seen {
		return nil
	}
	return buildSeries(src, c, ws, g, len(slo) > 0)
}

// windowOf returns the window row of c started in, and false for a row
// without a wall-clock start in the grid.
func windowOf(c *dataset.Columns, row int32, g grid) (int, bool) {
	e := event{c, int(row)}
	start := e.at(&c.StartNs)
	if !start.ok || e.clock() != schema.ClockWall {
		return 0, false
	}
	return g.index(start.ns)
}

// sizeOK gives each window's ok list room for the successful requests
// started in it, so that the lists are allocated once (growing them by
// append left their earlier arrays as garbage).
func sizeOK(ws []windowAcc, c *dataset.Columns, rows []int32, g grid) {
	counts := make([]int, len(ws))
	for _, row := range rows {
		if i, ok := windowOf(c, row, g); ok && succeeded(event{c, int(row)}) {
			counts[i]++
		}
	}
	for i, n := range counts {
		if n > 0 {
			ws[i].ok = make([]int32, 0, n)
		}
	}
}

// addToWindow counts r in the window it started in, and reports whether it
// succeeded (its latency samples then belong to the window).
func addToWindow(w *windowAcc, r *request, slo map[string]float64, defs []metricDef) bool {
	w.started++
	if !succeeded(r.e) {
		if w.failed == nil {
			w.failed = map[string]int64{}
		}
		w.failed[failureClass(r.e)]++
		return false
	}
	if len(slo) > 0 && meetsSLO(r, slo, defs) {
		w.good++
	}
	return true
}

// meetsSLO reports whether a successful request meets every SLO on a known
// metric: its value (for pooled metrics such as itl, its largest sample)
// at most the limit, except tps_user, which must be at least the limit. A
// request lacking a metric an SLO names does not meet it.
func meetsSLO(r *request, slo map[string]float64, defs []metricDef) bool {
	for name, limit := range slo {
		d := findMetric(defs, name)
		if d == nil {
			continue
		}
		vals := d.samples(r, nil)
		if len(vals) == 0 {
			return false
		}
		if name == "tps_user" {
			if slices.Min(vals) < limit {
				return false
			}
		} else if slices.Max(vals) > limit {
			return false
		}
	}
	return true
}

// placeTokens adds r's output tokens to the windows they arrived in: at each
// chunk's arrival (ChunkTokens each, else the output tokens spread evenly
// over the chunks, else one per chunk), or all at end without chunk times.
func placeTokens(ws []windowAcc, g grid, r *request) {
	var off dataset.ChunkOffsets
	if r.e.c.ChunkOffsetsNs.Has(r.e.i) { // most proxy and server rows have none
		off = r.e.chunkOffsets()
	}
	n := off.Len()
	if n == 0 {
		if i, ok := g.index(r.end.ns); r.end.ok && ok {
			ws[i].tokens += float64(r.tokens)
		}
		return
	}
	chunkTokens := r.e.chunkTokensList()
	even := 1.0
	if out, ok := r.e.outputTokens(); ok && len(chunkTokens) != n {
		even = float64(max(out, 0)) / float64(n)
	}
	o := off.First
	for c := range n {
		if c > 0 {
			o += off.Gap(c)
		}
		i, ok := g.index(r.start.ns + o)
		if !ok {
			continue
		}
		if len(chunkTokens) == n {
			ws[i].tokens += float64(max(chunkTokens[c], 0))
		} else {
			ws[i].tokens += even
		}
	}
}

// addOverlap adds the overlap of r's [start, end] (end: else its last
// token) with each window to that window's busy time.
func addOverlap(ws []windowAcc, g grid, r *request) {
	end := r.end
	if !end.ok {
		end = r.last
	}
	if !end.ok || end.ns < r.start.ns {
		return
	}
	first, _ := g.index(r.start.ns)
	for i := first; i < g.n && g.start(i) <= end.ns; i++ {
		lo := max(r.start.ns, g.start(i))
		hi := min(end.ns, g.start(i)+int64(g.width))
		if hi < lo || (hi == lo && r.start.ns != end.ns) {
			continue // touches the window only at a bound
		}
		ws[i].busyNs += float64(hi - lo)
		ws[i].overlapping++
	}
}

// failureClasses returns the classes failed in any window, in classOrder.
func failureClasses(ws []windowAcc) []string {
	set := map[string]bool{}
	for i := range ws {
		for c := range ws[i].failed {
			set[c] = true
		}
	}
	return orderedKeys(slices.Collect(maps.Keys(set)), classOrder)
}
