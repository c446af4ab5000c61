package fleet

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestWriteWeek: every request is one gateway line, every request that
// reached an engine one engine record, and each log is in the order its
// host writes it (nginx's $msec and TGI's timestamp never go back).
func TestWriteWeek(t *testing.T) {
	dir := t.TempDir()
	cfg, files := writeDay(t, dir)
	if len(files) != cfg.Proxies+cfg.Servers {
		t.Fatalf("%d logs", len(files))
	}
	var gateway, engine int
	for _, f := range files {
		lines := readLines(t, filepath.Join(dir, f.Name))
		checkLogOrder(t, f, lines)
		switch f.Format {
		case "nginx", "envoy":
			gateway += len(lines)
		case "otlp":
			for _, l := range lines {
				engine += strings.Count(l, `"name":"llm_request"`)
			}
		case "tgi":
			engine += len(lines)
		}
	}
	if gateway != cfg.Requests {
		t.Errorf("%d gateway lines for %d requests", gateway, cfg.Requests)
	}
	if engine > cfg.Requests || engine < cfg.Requests*9/10 {
		t.Errorf("%d engine records for %d requests (2%% are rate limited at the gateway)", engine, cfg.Requests)
	}
}

// writeDay writes a week of one day and 3,000 requests into dir.
func writeDay(t *testing.T, dir string) (WeekConfig, []File) {
	t.Helper()
	cfg := DefaultWeek(3000)
	cfg.Days = 1
	files, err := WriteWeek(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, files
}

// checkLogOrder fails t when f's lines are not in the order its host
// writes them (nginx's $msec and TGI's timestamp never go back).
func checkLogOrder(t *testing.T, f File, lines []string) {
	t.Helper()
	msec := regexp.MustCompile(` msec=(\d+\.\d+) `)
	prev := ""
	for _, l := range lines {
		key := ""
		switch f.Format {
		case "nginx":
			key = msec.FindStringSubmatch(l)[1]
		case "tgi":
			key = l[:27]
		}
		if key < prev {
			t.Fatalf("%s: %s logged after %s", f.Name, key, prev)
		}
		prev = key
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}
