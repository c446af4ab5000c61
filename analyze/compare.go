package analyze

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// CompareOptions are the settings of Compare.
type CompareOptions struct {
	// MinChange is the practical threshold: a change is a regression or an
	// improvement only when its size relative to the base is at least this
	// (0.05 is 5%) as well as statistically significant.
	MinChange float64
	// MinChangeFor overrides MinChange per metric name: a latency metric
	// (ttft, itl…), error_rate, request_rate, output_tps, goodput or
	// good_share. +Inf turns the verdict off for that metric.
	MinChangeFor map[string]float64
	// BaseLabel and NewLabel name the two sides; "" labels a side by its
	// date range.
	BaseLabel, NewLabel string
}

// DefaultMinChange is the practical threshold without --min-change: 5%.
const DefaultMinChange = 0.05

// The verdicts of a Change.
const (
	VerdictRegression  = "regression"      // significant, at least the threshold, worse
	VerdictImprovement = "improvement"     // significant, at least the threshold, better
	VerdictSmall       = "below threshold" // significant but smaller than the threshold
	VerdictNoise       = "within noise"    // not significant
	VerdictNoInterval  = "no interval"     // too few samples to bound a side
)

// Comparison is two analyses set side by side: every change judged, worst
// first (see Compare).
type Comparison struct {
	Base         Side               `json:"base"`
	New          Side               `json:"new"`
	MinChange    float64            `json:"min_change"`
	MinChangeFor map[string]float64 `json:"min_change_for"`
	Changes      []Change           `json:"changes"`
	Folded       []Fold             `json:"folded"`    // duplicate metrics left out
	OnlyBase     []string           `json:"only_base"` // "source metric (group)" present in one side only
	OnlyNew      []string           `json:"only_new"`
	Regressions  int                `json:"regressions"`
	Improvements int                `json:"improvements"`
}

// Side names one analysis of a comparison: its label and the span of its
// wall-clock requests (RFC 3339 UTC; "" without any).
type Side struct {
	Label string `json:"label"`
	First string `json:"first"`
	Last  string `json:"last"`
}

// Change is one figure in both analyses and the verdict on its change.
// Kind is "latency" (Stat a percentile: p50, p90, p99), "error_rate" (Stat
// the failure class, or "any") or "throughput" (Metric request_rate,
// output_tps, goodput or good_share; Stat "rate" or "share").
type Change struct {
	Kind   string            `json:"kind"`
	Source string            `json:"source"`
	Metric string            `json:"metric"`
	Group  map[string]string `json:"group"`
	Stat   string            `json:"stat"`
	Unit   string            `json:"unit"`
	Base   Estimate          `json:"base"`
	New    Estimate          `json:"new"`
	Delta  float64           `json:"delta"` // New − Base, in Unit
	// Relative is Delta / |Base|; null when Base is 0.
	Relative *float64 `json:"relative"`
	// Threshold is the practical threshold applied, relative.
	Threshold float64 `json:"threshold"`
	// Test names how significance was judged: "ci95" (the two 95%
	// intervals are disjoint), "two-proportion z" or "poisson z" (|Z| ≥
	// 1.96, two-sided 5%).
	Test        string   `json:"test"`
	Z           *float64 `json:"z"`
	Significant bool     `json:"significant"`
	HigherIsBad bool     `json:"higher_is_bad"`
	Verdict     string   `json:"verdict"`
}

// Estimate is one side's figure: its value, the sample count behind it and
// its 95% interval (a nil bound is unknown).
type Estimate struct {
	Value float64  `json:"value"`
	N     int64    `json:"n"`
	Low   *float64 `json:"low"`
	High  *float64 `json:"high"`
}

// Fold is a metric left out of a comparison because in both analyses its
// figures equal those of Into at the same source and group (itl and
// chunk_gap coincide when every chunk carries one token).
type Fold struct {
	Source string            `json:"source"`
	Group  map[string]string `json:"group"`
	Metric string            `json:"metric"`
	Into   string            `json:"into"`
}

// Compare judges every figure the two analyses share: each headline
// percentile of each latency metric per source and group (significant when
// the 95% intervals are disjoint), each error class's rate per source (a
// two-proportion z test), and each source's request rate, output tokens/s,
// goodput (Poisson z tests on the counts over each span) and share of
// requests meeting the SLOs (two-proportion). A significant change is a
// regression or an improvement only when its relative size is at least
// the practical threshold. Changes come regressions first, then
// improvements, each grouped by source and group, the group with the
// largest change first and within it the largest change first; then the
// rest in source, group and metric order.
func Compare(base, next *Analysis, opts CompareOptions) *Comparison {
	c := &Comparison{MinChange: opts.MinChange, MinChangeFor: map[string]float64{},
		Changes: []Change{}, Folded: []Fold{}, OnlyBase: []string{}, OnlyNew: []string{}}
	for k, v := range opts.MinChangeFor {
		c.MinChangeFor[k] = v
	}
	c.Base, c.New = sideOf(base, opts.BaseLabel), sideOf(next, opts.NewLabel)
	labelSides(&c.Base, &c.New)
	c.addLatency(base, next)
	c.addErrors(base, next)
	c.addThroughput(base, next)
	for i := range c.Changes {
		ch := &c.Changes[i]
		ch.Threshold = c.threshold(ch.Metric)
		ch.Verdict = verdict(ch)
		c.Regressions += boolInt(ch.Verdict == VerdictRegression)
		c.Improvements += boolInt(ch.Verdict == VerdictImprovement)
	}
	sortChanges(c.Changes)
	return c
}

