package report

import (
	"sort"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/analyze/reconcile"
)

// distributionsOf returns the distributions of one metric, sources outside in.
func distributionsOf(a *analyze.Analysis, metric string) []analyze.Distribution {
	var out []analyze.Distribution
	for _, d := range a.Distributions {
		if d.Metric == metric {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return lessSourceMetric(out[i].Source, "", out[j].Source, "")
	})
	return out
}

func buildTTFT(a *analyze.Analysis, cs *chartSet, pal palette) chartSection {
	ds := distributionsOf(a, "ttft")
	if len(ds) == 0 {
		return chartSection{Empty: "No source logged both the start of a request and its first token, so there is no TTFT distribution."}
	}
	c := caption{"TTFT distribution", "top: CDF · bottom: histogram · " + ds[0].Unit}
	s := chartSection{Charts: []chartRef{distributionChart(cs, pal, c, "ttft", ds[0].Unit, ds)}}
	if len(ds) == 1 {
		s.Note = "Only the " + ds[0].Source + " logged TTFT, so there is nothing to set it against."
	}
	s.Points = measurementNotes(a)
	return s
}

type breakdownSection struct {
	Empty string
	Chart *chartRef
	Rows  []breakdownRow
	Delta []statRow // one row, or none
	// DeltaEmpty says why there is no client − server TTFT delta.
	DeltaEmpty string
}

type breakdownRow struct {
	Band, Requests, ClientTTFT string
	Parts                      []partCell
}

// partCell is one part of a band: its mean, its share of client TTFT and,
// for the network parts, the interval analyze gives for offsets anywhere
// within their bounds.
type partCell struct{ Value, Share, Range string }

// breakdownParts names the parts of client TTFT, outside in, and reads them.
var breakdownParts = []struct {
	Name  string
	Of    func(reconcile.BreakdownBand) float64
	Range func(reconcile.BreakdownBand) reconcile.RangeMs // nil: on one host's clock, no offset enters
}{
	{"client → proxy", func(b reconcile.BreakdownBand) float64 { return b.ClientToProxyMs },
		func(b reconcile.BreakdownBand) reconcile.RangeMs { return b.ClientToProxyRangeMs }},
	{"proxy → server", func(b reconcile.BreakdownBand) float64 { return b.ProxyToServerMs },
		func(b reconcile.BreakdownBand) reconcile.RangeMs { return b.ProxyToServerRangeMs }},
	{"server queue", func(b reconcile.BreakdownBand) float64 { return b.ServerQueueMs }, nil},
	{"server prefill", func(b reconcile.BreakdownBand) float64 { return b.ServerPrefillMs }, nil},
	{"server other", func(b reconcile.BreakdownBand) float64 { return b.ServerOtherMs }, nil},
	{"return path", func(b reconcile.BreakdownBand) float64 { return b.ReturnPathMs },
		func(b reconcile.BreakdownBand) reconcile.RangeMs { return b.ReturnPathRangeMs }},
}

func buildBreakdown(a *analyze.Analysis, cs *chartSet) breakdownSection {
	var s breakdownSection
	if a.TTFTDelta != nil {
		r := statRowOf(*a.TTFTDelta)
		r.Metric, r.Spans = "client ttft − server ttft", "client (start → first_token) − server (start → first_token)"
		s.Delta = []statRow{r}
	} else {
		s.DeltaEmpty = "No request was matched between client and server, so client − server TTFT is unknown."
	}
	if len(a.TTFTBreakdown) == 0 {
		s.Empty = "No request was seen by client, proxy and server with clock offsets known for all three, so client TTFT cannot be split into its parts."
		return s
	}
	for _, b := range a.TTFTBreakdown {
		r := breakdownRow{Band: b.Band, Requests: fmtCount(b.Requests), ClientTTFT: fmtValue(b.ClientTTFTMs)}
		for _, p := range breakdownParts {
			c := partCell{Value: fmtValue(p.Of(b))}
			if b.ClientTTFTMs != 0 {
				c.Share = fmtPct(p.Of(b) / b.ClientTTFTMs)
			}
			if p.Range != nil {
				r := p.Range(b)
				c.Range = fmtValue(r.LowMs) + " – " + fmtValue(r.HighMs)
			}
			r.Parts = append(r.Parts, c)
		}
		s.Rows = append(s.Rows, r)
	}
	ref := breakdownChart(cs, a.TTFTBreakdown)
	s.Chart = &ref
	return s
}

