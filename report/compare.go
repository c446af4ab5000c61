package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// Compare writes an HTML page of a comparison analyze.Compare made: the two
// sides' labels and date ranges, the regressions then the improvements,
// each grouped by source and group, then every other change, the metrics
// folded or present on one side only, and how verdicts are reached.
func Compare(w io.Writer, c *analyze.Comparison) error {
	if c == nil {
		return fmt.Errorf("report: no comparison")
	}
	cs := &chartSet{}
	v := buildCompare(c, cs)
	p := &page{Title: "ttftrace comparison", Subtitle: v.Base.Label + " → " + v.New.Label,
		Nav:     []navItem{{"changes", "Changes"}, {"others", "Other figures"}, {"unmatched", "Not compared"}, {"method", "Method"}},
		Compare: v}
	return renderPage(w, p, cs)
}

// compareView is everything the compare template shows, formatted.
type compareView struct {
	Base, New    sideView
	Threshold    string
	Regressions  int
	Improvements int
	Small, Noise int
	Judged       []verdictBlock // regressions, improvements (each may be empty)
	Others       []changeGroup  // every other change, by source and group
	Chart        *chartRef
	Folded       []string
	OnlyBase     []string
	OnlyNew      []string
	Empty        string
}

type sideView struct{ Label, Span string }

// verdictBlock is the changes of one verdict, grouped by source and group.
type verdictBlock struct {
	Title, Class, None string
	Groups             []changeGroup
}

// changeGroup is the changes of one source and group.
type changeGroup struct {
	Source, Group string
	Rows          []changeRow
}

// changeRow is one analyze.Change, formatted.
type changeRow struct {
	Source, Group, Figure, Unit           string
	Base, BaseCI, BaseN, New, NewCI, NewN string
	Delta, Change, Verdict, Class, Test   string
	rel                                   float64 // NaN when unknown
	stat                                  string
	kind, metric                          string
}

func buildCompare(c *analyze.Comparison, cs *chartSet) *compareView {
	v := &compareView{Base: sideOf(c.Base), New: sideOf(c.New), Threshold: thresholdText(c),
		Regressions: c.Regressions, Improvements: c.Improvements}
	var reg, imp, rest []changeRow
	for _, ch := range c.Changes {
		r := changeRowOf(ch)
		switch ch.Verdict {
		case analyze.VerdictRegression:
			reg = append(reg, r)
		case analyze.VerdictImprovement:
			imp = append(imp, r)
		case analyze.VerdictSmall:
			v.Small++
			rest = append(rest, r)
		default:
			v.Noise++
			rest = append(rest, r)
		}
	}
	v.Judged = []verdictBlock{
		{Title: "Regressions", Class: "worse", None: "No regression: no figure got worse by more than its threshold with the intervals apart.", Groups: groupChanges(reg)},
		{Title: "Improvements", Class: "better", None: "No improvement beyond the threshold.", Groups: groupChanges(imp)},
	}
	v.Others = groupChanges(rest)
	for _, f := range c.Folded {
		v.Folded = append(v.Folded, f.Source+" "+f.Metric+" ("+groupLabel(f.Group)+"): same figures as "+f.Into+" in both analyses")
	}
	v.OnlyBase, v.OnlyNew = c.OnlyBase, c.OnlyNew
	if len(c.Changes) == 0 {
		v.Empty = "The two analyses share no figure (same source, metric and group), so there is nothing to compare."
	} else if ref, ok := compareChart(cs, append(append(reg, imp...), rest...)); ok {
		v.Chart = &ref
	}
	return v
}

func sideOf(s analyze.Side) sideView {
	v := sideView{Label: s.Label, Span: "no wall-clock requests"}
	if s.First != "" {
		v.Span = s.First + " → " + s.Last
	}
	return v
}

// thresholdText states the practical thresholds: "5%; ttft 10%, error_rate off".
func thresholdText(c *analyze.Comparison) string {
	out := fmtThreshold(c.MinChange)
	var per []string
	for _, k := range sortedKeys(c.MinChangeFor) {
		per = append(per, k+" "+fmtThreshold(c.MinChangeFor[k]))
	}
	if len(per) > 0 {
		out += "; " + strings.Join(per, ", ")
	}
	return out
}

