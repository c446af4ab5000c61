package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// echartsMarker stands for the inlined ECharts build in golden files, which
// would otherwise hold a megabyte of third-party code.
const echartsMarker = "/* echarts.min.js 5.4.3, inlined by report */"

// render renders a and fails the test on error.
func render(t *testing.T, a *analyze.Analysis) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, a); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// checkGolden compares page (with ECharts replaced by a marker) with
// testdata/name, or rewrites it under -update.
func checkGolden(t *testing.T, name, page string) {
	t.Helper()
	if n := strings.Count(page, echartsJS); n != 1 {
		t.Fatalf("ECharts inlined %d times, want 1", n)
	}
	got := strings.Replace(page, echartsJS, echartsMarker, 1)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the rendered page; review the change and run with -update", path)
	}
}

// TestGoldenReport pins the whole page rendered from the fixture. Spot
// checks of the golden against the fixture by hand: the breakdown's p99 row
// shows server queue 610 (610.2 rounded to whole ms, as values ≥ 100 are)
// and its share 38.0% (610.2 / 1604.4 = 0.3803); the client → proxy match
// rate is 98.7% (4090 / (4090 + 52) = 0.98744); the client's failed share is
// 3.43% (142 / 4142 = 0.034283).
func TestGoldenReport(t *testing.T) {
	page := render(t, fixture())
	checkGolden(t, "report.golden.html", page)
	for _, want := range []string{">610<span class=\"ci\">38.0%</span>", "<td class=\"n\">98.7%</td>",
		"142 <span class=\"ci\">3.43%</span>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestGoldenCompare(t *testing.T) {
	var buf bytes.Buffer
	if err := Compare(&buf, compareFixtures()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compare.golden.html", buf.String())
}

func TestDeterministic(t *testing.T) {
	first, second := render(t, fixture()), render(t, fixture())
	if first != second {
		t.Fatal("two renders of the same analysis differ")
	}
}

// TestSelfContained checks the page can load nothing: no external script,
// style, font, image or frame, and a Content-Security-Policy that forbids
// any fetch even if something slipped through.
func TestSelfContained(t *testing.T) {
	page := render(t, fixture())
	if !strings.Contains(page, `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"`) {
		t.Error("page lacks its Content-Security-Policy")
	}
	ours := strings.Replace(page, echartsJS, "", 1)
	for _, bad := range []string{"<script src", "<link", "@import", "url(", "<iframe", "<img", "http://", "https://"} {
		if strings.Contains(strings.ToLower(ours), bad) {
			t.Errorf("page outside ECharts contains %q", bad)
		}
	}
	if strings.Contains(strings.ToLower(echartsJS), "</script") {
		t.Error("echarts.min.js contains </script and cannot be inlined as it is")
	}
}

// TestEscaping renders analyses whose log strings are HTML and script
// injections and checks none reaches the page raw: not in the HTML and not
// in the chart options, where ECharts would render tooltips as HTML.
func TestEscaping(t *testing.T) {
	const model = `<img src=x onerror=alert(1)>`
	const host = `</script><script>alert(1)</script>`
	a := fixture()
	a.Metrics = append(a.Metrics, a.Metrics[0])
	a.Metrics[len(a.Metrics)-1].Group = map[string]string{"model": model}
	a.ClockOffsets[0].Host = host
	a.Sources[0].Hosts = []string{host}
	a.Examples[0].Bars[0].Host = host
	a.Examples[0].Key = model
	a.Inputs[0].Path = host
	a.Errors[0].Class = model
	page := render(t, a)
	ours := strings.Replace(page, echartsJS, "", 1) // ECharts' own code mentions <img
	if strings.Contains(page, model) || strings.Contains(page, host) {
		t.Error("page contains a payload raw")
	}
	for _, raw := range []string{"<script>alert", "<img"} {
		if strings.Contains(ours, raw) {
			t.Errorf("page contains %q raw", raw)
		}
	}
	// In the HTML the strings are entities; in the chart JSON they are
	// HTML-escaped first and then JSON-escaped: & < > become \u0026 \u003c \u003e.
	for _, want := range []string{"&lt;img src=x onerror=alert(1)&gt;", `\u0026lt;img src=x onerror=alert(1)\u0026gt;`,
		`\u0026lt;/script\u0026gt;\u0026lt;script\u0026gt;alert(1)`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks the escaped form %q", want)
		}
	}
	checkScriptCount(t, page)
}

// checkScriptCount asserts the page holds exactly its own four scripts.
func checkScriptCount(t *testing.T, page string) {
	t.Helper()
	lower := strings.ToLower(page)
	if n := strings.Count(lower, "<script"); n != 4 {
		t.Errorf("page has %d <script tags, want 4", n)
	}
	if n := strings.Count(lower, "</script"); n != 4 {
		t.Errorf("page has %d </script tags, want 4", n)
	}
}

// TestEscapingEveryString sets every string in the analysis (values and map
// keys, at any depth) to an injection and checks none reaches the page raw.
func TestEscapingEveryString(t *testing.T) {
	const payload = `"'><script>alert(1)</script><img src=x onerror=alert(2)>`
	for _, name := range []string{"report", "compare"} {
		a := fixture()
		poison(reflect.ValueOf(a).Elem(), payload)
		var buf bytes.Buffer
		var err error
		if name == "report" {
			err = Render(&buf, a)
		} else {
			err = Compare(&buf, analyze.Compare(a, a, analyze.CompareOptions{BaseLabel: payload}))
		}
		if err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		for _, raw := range []string{"<script>alert", "<img src=x", "alert(1)</script>"} {
			if strings.Contains(page, raw) {
				t.Errorf("%s: page contains %q raw", name, raw)
			}
		}
		checkScriptCount(t, page)
	}
}

// poison appends payload to every string reachable from v.
func poison(v reflect.Value, payload string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + payload)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			poison(v.Elem(), payload)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			poison(v.Field(i), payload)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			poison(v.Index(i), payload)
		}
	case reflect.Map:
		poisonMap(v, payload)
	}
}

func poisonMap(v reflect.Value, payload string) {
	if v.IsNil() {
		return
	}
	out := reflect.MakeMap(v.Type())
	iter := v.MapRange()
	for iter.Next() {
		k := reflect.New(v.Type().Key()).Elem()
		k.Set(iter.Key())
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(iter.Value())
		poison(k, payload)
		poison(e, payload)
		out.SetMapIndex(k, e)
	}
	v.Set(out)
}
