package report

import (
	"math"
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

type timeSection struct {
	Empty  string
	Window string
	Charts []chartRef
	Left   []string // series not drawn, and why
}

// seriesTitles names the time series metrics in the order they are drawn;
// error_rate.<class> series share one chart, "error_rate.*".
var seriesTitles = []struct{ Metric, Title string }{
	{"ttft", "TTFT over time"},
	{"itl", "ITL over time"},
	{"request_rate", "Request rate"},
	{"output_tps", "Output tokens per second"},
	{"concurrency", "Mean in-flight requests"},
	{"error_rate", "Error rate, any class"},
	{"error_rate.*", "Error rate by class"},
	{"goodput", "Goodput (requests meeting every SLO)"},
}

// chartKey is the chart a series is drawn on: error_rate.<class> series
// share "error_rate.*".
func chartKey(metric string) string {
	if strings.HasPrefix(metric, "error_rate.") {
		return "error_rate.*"
	}
	return metric
}

func seriesRank(metric string) int {
	for i, t := range seriesTitles {
		if t.Metric == metric {
			return i
		}
	}
	return len(seriesTitles)
}

func buildTime(a *analyze.Analysis, cs *chartSet, pal palette) timeSection {
	if len(a.Timeseries) == 0 {
		return timeSection{Empty: "No source logged wall-clock instants, so there is nothing to place on a time axis."}
	}
	s := timeSection{Window: a.Timeseries[0].Window}
	byChart := map[string][]analyze.Series{}
	var keys []string
	for _, ts := range a.Timeseries {
		if emptySeries(ts) {
			s.Left = append(s.Left, ts.Source+" "+ts.Metric)
			continue
		}
		k := chartKey(ts.Metric)
		if _, ok := byChart[k]; !ok {
			keys = append(keys, k)
		}
		byChart[k] = append(byChart[k], ts)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		ri, rj := seriesRank(keys[i]), seriesRank(keys[j])
		return ri < rj || ri == rj && keys[i] < keys[j]
	})
	for _, k := range keys {
		ss := byChart[k]
		sort.SliceStable(ss, func(i, j int) bool { return lessSourceMetric(ss[i].Source, ss[i].Metric, ss[j].Source, ss[j].Metric) })
		s.Charts = append(s.Charts, timeChart(cs, pal, k, ss))
	}
	return s
}

// countedOnly are the series whose zero windows mean the source logged
// nothing to count (a proxy that logs no tokens has an output_tps series
// of zeros; one that logs no end, a concurrency of zeros). A zero error
// rate or goodput is a figure, not an absence.
var countedOnly = []string{"output_tps", "concurrency"}

// emptySeries reports whether a series has nothing to draw: no window has
// a value or a percentile, or it is a countedOnly series that counted
// nothing in any window.
func emptySeries(s analyze.Series) bool {
	counted := contains(countedOnly, s.Metric)
	for _, p := range s.Points {
		if p.P50 != nil || p.P99 != nil || p.Value != nil && !counted || counted && p.Count > 0 {
			return false
		}
	}
	return true
}

// timeChart draws one chart over time: p50 (solid) and p99 (dashed) for
// latency series, with the samples per window on a right axis and windows
// with too few samples as hollow points; the value for rate series; one
// colour per source.
func timeChart(cs *chartSet, pal palette, key string, ss []analyze.Series) chartRef {
	name := key
	if r := seriesRank(key); r < len(seriesTitles) {
		name = seriesTitles[r].Title
	}
	latency := hasPercentiles(ss[0])
	var series []obj
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		c := pal.of(s.Source)
		if !latency {
			label, line := esc(s.Source), "solid"
			if key == "error_rate.*" {
				class := strings.TrimPrefix(s.Metric, "error_rate.")
				label += " " + esc(class)
				c, line = classColor(class, len(series)), []string{"solid", "dashed", "dotted", "dotted"}[min(sourceRank(s.Source), 3)]
			}
			series = append(series, valueSeries(label, c, line, s))
			continue
		}
		pts := make([]sparsePoint, len(s.Points))
		var counts [][2]any
		for i, p := range s.Points {
			pts[i] = sparsePoint{p.T, p.P50, p.P99, p.Count}
			counts = append(counts, [2]any{p.T, p.Count})
			for _, v := range []*float64{p.P50, p.P99} {
				if v != nil && *v > 0 {
					lo, hi = math.Min(lo, *v), math.Max(hi, *v)
				}
			}
		}
		series = append(series, sparseSeries(esc(s.Source)+" p50", c, false, pts, func(q sparsePoint) (*float64, bool) { return q.a, q.n >= analyze.MinSamples(0.5) })...)
		series = append(series, sparseSeries(esc(s.Source)+" p99", c, true, pts, func(q sparsePoint) (*float64, bool) { return q.b, q.n >= analyze.MinSamples(0.99) })...)
		series = append(series, obj{"type": "bar", "name": esc(s.Source) + " samples", "color": c, "yAxisIndex": 1,
			"data": counts, "itemStyle": obj{"opacity": 0.18}, "barMaxWidth": 16, "z": 1})
	}
	unit := ss[0].Unit
	sub := unit + " per " + ss[0].Window + " window"
	y := []obj{yValueAxis(esc(unit))}
	grid := obj{"top": 40, "left": 80, "right": 30, "bottom": 40}
	if key == "error_rate.*" {
		sub += " · colour: class · line: solid client, dashed proxy, dotted server"
	}
	if latency {
		sub += " · solid p50, dashed p99 · hollow points: fewer samples than the percentile needs (p50 " +
			fmtCount(analyze.MinSamples(0.5)) + ", p99 " + fmtCount(analyze.MinSamples(0.99)) + ") · bars: samples per window (right axis)"
		if spansDecades(lo, hi) {
			y[0] = logAxis(y[0], lo, hi)
			sub += " · log scale"
		}
		n := yValueAxis("samples")
		n["position"], n["nameGap"], n["splitLine"] = "right", 40, obj{"show": false}
		y, grid["right"] = append(y, n), 60
	}
	return cs.add(caption{name, sub}, 300, obj{
		"legend":  legend(),
		"tooltip": axisTooltip(),
		"grid":    grid,
		"xAxis": obj{"type": "time", "axisLabel": obj{"hideOverlap": true,
			"formatter": obj{"day": "{MMM} {d}", "hour": "{HH}:{mm}", "minute": "{HH}:{mm}"}}},
		"yAxis":  y,
		"series": series,
	})
}

// valueSeries draws a rate series' value per window with a line of type
// line (solid, dashed, dotted).
func valueSeries(name, color, line string, s analyze.Series) obj {
	var val [][2]any
	for _, p := range s.Points {
		val = append(val, [2]any{p.T, nullable(p.Value)})
	}
	return obj{"type": "line", "name": name, "color": color, "showSymbol": len(val) < 40, "symbolSize": 4,
		"data": val, "connectNulls": false, "lineStyle": obj{"type": line}}
}

func hasPercentiles(s analyze.Series) bool {
	for _, p := range s.Points {
		if p.P50 != nil || p.P99 != nil {
			return true
		}
	}
	return false
}
