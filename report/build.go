package report

import (
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// reportView is everything the report template shows, already formatted.
type reportView struct {
	Subtitle     string
	Nav          []navItem
	Warnings     []warningRow // shown first, above the headline
	Options      []kv
	Sources      []sourceRow
	Headline     headlineSection
	TTFT         chartSection
	Breakdown    breakdownSection
	Dists        distSection
	Time         timeSection
	Groups       groupSection
	Errors       errorSection
	Clocks       clockSection
	Examples     chartSection
	Slowest      slowSection
	Quality      qualitySection
	Definitions  []definition
	PeerMappings []peerMapping
	PartNames    []string // the TTFT breakdown's parts, outside in
}

type kv struct{ Key, Value string }

// chartSection is a section made of charts, or a reason it has none.
type chartSection struct {
	Empty  string
	Note   string
	Points []string // the measurement points of figures whose names mislead
	Charts []chartRef
}

// buildReport lays out every section of a; sections with no data carry a
// sentence saying why instead.
func buildReport(a *analyze.Analysis, cs *chartSet) *reportView {
	pal := palette{}
	v := &reportView{Options: optionsOf(a.Options), Sources: sourceRows(a.Sources)}
	v.Subtitle = subtitle(a)
	v.Headline = buildHeadline(a)
	v.TTFT = buildTTFT(a, cs, pal)
	v.Breakdown = buildBreakdown(a, cs)
	v.Dists = buildDists(a, cs, pal)
	v.Time = buildTime(a, cs, pal)
	v.Groups = buildGroups(a, cs, pal)
	v.Errors = buildErrors(a, cs)
	v.Clocks = buildClocks(a, cs)
	v.Examples = buildExamples(a, cs)
	v.Slowest = buildSlowest(a)
	v.Quality = buildQuality(a)
	v.Definitions, v.PeerMappings = definitions(a), peerMappings
	for _, p := range breakdownParts {
		v.PartNames = append(v.PartNames, p.Name)
	}
	v.Warnings = buildWarnings(a.Warnings)
	v.Nav = []navItem{{"headline", "Headline"}, {"ttft", "TTFT"}, {"breakdown", "Where TTFT goes"},
		{"distributions", "ITL · TPOT · e2e"}, {"time", "Over time"}, {"groups", "Breakdowns"},
		{"errors", "Errors"}, {"clocks", "Clocks & matching"}, {"slowest", "Slowest requests"}, {"examples", "Examples"},
		{"quality", "Data quality"}, {"definitions", "Definitions"}}
	if len(v.Warnings) > 0 {
		v.Nav = append([]navItem{{"warnings", "Warnings"}}, v.Nav...)
	}
	return v
}

// subtitle says which sources and time span the analysis covers.
func subtitle(a *analyze.Analysis) string {
	var srcs []string
	first, last := "", ""
	for _, s := range a.Sources {
		srcs = append(srcs, s.Source)
		if s.First != "" && (first == "" || s.First < first) {
			first = s.First
		}
		if s.Last > last {
			last = s.Last
		}
	}
	out := "Sources: " + strings.Join(srcs, ", ")
	if len(srcs) == 0 {
		out = "No sources"
	}
	if first != "" {
		out += " · " + first + " → " + last
	}
	return out
}

func optionsOf(o analyze.OptionsEcho) []kv {
	by := strings.Join(o.By, ", ")
	if by == "" {
		by = "none"
	}
	out := []kv{{"Breakdowns (--by)", by}, {"Time window", orNone(o.Window)}}
	var slo []string
	for _, k := range sortedKeys(o.SLO) {
		slo = append(slo, k+" ≤ "+fmtValue(o.SLO[k])+" ms")
	}
	out = append(out, kv{"SLO", orNone(strings.Join(slo, ", "))}, kv{"Peer compatibility", orNone(o.Compat)})
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

type sourceRow struct {
	Source, Events, Succeeded, Failed, FailedPct, Formats, Hosts, Clock, Span string
}

func sourceRows(ss []analyze.SourceSummary) []sourceRow {
	ss = append([]analyze.SourceSummary(nil), ss...)
	sort.SliceStable(ss, func(i, j int) bool { return lessSourceMetric(ss[i].Source, "", ss[j].Source, "") })
	var rows []sourceRow
	for _, s := range ss {
		r := sourceRow{Source: s.Source, Events: fmtCount(s.Events), Succeeded: fmtCount(s.Succeeded),
			Failed: fmtCount(s.Failed), Formats: strings.Join(s.Formats, ", "),
			Hosts: strings.Join(s.Hosts, ", "), Clock: s.Clock, Span: "—"}
		if s.Events > 0 {
			r.FailedPct = fmtPct(float64(s.Failed) / float64(s.Events))
		}
		if s.First != "" {
			r.Span = s.First + " → " + s.Last
		}
		rows = append(rows, r)
	}
	return rows
}

// statRow is one Metric, formatted.
type statRow struct {
	Source, Metric, Spans, Unit, Group, Count     string
	Mean, Std, Min, P50, P90, P95, P99, P999, Max string
	P50CI, P90CI, P99CI                           string
}

func statRowOf(m analyze.Metric) statRow {
	ci := func(k string) string {
		iv, ok := m.CI95[k]
		return fmtInterval(iv, ok)
	}
	return statRow{Source: m.Source, Metric: m.Metric, Spans: spans(m), Unit: m.Unit,
		Group: groupLabel(m.Group), Count: fmtCount(m.Count),
		Mean: fmtValue(m.Mean), Std: fmtValue(m.Std), Min: fmtValue(m.Min), P50: fmtValue(m.P50),
		P90: fmtValue(m.P90), P95: fmtValue(m.P95), P99: fmtValue(m.P99), P999: fmtValue(m.P999),
		Max: fmtValue(m.Max), P50CI: ci("p50"), P90CI: ci("p90"), P99CI: ci("p99")}
}

func spans(m analyze.Metric) string {
	if m.From == "" && m.To == "" {
		return "—"
	}
	return m.From + " → " + m.To
}

// sortedMetrics returns ms ordered by source, metric and group label.
func sortedMetrics(ms []analyze.Metric) []analyze.Metric {
	out := append([]analyze.Metric(nil), ms...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Source != b.Source || a.Metric != b.Metric {
			return lessSourceMetric(a.Source, a.Metric, b.Source, b.Metric)
		}
		return groupLabel(a.Group) < groupLabel(b.Group)
	})
	return out
}

type headlineSection struct {
	Empty      string
	Tables     []headlineTable
	Throughput []throughputRow
}

type headlineTable struct {
	Source string
	Rows   []statRow
}

func buildHeadline(a *analyze.Analysis) headlineSection {
	var s headlineSection
	for _, m := range sortedMetrics(a.Metrics) {
		if len(m.Group) != 0 {
			continue
		}
		if n := len(s.Tables); n == 0 || s.Tables[n-1].Source != m.Source {
			s.Tables = append(s.Tables, headlineTable{Source: m.Source})
		}
		t := &s.Tables[len(s.Tables)-1]
		r := statRowOf(m)
		if p := proxySpans(a, m.Metric); m.Source == "proxy" && p != "" {
			r.Spans = p
		}
		t.Rows = append(t.Rows, r)
	}
	s.Throughput = throughputRows(a)
	if len(s.Tables) == 0 {
		s.Empty = "The analysis holds no metrics: no input gave a successful request with timings."
	}
	return s
}
