package report

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// fmtValue formats a latency or rate with precision that suits its size:
// three significant figures below 100, whole numbers (with thousands
// separators) above. It adds no unit; callers put the unit in the heading.
func fmtValue(v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	if math.IsInf(v, 0) {
		if v > 0 {
			return "∞"
		}
		return "−∞"
	}
	a := math.Abs(v)
	var s string
	switch {
	case a == 0:
		return "0"
	case a >= 100:
		return fmtCount(int64(math.Round(v)))
	case a >= 10:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	case a >= 0.001:
		s = strconv.FormatFloat(v, 'f', 3, 64)
	default:
		s = strconv.FormatFloat(v, 'g', 2, 64)
	}
	return strings.Replace(s, "-", "−", 1)
}

// fmtCount formats an integer with thousands separators: 18001 → "18,001"
// (analyze.Grouped, with a typographic minus).
func fmtCount(n int64) string {
	return strings.Replace(analyze.Grouped(n), "-", "−", 1)
}

// fmtPct formats a fraction (0.023) as a percentage ("2.3%").
func fmtPct(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	return fmtValue(f*100) + "%"
}

// fmtSigned formats a difference with an explicit sign: "+12.5", "−3.20".
func fmtSigned(v float64) string {
	if v > 0 {
		return "+" + fmtValue(v)
	}
	return fmtValue(v)
}

// fmtInterval formats a confidence interval; an unbounded side shows as ∞.
func fmtInterval(iv analyze.Interval, ok bool) string {
	if !ok {
		return ""
	}
	lo, hi := "(−∞", "∞)"
	if iv[0] != nil {
		lo = "[" + fmtValue(*iv[0])
	}
	if iv[1] != nil {
		hi = fmtValue(*iv[1]) + "]"
	}
	if iv[0] == nil && iv[1] == nil {
		return "too few samples"
	}
	return lo + ", " + hi
}

// groupLabel names a group: {} is "all requests"; otherwise its key=value
// pairs in key order, joined by " · ".
func groupLabel(g map[string]string) string {
	if len(g) == 0 {
		return "all requests"
	}
	parts := make([]string, 0, len(g))
	for _, k := range sortedKeys(g) {
		parts = append(parts, k+"="+g[k])
	}
	return strings.Join(parts, " · ")
}

// groupKeys names the keys of a group in order, joined by "+": "host+model".
func groupKeys(g map[string]string) string {
	return strings.Join(sortedKeys(g), "+")
}

// groupValues lists a group's values in key order, joined by " · ".
func groupValues(g map[string]string) string {
	vals := make([]string, 0, len(g))
	for _, k := range sortedKeys(g) {
		vals = append(vals, g[k])
	}
	return strings.Join(vals, " · ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sourceRank orders sources outside in: client, proxy, server, then others.
func sourceRank(s string) int {
	switch s {
	case "client":
		return 0
	case "proxy":
		return 1
	case "server":
		return 2
	}
	return 3
}

// metricOrder is the order metrics are listed in; unknown metrics go last.
var metricOrder = []string{"ttft", "time_to_headers", "itl", "chunk_gap", "tpot", "tps_user",
	"e2e", "queue", "prefill", "decode"}

func metricRank(m string) int {
	for i, name := range metricOrder {
		if name == m {
			return i
		}
	}
	return len(metricOrder)
}

// lessSourceMetric orders by source, then metric, then name.
func lessSourceMetric(s1, m1, s2, m2 string) bool {
	if r1, r2 := sourceRank(s1), sourceRank(s2); r1 != r2 {
		return r1 < r2
	}
	if s1 != s2 {
		return s1 < s2
	}
	if r1, r2 := metricRank(m1), metricRank(m2); r1 != r2 {
		return r1 < r2
	}
	return m1 < m2
}
