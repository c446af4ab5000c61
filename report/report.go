// Package report renders an analyze.Analysis to one self-contained HTML file:
// the page inlines its CSS, its script and Apache ECharts 5.4.3, and loads
// nothing from the network when opened. It computes no statistics; it lays
// out the figures analyze produced. Every string that came from a log is
// escaped, in the HTML and inside the chart options.
package report

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"

	"github.com/ttftrace/ttftrace/analyze"
)

//go:embed templates/*.tmpl templates/*.css templates/*.js
var templateFS embed.FS

//go:embed assets/echarts.min.js
var echartsJS string

var templates = template.Must(template.New("").ParseFS(templateFS, "templates/*.tmpl"))

// page is what the layout template renders: either a report or a compare.
type page struct {
	Title      string
	Subtitle   string
	Nav        []navItem
	Style      template.CSS
	Hook       template.JS // installed first: collects script errors into the page
	ECharts    template.JS
	Boot       template.JS // draws the charts
	Charts     template.JS // the chart specs as JSON, <, > and & escaped
	ChartCount int
	Report     *reportView
	Compare    *compareView
}

type navItem struct{ ID, Title string }

// Render writes the HTML report of a to w. The output depends only on a, so
// the same analysis always gives the same bytes.
func Render(w io.Writer, a *analyze.Analysis) error {
	if a == nil {
		return fmt.Errorf("report: no analysis")
	}
	cs := &chartSet{}
	v := buildReport(a, cs)
	p := &page{Title: "ttftrace latency report", Subtitle: v.Subtitle, Nav: v.Nav, Report: v}
	return renderPage(w, p, cs)
}

// renderPage fills in the assets and chart specs and executes the layout.
func renderPage(w io.Writer, p *page, cs *chartSet) error {
	specs, err := cs.json()
	if err != nil {
		return fmt.Errorf("report: chart options: %w", err)
	}
	style, err := templateFS.ReadFile("templates/style.css")
	if err != nil {
		return err
	}
	hook, err := templateFS.ReadFile("templates/hook.js")
	if err != nil {
		return err
	}
	boot, err := templateFS.ReadFile("templates/boot.js")
	if err != nil {
		return err
	}
	p.Style = template.CSS(style)
	p.Hook = template.JS(hook)
	p.ECharts = template.JS(echartsJS)
	p.Boot = template.JS(boot)
	p.Charts = template.JS(specs)
	p.ChartCount = len(cs.specs)
	var buf bytes.Buffer
	if err := templates.ExecuteTemplate(&buf, "layout", p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// chartSet collects the charts of a page in order; their ids are c1, c2, …
// so the output is deterministic.
type chartSet struct {
	specs []chartSpec
}

// chartSpec is one chart: the element it draws into and its ECharts option.
type chartSpec struct {
	ID     string `json:"id"`
	Option obj    `json:"option"`
}

// chartRef is what a template needs to place a chart: its element, its
// height in pixels, and its title and subtitle, which the page draws in
// HTML above the canvas so they wrap on a narrow screen and never collide
// with the legend. Title and Sub are plain text (the template escapes them).
type chartRef struct {
	ID         string
	Height     int
	Title, Sub string
}

// caption is a chart's title and subtitle, plain text.
type caption struct{ Title, Sub string }

// obj is an ECharts option object; encoding/json sorts its keys.
type obj = map[string]any

func (cs *chartSet) add(c caption, height int, option obj) chartRef {
	id := fmt.Sprintf("c%d", len(cs.specs)+1)
	option["animation"] = false
	option["useUTC"] = true // time axes and tooltips in UTC, like the RFC 3339 instants
	cs.specs = append(cs.specs, chartSpec{ID: id, Option: option})
	return chartRef{ID: id, Height: height, Title: c.Title, Sub: c.Sub}
}

// json marshals the specs. encoding/json escapes <, >, &, U+2028 and U+2029,
// so the result is safe to place inside a <script> element verbatim.
func (cs *chartSet) json() ([]byte, error) {
	if cs.specs == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(cs.specs)
}
