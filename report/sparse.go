package report

// sparsePoint is one x (a window start or a token position) with two
// percentiles (nil: no samples) and the number of samples n behind them.
type sparsePoint struct {
	x    any
	a, b *float64
	n    int64
}

// sparseSeries draws the value pick reads from each point: a line through
// the points with enough samples (a gap elsewhere), and hollow points of
// the same name and colour where there are samples but too few. Either
// series is left out when it has nothing to draw, so a legend never lists
// an empty series.
func sparseSeries(name, color string, dashed bool, pts []sparsePoint, pick func(sparsePoint) (*float64, bool)) []obj {
	var line, thin [][2]any
	drawn := false
	for _, p := range pts {
		v, enough := pick(p)
		switch {
		case v != nil && enough:
			line = append(line, [2]any{p.x, *v})
			drawn = true
		case v != nil:
			line = append(line, [2]any{p.x, nil})
			thin = append(thin, [2]any{p.x, *v})
		default:
			line = append(line, [2]any{p.x, nil})
		}
	}
	var out []obj
	if drawn {
		o := obj{"type": "line", "name": name, "color": color, "showSymbol": len(pts) < 40, "symbolSize": 4,
			"data": line, "connectNulls": false}
		if dashed {
			o["lineStyle"] = obj{"type": "dashed"}
		}
		out = append(out, o)
	}
	if len(thin) > 0 {
		out = append(out, obj{"type": "scatter", "name": name, "color": color, "symbol": "emptyCircle",
			"symbolSize": 6, "data": thin, "itemStyle": obj{"borderWidth": 1.5}})
	}
	return out
}

// f64 returns a pointer to v.
func f64(v float64) *float64 { return &v }
