package report

import (
	"sort"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/analyze/reconcile"
)

type clockSection struct {
	Empty       string
	Reference   string // which clock corrected instants use
	Chart       *chartRef
	Offsets     []offsetRow
	Matching    []matchRow
	MatchingMsg string
}

type offsetRow struct {
	Host, Reference, Offset, Low, High, Width, Requests, Via string
	Consistent                                               bool
}

type matchRow struct {
	Pair, Matched, Rate, ByTrace, ByID, ByTime, ByChain, Ambiguous, UnmatchedOuter, UnmatchedInner string
	OuterExcluded, InnerElsewhere                                                                  string
}

func buildClocks(a *analyze.Analysis, cs *chartSet) clockSection {
	s := clockSection{Reference: referenceLine(a)}
	for _, o := range a.ClockOffsets {
		s.Offsets = append(s.Offsets, offsetRow{Host: o.Host, Reference: o.Reference,
			Offset: fmtSigned(o.OffsetMs), Low: fmtSigned(o.LowMs), High: fmtSigned(o.HighMs),
			Width: fmtValue(o.HighMs - o.LowMs), Requests: fmtCount(o.Requests), Via: o.Via,
			Consistent: o.Consistent})
	}
	if len(s.Offsets) == 0 {
		s.Empty = "No two hosts shared enough matched requests to estimate a clock offset; instants from different hosts are not compared."
	} else {
		ref := offsetChart(cs, a.ClockOffsets)
		s.Chart = &ref
	}
	for _, m := range a.Matching {
		r := matchRow{Pair: m.Outer + " → " + m.Inner, Matched: fmtCount(m.Matched),
			ByTrace: fmtCount(m.ByTrace), ByID: fmtCount(m.ByID), ByTime: fmtCount(m.ByTime), ByChain: fmtCount(m.ByChain),
			Ambiguous: fmtCount(m.Ambiguous), UnmatchedOuter: fmtCount(m.UnmatchedOuter),
			UnmatchedInner: fmtCount(m.UnmatchedInner), OuterExcluded: fmtCount(m.OuterExcluded),
			InnerElsewhere: fmtCount(m.InnerElsewhere), Rate: "—"}
		if n := m.Matched + m.UnmatchedOuter; n > 0 {
			r.Rate = fmtPct(float64(m.Matched) / float64(n))
		}
		s.Matching = append(s.Matching, r)
	}
	if len(s.Matching) == 0 {
		s.MatchingMsg = "Only one kind of observer was given, so no requests were joined across sources."
	}
	return s
}

// offsetChart draws each offset as a dot inside its [low, high] interval.
func offsetChart(cs *chartSet, os []reconcile.ClockOffset) chartRef {
	var cats []string
	var data []obj
	for i, o := range os {
		cats = append(cats, esc(o.Host)+" − "+esc(o.Reference))
		color := "#2f6fb5"
		if !o.Consistent {
			color = "#c0392b"
		}
		data = append(data, obj{"value": [4]float64{float64(i), o.LowMs, o.HighMs, o.OffsetMs},
			"itemStyle": obj{"color": color}})
	}
	return cs.add(caption{"Clock offsets", "host clock − reference clock · ms · dot: estimate, bar: interval the bounds allow · red: bounds contradict"}, 40*len(os)+60, obj{
		"tooltip": obj{"trigger": "item", "confine": true},
		"grid":    obj{"top": 10, "left": 200, "right": 40, "bottom": 40},
		"xAxis":   valueAxis(""),
		"yAxis":   categoryAxis(cats),
		"series": []obj{{"type": "custom", "name": "offset", "renderItem": "errorbar", "color": "#2f6fb5",
			"encode":     obj{"x": []int{1, 2, 3}, "y": 0, "tooltip": []int{3, 1, 2}},
			"dimensions": []string{"row", "low", "high", "offset"}, "data": data}},
	})
}

// buildExamples draws each example request's observers on one time axis.
func buildExamples(a *analyze.Analysis, cs *chartSet) chartSection {
	if len(a.Examples) == 0 {
		return chartSection{Empty: "No request was joined across observers with known clock offsets, so there are no example timelines."}
	}
	var s chartSection
	for _, t := range a.Examples {
		s.Charts = append(s.Charts, timelineChart(cs, t))
	}
	return s
}

// timelineChart draws one request: per observer, start → first token and
// first token → end; an observer without a first token gets start → end.
func timelineChart(cs *chartSet, t reconcile.Timeline) chartRef {
	var rows []string
	var ttft, stream, whole [][3]float64
	for i, b := range t.Bars {
		rows = append(rows, esc(b.Source)+" · "+esc(b.Host))
		r := float64(i)
		switch {
		case b.FirstTokenMs != nil:
			ttft = append(ttft, [3]float64{r, b.StartMs, *b.FirstTokenMs})
			if b.EndMs != nil {
				stream = append(stream, [3]float64{r, *b.FirstTokenMs, *b.EndMs})
			}
		case b.EndMs != nil:
			whole = append(whole, [3]float64{r, b.StartMs, *b.EndMs})
		}
	}
	span := func(name, color string, data [][3]float64) obj {
		return obj{"type": "custom", "name": name, "renderItem": "span", "color": color,
			"encode": obj{"x": []int{1, 2}, "y": 0}, "dimensions": []string{"row", "from ms", "to ms"}, "data": data}
	}
	return cs.add(caption{"Request " + t.Key, "ms after the earliest instant, on the reference clock"}, 36*len(rows)+90, obj{
		"legend":  bottomLegend(),
		"tooltip": obj{"trigger": "item", "confine": true},
		"grid":    obj{"top": 10, "left": 160, "right": 30, "bottom": 60},
		"xAxis":   valueAxis(""),
		"yAxis":   categoryAxis(rows),
		"series": []obj{span("start → first token", "#e6550d", ttft), span("first token → end", "#6baed6", stream),
			span("start → end (no first token)", "#bdbdbd", whole)},
	})
}

type qualitySection struct {
	Inputs  []inputRow
	Totals  inputRow
	Rejects []kv
	Notes   []string
}

type inputRow struct {
	Path, Format, Host, Clock, Read, Records, Duplicates, Skipped, Rejected, Error string
	Truncated                                                                      bool
	Reasons                                                                        []kv
}

func buildQuality(a *analyze.Analysis) qualitySection {
	var s qualitySection
	var read, rec, dup, skip, rej int64
	for _, in := range a.Inputs {
		r := inputRow{Path: in.Path, Format: in.Format, Host: in.Host, Clock: in.Clock,
			Read: fmtCount(in.Read), Records: fmtCount(in.Records), Duplicates: fmtCount(in.Duplicates),
			Skipped: fmtCount(in.Skipped), Rejected: fmtCount(in.Rejected), Truncated: in.Truncated}
		if in.Error != nil {
			r.Error = *in.Error
		}
		r.Reasons = byCount(in.RejectsByReason)
		read, rec, dup, skip, rej = read+in.Read, rec+in.Records, dup+in.Duplicates, skip+in.Skipped, rej+in.Rejected
		s.Inputs = append(s.Inputs, r)
	}
	s.Totals = inputRow{Read: fmtCount(read), Records: fmtCount(rec), Duplicates: fmtCount(dup),
		Skipped: fmtCount(skip), Rejected: fmtCount(rej)}
	s.Rejects = byCount(a.RejectsByReason)
	s.Notes = a.Notes
	return s
}

// byCount lists counts largest first, ties by name.
func byCount(m map[string]int64) []kv {
	keys := sortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	var out []kv
	for _, k := range keys {
		out = append(out, kv{k, fmtCount(m[k])})
	}
	return out
}
