package report

import (
	"math"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
)

func TestFmtValue(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{0.41249, "0.412"}, // < 1: three decimals
		{4.1251, "4.13"},   // 1 ≤ v < 10: two decimals
		{41.26, "41.3"},    // 10 ≤ v < 100: one decimal
		{412.5, "413"},     // ≥ 100: whole ms, math.Round rounds half away from zero
		{18001, "18,001"},  // thousands separator
		{1234567.4, "1,234,567"},
		{-12.8, "−12.8"},   // a true minus sign
		{0.0004, "0.0004"}, // below 0.001: two significant figures
		{math.Inf(1), "∞"},
	} {
		if got := fmtValue(c.in); got != c.want {
			t.Errorf("fmtValue(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFmtCountAndPct(t *testing.T) {
	for in, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 4142: "4,142", -1234567: "−1,234,567"} {
		if got := fmtCount(in); got != want {
			t.Errorf("fmtCount(%d) = %q, want %q", in, got, want)
		}
	}
	// 142 / 4142 = 0.0342829… → 3.43%; 3 / 1000 = 0.003 → 0.300%.
	if got := fmtPct(142.0 / 4142); got != "3.43%" {
		t.Errorf("fmtPct(142/4142) = %q, want 3.43%%", got)
	}
	if got := fmtPct(0.003); got != "0.300%" {
		t.Errorf("fmtPct(0.003) = %q, want 0.300%%", got)
	}
}

func TestFmtInterval(t *testing.T) {
	lo, hi := 398.04, 430.2
	for _, c := range []struct {
		iv   analyze.Interval
		ok   bool
		want string
	}{
		{analyze.Interval{&lo, &hi}, true, "[398, 430]"},
		{analyze.Interval{nil, &hi}, true, "(−∞, 430]"},
		{analyze.Interval{&lo, nil}, true, "[398, ∞)"},
		{analyze.Interval{nil, nil}, true, "too few samples"},
		{analyze.Interval{}, false, ""},
	} {
		if got := fmtInterval(c.iv, c.ok); got != c.want {
			t.Errorf("fmtInterval = %q, want %q", got, c.want)
		}
	}
}

func TestGroupLabel(t *testing.T) {
	g := map[string]string{"model": "llama", "host": "gpu-7"}
	if got := groupLabel(g); got != "host=gpu-7 · model=llama" {
		t.Errorf("groupLabel = %q", got)
	}
	if got := groupKeys(g); got != "host+model" {
		t.Errorf("groupKeys = %q", got)
	}
	if got := groupLabel(nil); got != "all requests" {
		t.Errorf("groupLabel(nil) = %q", got)
	}
}

func TestNiceCeil(t *testing.T) {
	for in, want := range map[float64]float64{2982.16: 5000, 87.6: 100, 51.93: 100, 35852: 50000, 200: 200, 0.7: 1, 1.9: 2, 2.2: 2.5} {
		if got := niceCeil(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("niceCeil(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestEmptyAnalysis renders an analysis with nothing in it: no chart, and
// every section says why it is empty instead of vanishing.
func TestEmptyAnalysis(t *testing.T) {
	page := render(t, &analyze.Analysis{SchemaVersion: 1})
	for _, want := range []string{
		"The analysis holds no metrics",
		"there is no TTFT distribution",
		"client TTFT cannot be split",
		"client − server TTFT is unknown",
		"No distribution other than TTFT",
		"ITL by token position is unknown",
		"nothing to place on a time axis",
		"ran without --by",
		"cannot be set against prompt length",
		"No request failed",
		"to estimate a clock offset",
		"no requests were joined across sources",
		"no example timelines",
		"The analysis lists no inputs.",
		"No record was rejected.",
		`data-expected-charts="0"`,
		"var ttCharts = [];",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("empty report lacks %q", want)
		}
	}
	if err := Render(&strings.Builder{}, nil); err == nil {
		t.Error("Render(nil) gave no error")
	}
}

// TestNaNIsAnError checks a figure JSON cannot carry fails loudly rather
// than drawing a chart from null.
func TestNaNIsAnError(t *testing.T) {
	a := fixture()
	a.TTFTByPrompt[0].Points[0][1] = math.NaN()
	if err := Render(&strings.Builder{}, a); err == nil {
		t.Error("Render with a NaN in chart data gave no error")
	}
}
