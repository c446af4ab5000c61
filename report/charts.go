package report

import (
	"html"
	"math"

	"github.com/ttftrace/ttftrace/analyze"
)

// esc HTML-escapes a string from a log before it goes into a chart option:
// ECharts renders tooltips as HTML, so a model named <img onerror=…> must
// reach it as text. The cost is that a name holding & < > " ' shows its
// entity on the canvas, which is the safe way to be wrong.
func esc(s string) string { return html.EscapeString(s) }

// sourceColors keeps each observer's colour the same on every chart and in
// the page's source badges (style.css .src-*): Okabe and Ito's blue, orange
// and bluish green, which stay apart for colour-blind readers.
var sourceColors = map[string]string{"client": "#0072b2", "proxy": "#e69f00", "server": "#009e73"}

var extraColors = []string{"#8e44ad", "#c0392b", "#7f8c8d", "#16a085", "#b7950b"}

// colorOf returns the colour of a source; other sources take colours from a
// fixed list in the order they are first asked for.
type palette map[string]string

func (p palette) of(source string) string {
	if c, ok := sourceColors[source]; ok {
		return c
	}
	if c, ok := p[source]; ok {
		return c
	}
	c := extraColors[len(p)%len(extraColors)]
	p[source] = c
	return c
}

// partColors are the TTFT breakdown parts, outside in.
var partColors = []string{"#9ecae1", "#4292c6", "#fdae6b", "#e6550d", "#bdbdbd", "#74c476"}

// legend sits at the top left. The page (boot.js wrapLegend) wraps it into
// as many rows as its entries need and moves the plot down by them; without
// the page's script it scrolls on one line. Either way it never covers the
// plot or its axis labels.
func legend() obj { return obj{"top": 0, "left": 0, "type": "scroll"} }

// bottomLegend is a one-line legend under the plot.
func bottomLegend() obj { return obj{"bottom": 0, "left": 0, "type": "scroll"} }

func axisTooltip() obj { return obj{"trigger": "axis", "confine": true} }

func valueAxis(name string) obj {
	return obj{"type": "value", "name": name, "nameLocation": "middle", "nameGap": 28,
		"scale": false, "splitLine": obj{"lineStyle": obj{"color": "#eee"}}}
}

// yValueAxis is a vertical value axis; its name clears the tick labels.
func yValueAxis(name string) obj {
	a := valueAxis(name)
	a["nameGap"] = 52
	return a
}

// decades is how far apart two positive bounds must be (hi/lo) for a
// latency axis to be logarithmic: beyond it, a linear axis squeezes the
// bulk of the data into a sliver next to zero.
const decades = 30

// spansDecades reports whether [lo, hi] calls for a log axis.
func spansDecades(lo, hi float64) bool { return lo > 0 && hi/lo >= decades }

// logAxis turns a value axis logarithmic, from the power of ten at or below
// lo to hi rounded up (niceCeil), so no decade is left empty.
func logAxis(a obj, lo, hi float64) obj {
	a["type"], a["logBase"] = "log", 10
	a["min"], a["max"] = math.Pow(10, math.Floor(math.Log10(lo))), niceCeil(hi)
	a["minorSplitLine"] = obj{"show": true, "lineStyle": obj{"color": "#f4f4f4"}}
	return a
}

// binCounts names what a histogram of metric counts: ITL and chunk gaps are
// pooled over token gaps, every other metric has one sample per request.
func binCounts(metric string) string {
	switch metric {
	case "itl", "vllm.itl", "guidellm.itl":
		return "token gaps per bin"
	case "chunk_gap":
		return "chunk gaps per bin"
	}
	return "requests per bin"
}