// threshold is the practical threshold of a metric.
func (c *Comparison) threshold(metric string) float64 {
	if t, ok := c.MinChangeFor[metric]; ok {
		return t
	}
	return c.MinChange
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// verdict judges a change whose Significant, Relative and Threshold are set.
func verdict(ch *Change) string {
	if ch.Test == "ci95" && (ch.Base.Low == nil || ch.Base.High == nil || ch.New.Low == nil || ch.New.High == nil) && !ch.Significant {
		return VerdictNoInterval
	}
	if !ch.Significant || ch.Delta == 0 {
		return VerdictNoise
	}
	big := ch.Relative == nil || math.Abs(*ch.Relative) >= ch.Threshold*(1-1e-12)
	if !big || math.IsInf(ch.Threshold, 1) {
		return VerdictSmall
	}
	if (ch.Delta > 0) == ch.HigherIsBad {
		return VerdictRegression
	}
	return VerdictImprovement
}

// newChange fills the parts common to every kind of change.
func newChange(kind, source, metric string, group map[string]string, stat, unit string, b, n Estimate, higherIsBad bool) Change {
	ch := Change{Kind: kind, Source: source, Metric: metric, Group: group, Stat: stat, Unit: unit,
		Base: b, New: n, Delta: n.Value - b.Value, HigherIsBad: higherIsBad}
	if ch.Group == nil {
		ch.Group = map[string]string{}
	}
	if b.Value != 0 {
		ch.Relative = ptr(ch.Delta / math.Abs(b.Value))
	}
	return ch
}

// sideOf names an analysis: label, else its date range.
func sideOf(a *Analysis, label string) Side {
	s := Side{Label: label}
	for _, src := range a.Sources {
		if src.First != "" && (s.First == "" || src.First < s.First) {
			s.First = src.First
		}
		if src.Last > s.Last {
			s.Last = src.Last
		}
	}
	return s
}

// labelSides gives each unlabelled side its date range ("2026-11-16 →
// 2026-11-22"), with minutes when the two would read the same, and "base"
// or "new" without wall-clock requests.
func labelSides(b, n *Side) {
	bl, nl := b.Label == "", n.Label == ""
	if bl {
		b.Label = spanLabel(*b, 10, "base")
	}
	if nl {
		n.Label = spanLabel(*n, 10, "new")
	}
	if b.Label == n.Label {
		if bl {
			b.Label = spanLabel(*b, 16, "base")
		}
		if nl {
			n.Label = spanLabel(*n, 16, "new")
		}
	}
	if b.Label == n.Label {
		b.Label, n.Label = b.Label+" (base)", n.Label+" (new)"
	}
}

// spanLabel is the side's span cut to width characters of RFC 3339 (10:
// the date, 16: to the minute), or or when it has none.
func spanLabel(s Side, width int, or string) string {
	if s.First == "" {
		return or
	}
	cut := func(t string) string { return strings.Replace(t[:min(len(t), width)], "T", " ", 1) }
	a, b := cut(s.First), cut(s.Last)
	if a == b {
		return a
	}
	return a + " → " + b
}

// sortChanges orders changes as Compare documents.
func sortChanges(cs []Change) {
	rank := map[string]int{VerdictRegression: 0, VerdictImprovement: 1, VerdictSmall: 2, VerdictNoise: 3, VerdictNoInterval: 4}
	key := func(ch *Change) string { return ch.Source + "\x00" + groupString(ch.Group) }
	size := func(ch *Change) float64 {
		if ch.Relative == nil {
			return math.Inf(1)
		}
		return math.Round(math.Abs(*ch.Relative)*1e9) / 1e9 // equal changes keep their order
	}
	largest := map[string]float64{} // per verdict and source/group
	for i := range cs {
		k := cs[i].Verdict + "\x00" + key(&cs[i])
		largest[k] = max(largest[k], size(&cs[i]))
	}
	slices.SortStableFunc(cs, func(a, b Change) int {
		if r := cmp.Compare(rank[a.Verdict], rank[b.Verdict]); r != 0 {
			return r
		}
		if rank[a.Verdict] <= 1 {
			la, lb := largest[a.Verdict+"\x00"+key(&a)], largest[b.Verdict+"\x00"+key(&b)]
			return cmp.Or(cmp.Compare(lb, la), orderChanges(a, b), cmp.Compare(size(&b), size(&a)))
		}
		return orderChanges(a, b)
	})
}

// orderChanges orders by source (client, proxy, server, others), group ({}
// first, then by label), then kind; metric and stat keep their order.
func orderChanges(a, b Change) int {
	return cmp.Or(cmp.Compare(sourceRank(a.Source), sourceRank(b.Source)), cmp.Compare(a.Source, b.Source),
		cmp.Compare(boolInt(len(a.Group) > 0), boolInt(len(b.Group) > 0)), cmp.Compare(groupString(a.Group), groupString(b.Group)),
		cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)))
}

func sourceRank(s string) int {
	if i := slices.Index(sourceOrder, s); i >= 0 {
		return i
	}
	return len(sourceOrder)
}

func kindRank(k string) int { return slices.Index([]string{"latency", "error_rate", "throughput"}, k) }

// groupString is a group as "k=v, k=v" in key order; "" for all requests.
func groupString(g map[string]string) string {
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + g[k]
	}
	return strings.Join(parts, ", ")
}
