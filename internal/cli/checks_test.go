package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/samples"
)

// qualityCase is one mistake a user makes, run on the real formats: the
// files it writes under $D (a body "demo:NAME" is that embedded demo log,
// decompressed; "demo:NAME|OLD>NEW" with OLD replaced by NEW), the commands
// run before it (or {"append", FILE, TEXT}), its exit status, what standard error must and must not
// say, and the host the summary must show per input path.
type qualityCase struct {
	name      string
	files     map[string]string
	pre       [][]string
	args      []string
	stdin     string
	terminal  bool
	chdir     bool // run in $D
	code      int
	stderr    []string
	notStderr []string
	hosts     map[string]string
}

// Client lines: two good requests, then lines the client format rejects.
const (
	clientGood = "demo:web-1.client.jsonl.gz"
	nginxFmt   = "nginx=@$D/nginx.fmt"
)

func TestQualityCases(t *testing.T) {
	fleetFiles := map[string]string{
		"proxy/gw-a/access.log": "demo:edge-1.access.log.gz",
		"proxy/gw-c/access.log": "demo:edge-1.access.log.gz|10.0.>10.9.",
		"nginx.fmt":             "demo:nginx.log_format",
	}
	mixedFiles := map[string]string{
		"m/gw-a/access.log":       "demo:edge-1.access.log.gz",
		"m/gw-b/envoy-access.log": "demo:edge-2.access.json.gz",
		"nginx.fmt":               "demo:nginx.log_format",
		"envoy.fmt":               "demo:envoy.format.json",
	}
	cases := []qualityCase{
		{name: "generic file names take their folder's name", files: fleetFiles,
			args:  []string{"run", "$D/proxy", "-o", "$D/out", "--log-format", nginxFmt},
			hosts: map[string]string{"$D/proxy/gw-a/access.log": "gw-a", "$D/proxy/gw-c/access.log": "gw-c"}, notStderr: []string{"warning"}},
		{name: "one host for two folders is a warning", files: fleetFiles,
			args:   []string{"run", "-q", "$D/proxy", "-o", "$D/out", "--log-format", nginxFmt, "--host", "gw"},
			stderr: []string{`warning: host "gw" holds $D/proxy/gw-a/access.log and $D/proxy/gw-c/access.log`, "--host $D/proxy/gw-a=gw-a"}},
		{name: "--host PATH=NAME names a folder's inputs", files: fleetFiles,
			args:  []string{"run", "$D/proxy", "-o", "$D/out", "--log-format", nginxFmt, "--host", "$D/proxy/gw-a=edge-a", "--host", "edge"},
			hosts: map[string]string{"$D/proxy/gw-a/access.log": "edge-a", "$D/proxy/gw-c/access.log": "edge"}},
		{name: "--host PATH=NAME: the file beats its folder", files: fleetFiles,
			args:  []string{"run", "$D/proxy", "-o", "$D/out", "--log-format", nginxFmt, "--host", "$D/proxy=p", "--host", "$D/proxy/gw-c/access.log=c"},
			hosts: map[string]string{"$D/proxy/gw-a/access.log": "p", "$D/proxy/gw-c/access.log": "c"}},
		{name: "--host GLOB=NAME", files: fleetFiles,
			args:  []string{"run", "$D/proxy", "-o", "$D/out", "--log-format", nginxFmt, "--host", "$D/proxy/gw-[a]/*.log=glob"},
			hosts: map[string]string{"$D/proxy/gw-a/access.log": "glob", "$D/proxy/gw-c/access.log": "gw-c"}},
		{name: "unprefixed nginx --log-format in a mixed folder goes to nginx only", files: mixedFiles,
			args:  []string{"run", "$D/m", "-o", "$D/out", "--log-format", "@$D/nginx.fmt"},
			hosts: map[string]string{"$D/m/gw-a/access.log": "gw-a", "$D/m/gw-b/envoy-access.log": "gw-b"}, notStderr: []string{"warning"}},
		{name: "unprefixed Envoy JSON map --log-format goes to envoy only", files: mixedFiles,
			args:  []string{"run", "$D/m", "-o", "$D/out", "--log-format", "@$D/envoy.fmt", "--log-format", nginxFmt},
			hosts: map[string]string{"$D/m/gw-a/access.log": "gw-a", "$D/m/gw-b/envoy-access.log": "gw-b"}, notStderr: []string{"warning"}},
		{name: "unprefixed Envoy text --log-format is not given to nginx", files: mixedFiles, code: 1,
			args: []string{"run", "-q", "$D/m", "-o", "$D/out", "--log-format", "[%START_TIME%] %DURATION%"},
			stderr: []string{"$D/m/gw-b/envoy-access.log: read as envoy, no request record kept (154 records rejected (format mismatch: 154))",
				"1 of 2 inputs gave no request record"}, notStderr: []string{"gw-a/access.log"}},
		{name: "--log-format parsing as both formats", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", "$msec %DURATION%"},
			stderr: []string{`--log-format "$msec %DURATION%" parses both as an nginx log_format and as an Envoy format`, "nginx=… or envoy=…", "usage: ttftrace run"}},
		{name: "--log-format parsing as neither format", files: mixedFiles, code: 2,
			args: []string{"ingest", "$D/m", "-o", "$D/out", "--log-format", "plain text"},
			stderr: []string{`--log-format "plain text" is neither an nginx log_format (log_format "plain text" has no variables) ` +
				"nor an Envoy format (format has no %OPERATOR%)"}},
		{name: "--log-format nginx= without a clock", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", "nginx=$remote_addr $status"},
			stderr: []string{`--log-format "nginx=$remote_addr $status": not a valid nginx log format: log_format has no $msec, $time_local or $time_iso8601`}},
		{name: "--log-format nginx= with glued variables", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", "nginx=$msec$status"},
			stderr: []string{"not a valid nginx log format: log_format: $msec and $status have no separator"}},
		{name: "--log-format envoy= not a JSON map", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", `envoy={"d":1}`},
			stderr: []string{`--log-format "envoy={\"d\":1}": not a valid envoy log format: not a JSON object of strings`}},
		{name: "--log-format envoy= with a bad operator", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", "envoy=%% %DURATION%"},
			stderr: []string{"not a valid envoy log format: bad operator"}},
		{name: "--log-format for a format without one", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", "haproxy=%t"},
			stderr: []string{"not a valid haproxy log format: haproxy takes no log format (only nginx and envoy do)"}},
		{name: "--log-format twice for nginx", files: mixedFiles, code: 2,
			args:   []string{"run", "$D/m", "-o", "$D/out", "--log-format", "@$D/nginx.fmt", "--log-format", nginxFmt},
			stderr: []string{"--log-format: the nginx log format is given twice"}},
		{name: "--host PATH=NAME: a relative PATH names absolute inputs", files: fleetFiles, chdir: true,
			args:  []string{"run", "$D/proxy", "-o", "$D/out", "--log-format", nginxFmt, "--host", "./proxy/gw-a=rel"},
			hosts: map[string]string{"$D/proxy/gw-a/access.log": "rel", "$D/proxy/gw-c/access.log": "gw-c"}},
		{name: "--host PATH naming no input", files: fleetFiles, code: 2,
			args:   []string{"run", "$D/proxy", "-o", "$D/out", "--host", "$D/prxy=a"},
			stderr: []string{"$D/prxy names none of the inputs", "usage: ttftrace run"}},
		{name: "two --host names for all", files: fleetFiles, code: 2,
			args: []string{"ingest", "$D/proxy", "-o", "$D/out", "--host", "a", "--host", "b"}, stderr: []string{"already given"}},
		{name: "--host with an empty name", files: fleetFiles, code: 2,
			args: []string{"ingest", "$D/proxy", "-o", "$D/out", "--host", "$D/proxy="}, stderr: []string{"NAME must be a word"}},
		{name: "OTLP host.name shown in the summary", code: 0,
			files: map[string]string{"a/traces.jsonl": "demo:gpu-1.spans.jsonl.gz", "b/traces.jsonl": "demo:gpu-2.spans.jsonl.gz"},
			args:  []string{"run", "$D/a/traces.jsonl", "$D/b/traces.jsonl", "-o", "$D/out"},
			hosts: map[string]string{"$D/a/traces.jsonl": "gpu-1", "$D/b/traces.jsonl": "gpu-2"}, notStderr: []string{"warning: host"}},
		{name: "nginx combined without timing: warned under -q", files: fleetFiles,
			args:   []string{"run", "-q", "$D/proxy/gw-a/access.log", "-o", "$D/out"},
			stderr: []string{"warning: $D/proxy/gw-a/access.log: 246 successful nginx records carry no `$request_time`/`$msec`", "`--log-format nginx=@FILE`"}},
		{name: "--by typo", files: map[string]string{"c.jsonl": clientGood},
			args:   []string{"run", "-q", "$D/c.jsonl", "-o", "$D/out", "--by", "modle"},
			stderr: []string{"warning: --by modle: no event has this key", "region", "did you mean --by model?"}},
		{name: "--by an attribute the data has", files: map[string]string{"c.jsonl": clientGood},
			args: []string{"run", "-q", "$D/c.jsonl", "-o", "$D/out", "--by", "region+model"}, notStderr: []string{"warning"}},
		{name: "analyze warns too", files: map[string]string{"c.jsonl": clientGood},
			pre:    [][]string{{"ingest", "-q", "$D/c.jsonl", "-o", "$D/ds"}},
			args:   []string{"analyze", "-q", "$D/ds", "-o", "$D/a.json", "--by", "tenant"},
			stderr: []string{"ttftrace analyze: warning: --by tenant: no event has this key"}},
		{name: "analyze names the hosts it uses", files: map[string]string{"a/traces.jsonl": "demo:gpu-1.spans.jsonl.gz", "c.jsonl": clientGood},
			pre:    [][]string{{"ingest", "-q", "$D/a/traces.jsonl", "$D/c.jsonl", "-o", "$D/ds"}},
			args:   []string{"analyze", "$D/ds", "-o", "$D/a.json"},
			stderr: []string{"hosts: client c; server gpu-1\n"}},
		{name: "over half rejected: ingest warns under -q", files: map[string]string{"c.jsonl": clientGood + "|HEAD2+BAD3"},
			args:   []string{"ingest", "-q", "$D/c.jsonl", "-o", "$D/out"},
			stderr: []string{"warning: $D/c.jsonl: 3 of 5 records (60%) rejected as ttftrace-client (invalid json: 3)"}},
		{name: "half rejected is no warning", files: map[string]string{"c.jsonl": clientGood + "|HEAD2+BAD2"},
			args: []string{"ingest", "-q", "$D/c.jsonl", "-o", "$D/out"}, notStderr: []string{"warning"}},
		{name: "forced format fitting no line", files: fleetFiles, code: 1,
			args:   []string{"run", "$D/proxy/gw-a/access.log", "-o", "$D/out", "--format", "envoy"},
			stderr: []string{"$D/proxy/gw-a/access.log: --format envoy fits none of it", "1 of 1 inputs gave no request record; nothing written"}},
		{name: "forced genai-perf on client JSONL", files: map[string]string{"c.jsonl": clientGood}, code: 1,
			args: []string{"run", "-q", "$D/c.jsonl", "-o", "$D/out", "--format", "genai-perf"}, stderr: []string{"c.jsonl: not a genai-perf profile export", "nothing written"}},
		{name: "empty file", files: map[string]string{"e.log": ""}, code: 1,
			args: []string{"run", "-q", "$D/e.log", "-o", "$D/out"}, stderr: []string{"no request record in $D/e.log; nothing written"}},
		{name: "a grown log with only skips is no failure", files: map[string]string{"c.jsonl": clientGood + "|HEAD2+BAD0"},
			pre:  [][]string{{"ingest", "-q", "$D/c.jsonl", "-o", "$D/ds"}, {"append", "$D/c.jsonl", "{\"x\":1}\n"}},
			args: []string{"ingest", "-q", "$D/c.jsonl", "-o", "$D/ds"}, notStderr: []string{"no request record"}},
		{name: "empty standard input", code: 1,
			args: []string{"ingest", "-q", "-", "-o", "$D/out"}, stderr: []string{"no request record in standard input"}},
		{name: "standard input on a terminal", terminal: true, code: 2,
			args: []string{"run", "-", "-o", "$D/out"}, stderr: []string{"- reads standard input, which is a terminal"}},
		{name: "unknown format in run", files: fleetFiles, code: 2,
			args: []string{"run", "$D/proxy", "-o", "$D/out", "--format", "ngnix"}, stderr: []string{`unknown --format "ngnix"`}},
		{name: "invalid --map", files: fleetFiles, code: 2,
			args: []string{"run", "$D/proxy", "-o", "$D/out", "--map", "{bad"}, stderr: []string{"--map", "usage: ttftrace run"}},
		{name: "bad flag in run", code: 2, args: []string{"run", "--bogus", "x", "-o", "$D/out"}, stderr: []string{"bogus"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runQualityCase(t, tc) })
	}
}