func fmtThreshold(t float64) string {
	if math.IsInf(t, 1) {
		return "off"
	}
	return strconv.FormatFloat(t*100, 'g', 4, 64) + "%"
}

// fmtChange formats a relative change with one decimal: "+14.8%", "−0.3%".
func fmtChange(rel float64) string {
	s := strconv.FormatFloat(rel*100, 'f', 1, 64)
	switch {
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:] + "%"
	case s == "0.0":
		return "0.0%"
	}
	return "+" + s + "%"
}

// groupChanges splits rows, kept in order, into runs of one source and group.
func groupChanges(rows []changeRow) []changeGroup {
	var out []changeGroup
	index := map[string]int{}
	for _, r := range rows {
		k := r.Source + "\x00" + r.Group
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, changeGroup{Source: r.Source, Group: r.Group})
		}
		out[i].Rows = append(out[i].Rows, r)
	}
	return out
}

// verdictClass is the CSS class of a verdict.
var verdictClass = map[string]string{analyze.VerdictRegression: "worse", analyze.VerdictImprovement: "better",
	analyze.VerdictSmall: "small", analyze.VerdictNoise: "noise", analyze.VerdictNoInterval: "na"}

func changeRowOf(ch analyze.Change) changeRow {
	r := changeRow{Source: ch.Source, Group: groupLabel(ch.Group), Figure: figureName(ch), Unit: displayUnit(ch.Unit),
		Base: fmtFigure(ch.Base.Value, ch.Unit), BaseCI: fmtEstimateCI(ch.Base, ch.Unit), BaseN: fmtCount(ch.Base.N),
		New: fmtFigure(ch.New.Value, ch.Unit), NewCI: fmtEstimateCI(ch.New, ch.Unit), NewN: fmtCount(ch.New.N),
		Delta: fmtDelta(ch.Delta, ch.Unit), Change: "n/a", Verdict: ch.Verdict, Class: verdictClass[ch.Verdict],
		Test: ch.Test, rel: math.NaN(), stat: ch.Stat, kind: ch.Kind, metric: ch.Metric}
	if ch.Relative != nil {
		r.rel = *ch.Relative
		r.Change = fmtChange(*ch.Relative)
	}
	switch {
	case ch.Z != nil:
		r.Test += " = " + fmtSigned(*ch.Z)
	case ch.Test == "ci95" && ch.Significant:
		r.Test = "95% intervals apart"
	case ch.Test == "ci95":
		r.Test = "95% intervals overlap"
	}
	return r
}

// figureName names a change's figure: "ttft p90", "error rate: rate_limited",
// "output tokens/s".
func figureName(ch analyze.Change) string {
	switch ch.Kind {
	case "error_rate":
		if ch.Stat == "any" {
			return "error rate: any class"
		}
		return "error rate: " + ch.Stat
	case "throughput":
		return map[string]string{"request_rate": "request rate", "output_tps": "output tokens/s",
			"goodput": "goodput (meeting every SLO)", "good_share": "share meeting every SLO"}[ch.Metric]
	}
	return ch.Metric + " " + ch.Stat
}

// displayUnit is the unit shown beside a figure; fractions show as %.
func displayUnit(unit string) string {
	if unit == "fraction" {
		return ""
	}
	return unit
}

// fmtFigure formats a value in its unit; fractions as percentages.
func fmtFigure(v float64, unit string) string {
	if unit == "fraction" {
		return fmtPct(v)
	}
	return fmtValue(v)
}

// fmtDelta formats a difference; a difference of fractions in percentage points.
func fmtDelta(d float64, unit string) string {
	if unit == "fraction" {
		return fmtSigned(d*100) + " pp"
	}
	return fmtSigned(d)
}

func fmtEstimateCI(e analyze.Estimate, unit string) string {
	if unit != "fraction" {
		return fmtInterval(analyze.Interval{e.Low, e.High}, true)
	}
	if e.Low == nil || e.High == nil {
		return ""
	}
	return "[" + fmtPct(*e.Low) + ", " + fmtPct(*e.High) + "]"
}
