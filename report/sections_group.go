package report

import (
	"sort"

	"github.com/ttftrace/ttftrace/analyze"
)

type groupSection struct {
	Empty      string
	Tables     []groupTable
	Scatter    *chartRef
	ScatterMsg string
}

// groupTable is one --by breakdown: every metric of every group value.
type groupTable struct {
	Keys  string
	Chart *chartRef
	Rows  []statRow
}

func buildGroups(a *analyze.Analysis, cs *chartSet, pal palette) groupSection {
	var s groupSection
	byKeys := map[string][]analyze.Metric{}
	var keys []string
	for _, m := range sortedMetrics(a.Metrics) {
		if len(m.Group) == 0 {
			continue
		}
		k := groupKeys(m.Group)
		if _, ok := byKeys[k]; !ok {
			keys = append(keys, k)
		}
		byKeys[k] = append(byKeys[k], m)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ms := byKeys[k]
		t := groupTable{Keys: k}
		sort.SliceStable(ms, func(i, j int) bool { return groupValues(ms[i].Group) < groupValues(ms[j].Group) })
		for _, m := range ms {
			t.Rows = append(t.Rows, statRowOf(m))
		}
		if ref, ok := groupChart(cs, pal, k, ms); ok {
			t.Chart = &ref
		}
		s.Tables = append(s.Tables, t)
	}
	if len(keys) == 0 {
		s.Empty = "The analysis ran without --by, so there are no breakdowns by model, endpoint, host or attribute."
	}
	if len(a.TTFTByPrompt) == 0 {
		s.ScatterMsg = "No source logged prompt token counts together with TTFT, so TTFT cannot be set against prompt length."
	} else {
		ref := scatterChart(cs, pal, a.TTFTByPrompt)
		s.Scatter = &ref
	}
	return s
}

// groupChart draws TTFT p50 and p99 per group value, one pair of bars per
// source, when the breakdown holds TTFT.
func groupChart(cs *chartSet, pal palette, keys string, ms []analyze.Metric) (chartRef, bool) {
	var cats []string
	index := map[string]int{}
	bySource := map[string]map[int]analyze.Metric{}
	var sources []string
	for _, m := range ms {
		if m.Metric != "ttft" {
			continue
		}
		v := groupValues(m.Group)
		if _, ok := index[v]; !ok {
			index[v] = len(cats)
			cats = append(cats, esc(v))
		}
		if bySource[m.Source] == nil {
			bySource[m.Source] = map[int]analyze.Metric{}
			sources = append(sources, m.Source)
		}
		bySource[m.Source][index[v]] = m
	}
	if len(cats) == 0 {
		return chartRef{}, false
	}
	sort.SliceStable(sources, func(i, j int) bool { return lessSourceMetric(sources[i], "", sources[j], "") })
	var series []obj
	for _, src := range sources {
		p50, p99 := make([]any, len(cats)), make([]any, len(cats))
		for i, m := range bySource[src] {
			p50[i], p99[i] = m.P50, m.P99
		}
		c := pal.of(src)
		series = append(series,
			obj{"type": "bar", "name": esc(src) + " p50", "color": c, "data": p50, "barMaxWidth": 22},
			obj{"type": "bar", "name": esc(src) + " p99", "color": c, "data": p99, "barMaxWidth": 22,
				"itemStyle": obj{"opacity": 0.45}})
	}
	return cs.add(caption{"TTFT by " + keys, "ms · solid p50, pale p99"}, 300, obj{
		"legend":  legend(),
		"tooltip": obj{"trigger": "axis", "axisPointer": obj{"type": "shadow"}, "confine": true},
		"grid":    obj{"top": 40, "left": 80, "right": 30, "bottom": 70},
		"xAxis":   obj{"type": "category", "data": cats, "axisLabel": obj{"interval": 0, "rotate": 20, "width": 160, "overflow": "truncate"}},
		"yAxis":   yValueAxis("ms"),
		"series":  series,
	}), true
}

