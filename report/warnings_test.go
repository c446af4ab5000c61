package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
)

// TestWarningsFirst renders the analysis' warnings above the headline, in
// their order, with backticked spans as code and log-controlled text
// escaped; without warnings there is no section.
func TestWarningsFirst(t *testing.T) {
	a := fixture()
	a.Warnings = []analyze.Warning{
		{Kind: analyze.WarnNoTiming, Input: "<script>x</script>.log", Message: "<script>x</script>.log: 3 records carry no `$request_time`: give `--log-format nginx=@FILE`"},
		{Kind: analyze.WarnByUnknownKey, Message: "--by modle: an odd ` backtick"},
	}
	var buf bytes.Buffer
	if err := Render(&buf, a); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	w, h := strings.Index(page, `<section id="warnings"`), strings.Index(page, `<section id="headline"`)
	if w < 0 || h < 0 || w > h {
		t.Fatalf("warnings section at %d, headline at %d", w, h)
	}
	for _, want := range []string{
		"<li>&lt;script&gt;x&lt;/script&gt;.log: 3 records carry no <code>$request_time</code>: give <code>--log-format nginx=@FILE</code></li>",
		"<li>--by modle: an odd ` backtick</li>", `<a href="#warnings">Warnings</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>x") {
		t.Error("log text reached the page unescaped")
	}
	a.Warnings = nil
	buf.Reset()
	Render(&buf, a)
	if strings.Contains(buf.String(), `id="warnings"`) {
		t.Error("a warnings section without warnings")
	}
}