func runQualityCase(t *testing.T, tc qualityCase) {
	dir := t.TempDir()
	sub := func(s string) string { return strings.ReplaceAll(s, "$D", dir) }
	for name, body := range tc.files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, caseBody(t, body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if tc.chdir {
		t.Chdir(dir)
	}
	subAll := func(args []string) []string {
		var out []string
		for _, a := range args {
			out = append(out, sub(a))
		}
		return out
	}
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(tc.stdin), stdout: &stdout, stderr: &stderr, terminal: func() bool { return tc.terminal }}
	for _, p := range tc.pre {
		if p[0] == "append" { // append TEXT to FILE, a log growing
			f, err := os.OpenFile(sub(p[1]), os.O_APPEND|os.O_WRONLY, 0)
			if err == nil {
				_, err = f.WriteString(p[2])
				f.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if code := c.main(subAll(p)); code != 0 {
			t.Fatalf("%v: exit %d\n%s", p, code, stderr.String())
		}
	}
	stderr.Reset()
	if code := c.main(subAll(tc.args)); code != tc.code {
		t.Errorf("exit %d, want %d\nstderr:\n%s", code, tc.code, stderr.String())
	}
	for _, s := range tc.stderr {
		if !strings.Contains(stderr.String(), sub(s)) {
			t.Errorf("stderr lacks %q:\n%s", sub(s), stderr.String())
		}
	}
	for _, s := range tc.notStderr {
		if strings.Contains(stderr.String(), sub(s)) {
			t.Errorf("stderr has %q:\n%s", sub(s), stderr.String())
		}
	}
	for path, host := range tc.hosts {
		if got := summaryHost(stderr.String(), sub(path)); got != host {
			t.Errorf("summary host of %s = %q, want %q\n%s", sub(path), got, host, stderr.String())
		}
	}
}

// caseBody returns a file body: the text itself, or a demo log (see
// qualityCase), with "|OLD>NEW" replaced or "|HEADn+BADm" cut to its first
// n lines followed by m lines of invalid JSON.
func caseBody(t *testing.T, body string) []byte {
	name, ok := strings.CutPrefix(body, "demo:")
	if !ok {
		return []byte(body)
	}
	name, edit, _ := strings.Cut(name, "|")
	b := demoFile(t, name)
	if old, repl, ok := strings.Cut(edit, ">"); ok {
		return bytes.ReplaceAll(b, []byte(old), []byte(repl))
	}
	var head, bad int
	if _, err := fmt.Sscanf(edit, "HEAD%d+BAD%d", &head, &bad); err == nil {
		lines := bytes.SplitAfter(b, []byte("\n"))[:head]
		out := bytes.Join(lines, nil)
		for range bad {
			out = append(out, "{not json\n"...)
		}
		return out
	}
	return b
}

// demoFile reads an embedded demo file, decompressed when it is gzip.
func demoFile(t *testing.T, name string) []byte {
	f, err := samples.Demo().Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// summaryHost returns the HOST field of path's row in the ingest summary.
func summaryHost(stderr, path string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == path {
			return f[2]
		}
	}
	return ""
}
