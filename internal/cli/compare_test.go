package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/fleet"
)

// simulatedWeek runs `ttftrace run` on a simulated fleet's logs and returns
// its analysis.json. With delayMs > 0 every chunk and end of the
// ttftrace-client logs comes delayMs later: client TTFT regresses by that
// much, which the fleet's truth does not know but the test does.
func simulatedWeek(t *testing.T, dir string, seed uint64, start time.Time, delayMs float64) string {
	t.Helper()
	cfg := fleet.DefaultConfig(1500)
	cfg.Seed, cfg.MeanOut, cfg.Start = seed, 40, start
	files, err := fleet.Generate(cfg).WriteAll(filepath.Join(dir, "logs"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-q", "-o", filepath.Join(dir, "out"),
		"--log-format", "nginx=" + fleet.NginxLogFormat, "--log-format", "envoy=" + fleet.EnvoyLogFormat}
	for _, f := range files {
		path := filepath.Join(dir, "logs", f.Name)
		if f.Format == "ttftrace-client" && delayMs > 0 {
			delayClientLog(t, path, delayMs)
		}
		args = append(args, path)
	}
	var stdout, stderr bytes.Buffer
	if code := Run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	return filepath.Join(dir, "out", "analysis.json")
}

// delayClientLog rewrites a ttftrace-client JSONL file with every chunk's
// t_ms and end_ms delayMs later.
func delayClientLog(t *testing.T, path string, delayMs float64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		if e, ok := rec["end_ms"].(float64); ok {
			rec["end_ms"] = math.Round((e+delayMs)*1000) / 1000
		}
		chunks, _ := rec["chunks"].([]any)
		for _, c := range chunks {
			m := c.(map[string]any)
			m["t_ms"] = math.Round((m["t_ms"].(float64)+delayMs)*1000) / 1000
		}
		nb, _ := json.Marshal(rec)
		out.Write(append(nb, '\n'))
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompareWeeks compares simulated weeks: two weeks of the same fleet
// (different seeds) show no regression and exit 0 under --fail-on
// regression; a week whose client TTFT is 400 ms slower puts client TTFT
// first among the regressions and exits 4.
func TestCompareWeeks(t *testing.T) {
	dir := t.TempDir()
	w1 := simulatedWeek(t, filepath.Join(dir, "w1"), 3, time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC), 0)
	w2 := simulatedWeek(t, filepath.Join(dir, "w2"), 4, time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), 0)
	w3 := simulatedWeek(t, filepath.Join(dir, "w3"), 5, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), 400)

	var stdout, stderr bytes.Buffer
	html := filepath.Join(dir, "cmp.html")
	if code := Run([]string{"compare", w1, w2, "-o", html, "--fail-on", "regression"}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("same fleet: exit %d, want 0\n%s%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "base  2026-11-16  (2026-11-16T") || !strings.Contains(out, "new   2026-11-23  (") ||
		!strings.Contains(out, "\n0 regressions") {
		t.Errorf("same fleet summary:\n%s", out)
	}
	if page, err := os.ReadFile(html); err != nil || !bytes.Contains(page, []byte("2026-11-16")) {
		t.Errorf("compare page: %v", err)
	}

	stdout.Reset()
	stderr.Reset()
	code := Run([]string{"compare", "--format", "md", "--fail-on", "regression", w2, w3, "--label-base", "week 48", "--label-new", "week 49"}, nil, &stdout, &stderr)
	if code != exitRegression {
		t.Fatalf("slower week: exit %d, want %d\n%s%s", code, exitRegression, stdout.String(), stderr.String())
	}
	var first string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "| regression") {
			first = line
			break
		}
	}
	if !strings.HasPrefix(first, "| regression | client | all requests | ttft p") || !strings.Contains(stdout.String(), "### ttftrace compare: week 48 → week 49") {
		t.Errorf("first regression %q, want client ttft\n%s", first, stdout.String())
	}
}

func TestParseMinChange(t *testing.T) {
	def, per, err := parseMinChange("7.5%,ttft=10%,request_rate=off")
	if err != nil || def != 0.075 || per["ttft"] != 0.1 || !math.IsInf(per["request_rate"], 1) || len(per) != 2 {
		t.Errorf("got %v %v %v", def, per, err)
	}
	for _, bad := range []string{"5", "off", "5%,ttft", "5%,=3%", "-1%", "x%", "5%,ttft=7"} {
		if _, _, err := parseMinChange(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzParseMinChange checks the --min-change parser never panics and only
// accepts thresholds a verdict can use: finite and non-negative, or off.
func FuzzParseMinChange(f *testing.F) {
	for _, s := range []string{"5%", "7.5%,ttft=10%,request_rate=off", "", "%", "5%,", "1e308%", "NaN%", "-0%", "5%,a=b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		def, per, err := parseMinChange(s)
		if err != nil {
			return
		}
		if math.IsNaN(def) || math.IsInf(def, 0) || def < 0 {
			t.Errorf("%q: default %v", s, def)
		}
		for k, v := range per {
			if k == "" || math.IsNaN(v) || v < 0 || math.IsInf(v, -1) {
				t.Errorf("%q: %s = %v", s, k, v)
			}
		}
	})
}