// breakdownChart stacks the parts of client TTFT, one bar per band.
func breakdownChart(cs *chartSet, bands []reconcile.BreakdownBand) chartRef {
	var cats []string
	for _, b := range bands {
		cats = append(cats, esc(b.Band)+" ("+fmtCount(b.Requests)+")")
	}
	var series []obj
	for i, p := range breakdownParts {
		var data []float64
		for _, b := range bands {
			data = append(data, p.Of(b))
		}
		series = append(series, obj{"type": "bar", "name": p.Name, "stack": "ttft", "data": data,
			"color": partColors[i], "barMaxWidth": 34})
	}
	return cs.add(caption{"Mean client TTFT by part", "band of client TTFT (requests) · ms"}, 30+50*len(bands)+70, obj{
		"legend":  bottomLegend(),
		"tooltip": obj{"trigger": "axis", "axisPointer": obj{"type": "shadow"}, "confine": true},
		"grid":    obj{"top": 15, "left": 110, "right": 30, "bottom": 70},
		"xAxis":   valueAxis(""),
		"yAxis":   categoryAxis(cats),
		"series":  series,
	})
}

type distSection struct {
	Empty       string
	Charts      []chartRef
	Position    *chartRef
	PositionMsg string
}

func buildDists(a *analyze.Analysis, cs *chartSet, pal palette) distSection {
	var s distSection
	var metrics []string
	seen := map[string]bool{}
	for _, d := range a.Distributions {
		if d.Metric != "ttft" && !seen[d.Metric] {
			seen[d.Metric] = true
			metrics = append(metrics, d.Metric)
		}
	}
	sort.SliceStable(metrics, func(i, j int) bool { return lessSourceMetric("", metrics[i], "", metrics[j]) })
	for _, m := range metrics {
		ds := distributionsOf(a, m)
		c := caption{m + " distribution", "top: CDF · bottom: histogram of " + binCounts(m) + " · " + ds[0].Unit}
		s.Charts = append(s.Charts, distributionChart(cs, pal, c, m, ds[0].Unit, ds))
	}
	if len(metrics) == 0 {
		s.Empty = "No distribution other than TTFT was computed: no source logged chunk arrivals, token counts or ends of requests."
	}
	if len(a.ITLByPosition) == 0 {
		s.PositionMsg = "No source logged per-chunk arrival times, so ITL by token position is unknown."
		return s
	}
	ref := positionChart(cs, pal, a.ITLByPosition)
	s.Position = &ref
	return s
}

// positionChart draws the median and p90 gap before each output token, a
// line where enough requests reached the position for the percentile to be
// a figure (analyze.MinSamples) and hollow points where too few did, and
// the number of requests reaching each position on the right axis.
func positionChart(cs *chartSet, pal palette, ps []analyze.PositionSeries) chartRef {
	var series []obj
	for _, p := range ps {
		c := pal.of(p.Source)
		pts := make([]sparsePoint, len(p.Points))
		var counts [][2]float64
		for i, pt := range p.Points {
			pts[i] = sparsePoint{float64(pt.Position), f64(pt.P50), f64(pt.P90), pt.Count}
			counts = append(counts, [2]float64{float64(pt.Position), float64(pt.Count)})
		}
		series = append(series, sparseSeries(esc(p.Source)+" p50", c, false, pts, func(q sparsePoint) (*float64, bool) { return q.a, q.n >= analyze.MinSamples(0.5) })...)
		series = append(series, sparseSeries(esc(p.Source)+" p90", c, true, pts, func(q sparsePoint) (*float64, bool) { return q.b, q.n >= analyze.MinSamples(0.9) })...)
		series = append(series, obj{"type": "line", "name": esc(p.Source) + " requests", "color": c, "showSymbol": false,
			"yAxisIndex": 1, "data": counts, "lineStyle": obj{"width": 1, "opacity": 0.35}, "z": 1})
	}
	x := valueAxis("output token position")
	x["min"] = 1
	n := yValueAxis("requests reaching it")
	n["position"], n["nameGap"], n["splitLine"] = "right", 44, obj{"show": false}
	return cs.add(caption{"ITL by output token position", "gap before output token n · ms · solid p50, dashed p90 · hollow points: fewer than " +
		fmtCount(analyze.MinSamples(0.9)) + " requests reached the position · faint: requests reaching it (right axis)"}, 340, obj{
		"legend":  legend(),
		"tooltip": axisTooltip(),
		"grid":    obj{"top": 40, "left": 80, "right": 70, "bottom": 50},
		"xAxis":   x,
		"yAxis":   []obj{yValueAxis("ms"), n},
		"series":  series,
	})
}