// scatterChart draws TTFT against prompt length, one colour per source.
func scatterChart(cs *chartSet, pal palette, ss []analyze.Scatter) chartRef {
	var series []obj
	for _, s := range ss {
		series = append(series, obj{"type": "scatter", "name": esc(s.Source), "color": pal.of(s.Source),
			"symbolSize": 5, "data": s.Points, "itemStyle": obj{"opacity": 0.8}})
	}
	x, y := valueAxis(esc(ss[0].X)), yValueAxis(esc(ss[0].Y))
	return cs.add(caption{"TTFT against prompt length", "sampled requests, one dot each"}, 340, obj{
		"legend":  legend(),
		"tooltip": obj{"trigger": "item", "confine": true},
		"grid":    obj{"top": 40, "left": 80, "right": 30, "bottom": 50},
		"xAxis":   x,
		"yAxis":   y,
		"series":  series,
	})
}

type errorSection struct {
	Empty string
	Chart *chartRef
	Rows  []errorRow
}

type errorRow struct{ Source, Group, Class, Count, Share string }

func buildErrors(a *analyze.Analysis, cs *chartSet) errorSection {
	var s errorSection
	events := map[string]int64{}
	for _, src := range a.Sources {
		events[src.Source] = src.Events
	}
	errs := append([]analyze.ErrorCount(nil), a.Errors...)
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.Source != b.Source {
			return lessSourceMetric(a.Source, "", b.Source, "")
		}
		if ga, gb := groupLabel(a.Group), groupLabel(b.Group); ga != gb {
			return len(a.Group) < len(b.Group) || len(a.Group) == len(b.Group) && ga < gb
		}
		return a.Count > b.Count || a.Count == b.Count && a.Class < b.Class
	})
	for _, e := range errs {
		r := errorRow{Source: e.Source, Group: groupLabel(e.Group), Class: e.Class, Count: fmtCount(e.Count)}
		if n := events[e.Source]; len(e.Group) == 0 && n > 0 {
			r.Share = fmtPct(float64(e.Count) / float64(n))
		}
		s.Rows = append(s.Rows, r)
	}
	if len(s.Rows) == 0 {
		s.Empty = "No request failed: every request at every source completed with a 2xx status."
		return s
	}
	if ref, ok := errorChart(cs, errs); ok {
		s.Chart = &ref
	}
	return s
}

// errorChart stacks the failures of group {} by class, one bar per source.
func errorChart(cs *chartSet, errs []analyze.ErrorCount) (chartRef, bool) {
	var sources, classes []string
	count := map[[2]string]int64{}
	for _, e := range errs {
		if len(e.Group) != 0 {
			continue
		}
		if !contains(sources, e.Source) {
			sources = append(sources, e.Source)
		}
		if !contains(classes, e.Class) {
			classes = append(classes, e.Class)
		}
		count[[2]string{e.Source, e.Class}] += e.Count
	}
	if len(sources) == 0 {
		return chartRef{}, false
	}
	sort.Strings(classes)
	var cats []string
	for _, s := range sources {
		cats = append(cats, esc(s))
	}
	var series []obj
	for _, c := range classes {
		var data []int64
		for _, s := range sources {
			data = append(data, count[[2]string{s, c}])
		}
		series = append(series, obj{"type": "bar", "name": esc(c), "stack": "errors", "data": data, "barMaxWidth": 30,
			"color": classColor(c, len(series))})
	}
	return cs.add(caption{"Failed requests by class", "all requests of each source"}, 45*len(sources)+90, obj{
		"legend":  bottomLegend(),
		"tooltip": obj{"trigger": "axis", "axisPointer": obj{"type": "shadow"}, "confine": true},
		"grid":    obj{"top": 10, "left": 80, "right": 30, "bottom": 60},
		"xAxis":   valueAxis(""),
		"yAxis":   categoryAxis(cats),
		"series":  series,
	}), true
}

// classColors keep each error class's colour fixed; other classes take grey.
var classColors = map[string]string{"rate_limited": "#e5a50a", "client_error": "#d9822b",
	"server_error": "#c0392b", "interrupted": "#8e44ad", "timeout": "#5d6d7e"}

func classColor(class string, i int) string {
	if c, ok := classColors[class]; ok {
		return c
	}
	return extraColors[i%len(extraColors)]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
