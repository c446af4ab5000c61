package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
)

// compareFixtures compares the fixture with its slower week, labelled.
func compareFixtures() *analyze.Comparison {
	return analyze.Compare(fixture(), slowerFixture(), analyze.CompareOptions{MinChange: analyze.DefaultMinChange,
		BaseLabel: "week 47", NewLabel: "week 48"})
}

func TestCompareView(t *testing.T) {
	v := buildCompare(compareFixtures(), &chartSet{})
	// Regressions: server TTFT ×1.3 (p50, p90, p99: +30.0%), client failures
	// 142 → 190 of 4,142 (3.43% → 4.59%, +33.8%) and client request rate
	// ×0.9 (−10.0%). The client group's largest change is +33.8%, the
	// server's +30.0%: client first.
	reg := v.Judged[0].Groups
	if len(reg) != 2 || reg[0].Source != "client" || reg[1].Source != "server" {
		t.Fatalf("regression groups %+v", reg)
	}
	if r := reg[0].Rows[0]; r.Figure != "error rate: any class" || r.Base != "3.43%" || r.New != "4.59%" || r.Change != "+33.8%" || r.Delta != "+1.16 pp" || r.BaseN != "4,142" {
		t.Errorf("first regression %+v", r)
	}
	if r := reg[0].Rows[1]; r.Figure != "request rate" || r.Change != "−10.0%" {
		t.Errorf("second regression %+v", r)
	}
	if len(reg[1].Rows) != 3 || reg[1].Rows[0].Figure != "ttft p50" || reg[1].Rows[0].Change != "+30.0%" {
		t.Errorf("server regressions %+v", reg[1].Rows)
	}
	// tps_user ×1.1: an improvement of +10.0% at p50, p90 and p99.
	if imp := v.Judged[1].Groups; len(imp) != 1 || len(imp[0].Rows) != 3 || imp[0].Rows[0].Figure != "tps_user p50" || imp[0].Rows[0].Change != "+10.0%" {
		t.Errorf("improvements %+v", imp)
	}
	// chunk_gap differs from itl in the fixture, so nothing is folded.
	if v.Regressions != 5 || v.Improvements != 3 || len(v.Folded) != 0 {
		t.Errorf("regressions %d improvements %d folded %v", v.Regressions, v.Improvements, v.Folded)
	}
}

func TestCompareText(t *testing.T) {
	var buf bytes.Buffer
	if err := CompareText(&buf, compareFixtures(), false); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"base  week 47  (2026-11-23T00:00:02Z → 2026-11-23T23:59:41Z)",
		"5 regressions, 3 improvements", "\nREGRESSIONS\n", "client · all requests", "error rate: any class", "+33.8%", "\nIMPROVEMENTS\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "error rate: any class") > strings.Index(out, "ttft p50") {
		t.Error("the client's error-rate regression should come before the server's TTFT")
	}
	buf.Reset()
	if err := CompareText(&buf, compareFixtures(), true); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"### ttftrace compare: week 47 → week 48", "| verdict | source | group |",
		"| regression | client | all requests | error rate: any class | 3.43% | 4,142 | 4.59% | 4,142 | +1.16 pp | +33.8% |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestCompareTextEscapes checks log strings cannot break the Markdown table
// or inject HTML into it, nor send control sequences to a terminal.
func TestCompareTextEscapes(t *testing.T) {
	base, next := fixture(), slowerFixture()
	for _, a := range []*analyze.Analysis{base, next} {
		for i := range a.Metrics {
			if a.Metrics[i].Source == "server" && a.Metrics[i].Metric == "ttft" {
				a.Metrics[i].Source = "srv|<b>x</b>\x1b[31m"
			}
		}
	}
	c := analyze.Compare(base, next, analyze.CompareOptions{MinChange: 0.05})
	var md, txt bytes.Buffer
	if err := CompareText(&md, c, true); err != nil {
		t.Fatal(err)
	}
	if err := CompareText(&txt, c, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), `srv\|&lt;b&gt;x&lt;/b&gt;\\x1b\[31m`) || strings.Contains(md.String(), "<b>") {
		t.Errorf("markdown does not escape the source:\n%s", md.String())
	}
	if strings.Contains(txt.String(), "\x1b") || !strings.Contains(txt.String(), `srv|<b>x</b>\x1b[31m`) {
		t.Errorf("text does not escape the control sequence:\n%s", txt.String())
	}
}
