package report

import "math"

// verdictColors colour a change by what the intervals say about it.
var verdictColors = map[string]string{"worse": "#c0392b", "better": "#2e8b57", "small": "#8d99a6", "noise": "#b0b0b0", "na": "#d0d0d0"}

// compareChart draws the relative change of p50 and p99 of every latency
// metric of group {} in both analyses, coloured by verdict.
func compareChart(cs *chartSet, rows []changeRow) (chartRef, bool) {
	type key struct{ source, metric string }
	var cats []key
	vals := map[key]map[string]obj{}
	for _, r := range rows {
		if r.kind != "latency" || r.Group != "all requests" || (r.stat != "p50" && r.stat != "p99") || math.IsNaN(r.rel) {
			continue
		}
		k := key{r.Source, r.metric}
		if vals[k] == nil {
			vals[k] = map[string]obj{}
			cats = append(cats, k)
		}
		vals[k][r.stat] = obj{"value": math.Round(r.rel*1000) / 10,
			"itemStyle": obj{"color": verdictColors[r.Class], "opacity": map[string]float64{"p50": 1, "p99": 0.6}[r.stat]}}
	}
	if len(cats) == 0 {
		return chartRef{}, false
	}
	names := make([]string, len(cats))
	for i, k := range cats {
		names[i] = esc(k.source) + " " + esc(k.metric)
	}
	var series []obj
	for _, p := range []string{"p50", "p99"} {
		data := make([]any, len(cats))
		for i, k := range cats {
			if v, ok := vals[k][p]; ok {
				data[i] = v
			}
		}
		series = append(series, obj{"type": "bar", "name": p, "data": data, "barMaxWidth": 14,
			"label": obj{"show": true, "position": "right", "formatter": "{c}%", "fontSize": 10}})
	}
	return cs.add(caption{"Change of p50 (solid) and p99 (pale), % of base", "red: regression · green: improvement · grey: below threshold or within noise"}, 34*len(cats)+75, obj{
		"tooltip": obj{"trigger": "axis", "axisPointer": obj{"type": "shadow"}, "confine": true},
		"grid":    obj{"top": 10, "left": 170, "right": 60, "bottom": 45},
		"xAxis":   valueAxis("%"),
		"yAxis":   categoryAxis(names),
		"series":  series,
	}), true
}
