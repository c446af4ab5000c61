package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// findChromium returns a headless-capable Chromium, or skips the test when
// none is installed, except under CI=true, where a missing browser fails it
// so CI cannot pass by skipping.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found and CI=true: install it (apt-get install -y chromium)")
	}
	t.Skip("no Chromium found; install it to run the browser test")
	return ""
}

// runChromium runs headless Chromium on file with extra flags and returns
// its standard output. The flags keep it off the network and out of the
// user's profile.
func runChromium(t *testing.T, bin, file string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=5000"}, extra...)
	args = append(args, "file://"+file)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.Bytes()
}

var (
	chartsAttr   = regexp.MustCompile(`<body[^>]*\bdata-charts="(\d+)"`)
	expectedAttr = regexp.MustCompile(`<body[^>]*\bdata-expected-charts="(\d+)"`)
	errorsAttr   = regexp.MustCompile(`<html[^>]*\bdata-errors="(\d+)"`)
	errorsText   = regexp.MustCompile(`(?s)<pre id="tt-errors"[^>]*>(.*?)</pre>`)
	overflowAttr = regexp.MustCompile(`<body[^>]*\bdata-overflow="(\d+)"`)
	overflowBy   = regexp.MustCompile(`<body[^>]*\bdata-overflow-by="([^"]*)"`)
)

// widths are the window widths every page is checked at: a phone, a laptop
// and a desktop, in CSS pixels.
var widths = []int{390, 1280, 1920}

// checkWidths opens file at each of widths and asserts every chart drew,
// no error was recorded and nothing sticks out sideways (tables scroll
// inside their card; charts fit their container).
func checkWidths(t *testing.T, bin, file string, wantCharts int) {
	t.Helper()
	for _, w := range widths {
		dom := runChromium(t, bin, file, "--dump-dom", "--window-size="+strconv.Itoa(w)+",1000")
		checkDrawn(t, dom, wantCharts)
		m := overflowAttr.FindSubmatch(dom)
		if m == nil {
			t.Fatalf("%d px: body data-overflow not found", w)
		}
		if string(m[1]) != "0" {
			by := overflowBy.FindSubmatch(dom)
			t.Errorf("%d px wide: the page is %s px wider than the window (sticking out: %s)", w, m[1], by[1])
		}
	}
}

// screenshots saves the page at a phone's and a desktop's width into dir
// (TTFTRACE_SCREENSHOT_DIR) for a person to look at.
func screenshots(t *testing.T, bin, file, name string) {
	dir := os.Getenv("TTFTRACE_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	for _, w := range []int{390, 1280} {
		shot := filepath.Join(dir, name+"-"+strconv.Itoa(w)+".png")
		runChromium(t, bin, file, "--screenshot="+shot, "--window-size="+strconv.Itoa(w)+","+screenshotHeight(), "--hide-scrollbars")
	}
}

// checkDrawn asserts that in the page dumped by Chromium every chart element
// holds a canvas and no script error or blocked request was recorded.
func checkDrawn(t *testing.T, dom []byte, wantCharts int) {
	t.Helper()
	atoi := func(re *regexp.Regexp, what string) int {
		m := re.FindSubmatch(dom)
		if m == nil {
			t.Fatalf("%s not found in the dumped DOM (did the scripts run?)", what)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	if m := errorsText.FindSubmatch(dom); m != nil && len(bytes.TrimSpace(m[1])) > 0 {
		t.Errorf("page recorded errors:\n%s", m[1])
	}
	if n := atoi(errorsAttr, "html data-errors"); n != 0 {
		t.Errorf("data-errors = %d, want 0", n)
	}
	expected := atoi(expectedAttr, "body data-expected-charts")
	if expected != wantCharts {
		t.Errorf("page declares %d charts, want %d", expected, wantCharts)
	}
	if drawn := atoi(chartsAttr, "body data-charts"); drawn != expected {
		t.Errorf("%d chart elements hold a canvas, want %d", drawn, expected)
	}
	if got := strings.Count(string(dom), "<canvas"); got < expected {
		t.Errorf("%d <canvas> elements in the DOM, want at least %d", got, expected)
	}
}

// TestBrowserReport opens the rendered fixture in headless Chromium at a
// phone's, a laptop's and a desktop's width and checks every chart drew
// without error and nothing overflows sideways. With
// TTFTRACE_SCREENSHOT_DIR=dir it also saves screenshots for a human.
func TestBrowserReport(t *testing.T) {
	bin := findChromium(t)
	file := filepath.Join(t.TempDir(), "report.html")
	var buf bytes.Buffer
	if err := Render(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// The fixture has 1 TTFT chart, 1 breakdown, 3 other distributions (itl,
	// tpot, e2e) + 1 by position, 8 time-series charts (ttft, itl,
	// request_rate, output_tps, concurrency, error_rate, error rate by
	// class, goodput), 2 group charts (host, model) + 1 scatter, 1 error
	// chart, 1 clock chart and 3 examples: 1+1+3+1+8+2+1+1+1+3 = 22.
	checkWidths(t, bin, file, 22)
	screenshots(t, bin, file, "report")
}

// TestBrowserCompare does the same for a comparison page.
func TestBrowserCompare(t *testing.T) {
	bin := findChromium(t)
	file := filepath.Join(t.TempDir(), "compare.html")
	var buf bytes.Buffer
	if err := Compare(&buf, compareFixtures()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	checkWidths(t, bin, file, 1)
	screenshots(t, bin, file, "compare")
}

// screenshotHeight is the screenshot's height in pixels: 5000 unless
// TTFTRACE_SCREENSHOT_HEIGHT says otherwise (the whole report is taller).
func screenshotHeight() string {
	if h := os.Getenv("TTFTRACE_SCREENSHOT_HEIGHT"); h != "" {
		return h
	}
	return "5000"
}