// distributionChart draws one metric's CDF (top grid) and histogram (bottom
// grid) for every source, on one x range so the two read together; the x
// axis is logarithmic when the values span decades.
func distributionChart(cs *chartSet, pal palette, c caption, metric, unit string, ds []analyze.Distribution) chartRef {
	lo, hi, minPos := math.Inf(1), math.Inf(-1), math.Inf(1)
	for _, d := range ds {
		for _, e := range d.Edges {
			lo, hi = math.Min(lo, e), math.Max(hi, e)
		}
		for _, p := range d.CDF {
			lo, hi = math.Min(lo, p[0]), math.Max(hi, p[0])
		}
		for _, e := range append(append([]float64(nil), d.Edges...), cdfXs(d)...) {
			if e > 0 {
				minPos = math.Min(minPos, e)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	log := spansDecades(minPos, hi)
	lo, hi = math.Min(lo, 0), niceCeil(hi)
	var series []obj
	for _, d := range ds {
		series = append(series, cdfSeries(d, pal.of(d.Source), log), histSeries(d, pal.of(d.Source), log))
	}
	x := func(grid int, name string) obj {
		a := valueAxis(name)
		a["gridIndex"], a["min"], a["max"] = grid, lo, hi
		if log {
			a = logAxis(a, minPos, hi)
		}
		return a
	}
	cdfAxis := yValueAxis("fraction ≤ x")
	cdfAxis["max"] = 1
	histAxis := yValueAxis(binCounts(metric))
	histAxis["gridIndex"] = 1
	if log {
		c.Sub += " · log scale"
	}
	return cs.add(c, 420, obj{
		"legend":   legend(),
		"tooltip":  axisTooltip(),
		"grid":     []obj{{"top": 40, "height": 160, "left": 80, "right": 30}, {"top": 250, "height": 120, "left": 80, "right": 30}},
		"xAxis":    []obj{x(0, ""), x(1, esc(unit))},
		"yAxis":    []obj{cdfAxis, histAxis},
		"dataZoom": []obj{{"type": "inside", "xAxisIndex": []int{0, 1}}},
		"series":   series,
	})
}

func cdfXs(d analyze.Distribution) []float64 {
	xs := make([]float64, len(d.CDF))
	for i, p := range d.CDF {
		xs[i] = p[0]
	}
	return xs
}

// cdfSeries draws d's CDF; on a log axis points at x ≤ 0 are left out.
func cdfSeries(d analyze.Distribution, color string, log bool) obj {
	data := d.CDF
	if log {
		data = nil
		for _, p := range d.CDF {
			if p[0] > 0 {
				data = append(data, p)
			}
		}
	}
	return obj{"type": "line", "name": esc(d.Source), "color": color, "showSymbol": false,
		"xAxisIndex": 0, "yAxisIndex": 0, "data": data, "lineStyle": obj{"width": 2}}
}

// histSeries draws bins [Edges[i], Edges[i+1]) as a step line: each point
// holds its bin's count until the next edge, and the last bin closes at 0.
func histSeries(d analyze.Distribution, color string, log bool) obj {
	var data [][2]float64
	for i, c := range d.Counts {
		if i < len(d.Edges) {
			data = append(data, [2]float64{d.Edges[i], float64(c)})
		}
	}
	if n := len(d.Counts); n > 0 && n < len(d.Edges) {
		data = append(data, [2]float64{d.Edges[n], float64(d.Counts[n-1])}, [2]float64{d.Edges[n], 0})
	}
	if log {
		kept := data[:0]
		for _, p := range data {
			if p[0] > 0 {
				kept = append(kept, p)
			}
		}
		data = kept
	}
	return obj{"type": "line", "name": esc(d.Source), "color": color, "showSymbol": false, "step": "end",
		"xAxisIndex": 1, "yAxisIndex": 1, "data": data, "areaStyle": obj{"opacity": 0.15},
		"lineStyle": obj{"width": 1.5}}
}

// nullable turns an optional figure into a chart value: null is a gap.
func nullable(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// niceCeil rounds v up to 1, 2, 2.5 or 5 times a power of ten, so an axis
// ends on a round number.
func niceCeil(v float64) float64 {
	if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v <= m*p*(1+1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// categoryAxis is a vertical axis of names, first at the top; its line stays
// at the left edge even when the values cross zero.
func categoryAxis(names []string) obj {
	return obj{"type": "category", "data": names, "inverse": true, "axisLine": obj{"onZero": false},
		"axisLabel": obj{"width": 150, "overflow": "truncate"}}
}
