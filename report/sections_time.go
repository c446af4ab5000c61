package report

import (
	"sort"

	"github.com/ttftrace/ttftrace/analyze"
)

type timeSection struct {
	Empty  string
	Window string
	Charts []chartRef
}

// seriesTitles names the time series metrics in the order they are drawn.
var seriesTitles = []struct{ Metric, Title string }{
	{"ttft", "TTFT over time"},
	{"itl", "ITL over time"},
	{"request_rate", "Request rate"},
	{"output_tps", "Output tokens per second"},
	{"concurrency", "Mean in-flight requests"},
	{"error_rate", "Error rate"},
	{"goodput", "Goodput (requests meeting every SLO)"},
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
	byMetric := map[string][]analyze.Series{}
	var metrics []string
	for _, s := range a.Timeseries {
		if _, ok := byMetric[s.Metric]; !ok {
			metrics = append(metrics, s.Metric)
		}
		byMetric[s.Metric] = append(byMetric[s.Metric], s)
	}
	sort.SliceStable(metrics, func(i, j int) bool {
		ri, rj := seriesRank(metrics[i]), seriesRank(metrics[j])
		return ri < rj || ri == rj && metrics[i] < metrics[j]
	})
	s := timeSection{Window: a.Timeseries[0].Window}
	for _, m := range metrics {
		ss := byMetric[m]
		sort.SliceStable(ss, func(i, j int) bool { return lessSourceMetric(ss[i].Source, "", ss[j].Source, "") })
		s.Charts = append(s.Charts, timeChart(cs, pal, m, ss))
	}
	return s
}

// timeChart draws one metric over time: p50 (solid) and p99 (dashed) for
// latency series, the value for rate series; one colour per source.
func timeChart(cs *chartSet, pal palette, metric string, ss []analyze.Series) chartRef {
	name := esc(metric)
	if r := seriesRank(metric); r < len(seriesTitles) {
		name = seriesTitles[r].Title
	}
	var series []obj
	latency := false
	for _, s := range ss {
		var p50, p99, val [][2]any
		for _, p := range s.Points {
			p50 = append(p50, [2]any{p.T, nullable(p.P50)})
			p99 = append(p99, [2]any{p.T, nullable(p.P99)})
			val = append(val, [2]any{p.T, nullable(p.Value)})
		}
		c := pal.of(s.Source)
		line := func(n string, data [][2]any, dashed bool) obj {
			o := obj{"type": "line", "name": n, "color": c, "showSymbol": len(data) < 40, "symbolSize": 4,
				"data": data, "connectNulls": false}
			if dashed {
				o["lineStyle"] = obj{"type": "dashed"}
			}
			return o
		}
		if hasPercentiles(s) {
			latency = true
			series = append(series, line(esc(s.Source)+" p50", p50, false), line(esc(s.Source)+" p99", p99, true))
		} else {
			series = append(series, line(esc(s.Source), val, false))
		}
	}
	unit := esc(ss[0].Unit)
	sub := unit + " per " + esc(ss[0].Window) + " window"
	if latency {
		sub += " · solid p50, dashed p99"
	}
	return cs.add(320, obj{
		"title":   title(name, sub),
		"legend":  legend(),
		"tooltip": axisTooltip(),
		"grid":    obj{"top": 80, "left": 80, "right": 30, "bottom": 40},
		"xAxis": obj{"type": "time", "axisLabel": obj{"hideOverlap": true,
			"formatter": obj{"day": "{MMM} {d}", "hour": "{HH}:{mm}", "minute": "{HH}:{mm}"}}},
		"yAxis":  yValueAxis(unit),
		"series": series,
	})
}

func hasPercentiles(s analyze.Series) bool {
	for _, p := range s.Points {
		if p.P50 != nil || p.P99 != nil {
			return true
		}
	}
	return false
}
