package report

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
)

// TestHeadlineThroughput checks the throughput rows against the fixture:
// client 4,142 requests over 86,379 s = 0.04795/s; 4,000 × 220 tokens /
// 86,379 s = 10.19 tokens/s; goodput 3,650 / 86,379 = 0.04226/s, 88.1% of
// 4,142 requests; the proxy logs no tokens.
func TestHeadlineThroughput(t *testing.T) {
	rows := buildHeadline(fixture()).Throughput
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	c, p := rows[0], rows[1]
	if c.Requests != "4,142" || c.RequestRate != "0.048" || c.OutputTPS != "10.2" || c.Goodput != "0.042" || c.GoodShare != "88.1% of requests" {
		t.Errorf("client row %+v", c)
	}
	if p.OutputTPS != "—" || p.Goodput != "—" {
		t.Errorf("proxy row %+v", p)
	}
}

func TestSlowestRows(t *testing.T) {
	s := buildSlowest(fixture())
	if len(s.Rows) != 20 {
		t.Fatalf("%d rows, want 20", len(s.Rows))
	}
	// Row 1: 3,400 ms, server 2,700; parts 9.50, 120, 2,100, 590, 10.0 and
	// 3400 − 9.5 − 120 − 2700 = 570.5 → "571".
	r := s.Rows[0]
	if r.Rank != "1" || r.Key != "req-be00" || r.ClientTTFT != "3,400" || r.ServerTTFT != "2,700" ||
		strings.Join(r.Parts, " ") != "9.50 120 2,100 590 10.0 571" || r.Joined != "proxy by id, server by trace" {
		t.Errorf("row 1 %+v", r)
	}
	// Row 5 (i = 4) was not joined: its parts are unknown.
	if r := s.Rows[4]; r.ServerTTFT != "—" || strings.Join(r.Parts, "") != "——————" || r.Joined != "not joined" {
		t.Errorf("row 5 %+v", r)
	}
	if want := "use the clock of loadgen-1 (3,890 joined requests)"; !strings.Contains(s.References, want) {
		t.Errorf("reference line %q lacks %q", s.References, want)
	}
}

func TestProxyPoints(t *testing.T) {
	a := fixture()
	a.Sources[1].Formats = []string{"envoy", "nginx"}
	if got := proxyTTFTPoint(a); got != "start → first upstream body byte (Envoy only)" {
		t.Errorf("envoy + nginx: %q", got)
	}
	a.Sources[1].Formats = []string{"envoy", "litellm"}
	if got := proxyTTFTPoint(a); got != "start → first upstream body byte (Envoy) or first chunk from the upstream (LiteLLM)" {
		t.Errorf("envoy + litellm: %q", got)
	}
	a.Sources[1].Formats = []string{"nginx"}
	if got := proxyTTFTPoint(a); got != "" || measurementNotes(a) != nil {
		t.Errorf("nginx: %q", got)
	}
	a.Sources[1].Formats = []string{"envoy"}
	// The fixture's proxy ttft has 4,100 samples; the proxy 4,100 successes.
	if n := measurementNotes(a); len(n) != 1 || !strings.Contains(n[0], "4,100 of the proxy's 4,100 successful requests") {
		t.Errorf("notes %v", n)
	}
}

func TestEmptySeries(t *testing.T) {
	zero, one := 0.0, 1.0
	for _, c := range []struct {
		s    analyze.Series
		want bool
	}{
		{analyze.Series{Metric: "output_tps", Points: []analyze.Point{{Value: &zero}, {Value: &zero}}}, true},
		{analyze.Series{Metric: "output_tps", Points: []analyze.Point{{Value: &zero}, {Count: 3, Value: &one}}}, false},
		{analyze.Series{Metric: "error_rate", Points: []analyze.Point{{Value: &zero}}}, false}, // a zero rate is a figure
		{analyze.Series{Metric: "error_rate", Points: []analyze.Point{{}, {}}}, true},          // no request in any window
		{analyze.Series{Metric: "ttft", Points: []analyze.Point{{Count: 0}}}, true},
		{analyze.Series{Metric: "ttft", Points: []analyze.Point{{Count: 1, P50: &one}}}, false},
	} {
		if got := emptySeries(c.s); got != c.want {
			t.Errorf("emptySeries(%s %+v) = %v, want %v", c.s.Metric, c.s.Points, got, c.want)
		}
	}
}

// TestSparseSeries checks the minimum-sample rule: points with enough
// samples are on the line, those with samples but too few are hollow, and
// windows without samples are gaps in both.
func TestSparseSeries(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	pts := []sparsePoint{{x: "a", a: v(1), n: 100}, {x: "b", a: v(2), n: 99}, {x: "c", n: 0}, {x: "d", a: v(4), n: 500}}
	out := sparseSeries("client p99", "#000", true, pts, func(p sparsePoint) (*float64, bool) { return p.a, p.n >= analyze.MinSamples(0.99) })
	if len(out) != 2 {
		t.Fatalf("%d series, want a line and hollow points", len(out))
	}
	line, thin := out[0]["data"].([][2]any), out[1]["data"].([][2]any)
	if len(line) != 4 || line[0][1] != 1.0 || line[1][1] != nil || line[2][1] != nil || line[3][1] != 4.0 {
		t.Errorf("line %v", line)
	}
	if len(thin) != 1 || thin[0][0] != "b" || thin[0][1] != 2.0 || out[1]["symbol"] != "emptyCircle" {
		t.Errorf("hollow points %v", thin)
	}
	if out := sparseSeries("x", "#000", false, []sparsePoint{{x: "c"}}, func(p sparsePoint) (*float64, bool) { return p.a, true }); len(out) != 0 {
		t.Errorf("no samples anywhere: %d series, want none", len(out))
	}
}
