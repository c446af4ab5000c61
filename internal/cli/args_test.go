package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestReorderArgs(t *testing.T) {
	fs := ingestFlags(&ingestOptions{})
	tests := []struct{ in, want string }{
		{"a b", "-- a b"},
		{"a -o out b", "-o out -- a b"},
		{"a -q b --strict", "-q --strict -- a b"},
		{"-o=out a", "-o=out -- a"},
		{"a --host h -q - b", "--host h -q -- a - b"},
		{"a -- -b -o x", "-- a -b -o x"},
		{"--endpoint /x a --endpoint /y", "--endpoint /x --endpoint /y -- a"},
		{"a --unknown b", "--unknown -- a b"}, // unknown flags are left to Parse to refuse
		{"a -o", "-o -- a"},                   // a missing value is left to Parse to refuse
	}
	for _, tt := range tests {
		got := strings.Join(reorderArgs(fs, strings.Fields(tt.in)), " ")
		if got != tt.want {
			t.Errorf("reorderArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseSLO(t *testing.T) {
	good := []struct {
		in   string
		want map[string]float64
	}{
		{"ttft=500ms,tpot=50ms", map[string]float64{"ttft": 500, "tpot": 50}},
		{"e2e=1.5s", map[string]float64{"e2e": 1500}},                        // 1.5 s = 1500 ms
		{"itl=250us", map[string]float64{"itl": 0.25}},                       // 250 µs = 0.25 ms
		{"ttft=200, e2e=2m", map[string]float64{"ttft": 200, "e2e": 120000}}, // bare number = ms; 2 min = 120000 ms
	}
	for _, tt := range good {
		got, err := parseSLO(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseSLO(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "ttft", "ttft=", "=5ms", "ttft=fast", "ttft=-5ms", "ttft=0", "latency=5ms", "ttft=5ms,,tpot=1ms"} {
		if got, err := parseSLO(bad); err == nil {
			t.Errorf("parseSLO(%q) = %v, want an error", bad, got)
		}
	}
}

// TestSLOFlagRepeats checks that --slo given twice merges the pairs.
func TestSLOFlagRepeats(t *testing.T) {
	o, err := parseAnalyze([]string{"ds", "-o", "a.json", "--slo", "ttft=500ms", "--slo", "tpot=50ms,ttft=400ms"})
	if err != nil {
		t.Fatal(err)
	}
	want := sloFlag{"ttft": 400, "tpot": 50}
	if !reflect.DeepEqual(o.Analysis.SLO, want) {
		t.Errorf("SLO = %v, want %v", o.Analysis.SLO, want)
	}
}

func TestParseAnalyze(t *testing.T) {
	o, err := parseAnalyze([]string{"ds1", "--by", "model", "ds2", "--by", "model+host", "--window", "5m",
		"--compat", "vllm", "-o", "a.json", "--strict", "-q"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.Datasets, []string{"ds1", "ds2"}) || o.Output != "a.json" || !o.Strict || !o.Quiet {
		t.Errorf("options %+v", o)
	}
	ao, err := o.Analysis.options()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ao.By, [][]string{{"model"}, {"model", "host"}}) || ao.Window != 5*time.Minute || ao.Compat != "vllm" {
		t.Errorf("analyze.Options %+v", ao)
	}
}

func TestParseCommandsUsageErrors(t *testing.T) {
	parsers := map[string]func([]string) error{
		"analyze": func(a []string) error { _, err := parseAnalyze(a); return err },
		"report":  func(a []string) error { _, err := parseReport(a); return err },
		"run":     func(a []string) error { _, err := parseRun(a); return err },
		"demo":    func(a []string) error { _, err := parseDemo(a); return err },
		"compare": func(a []string) error { _, err := parseCompare(a); return err },
		"sql":     func(a []string) error { _, err := parseSQL(a); return err },
	}
	tests := []struct {
		cmd  string
		args string
		ok   bool
	}{
		{"analyze", "ds -o a.json", true},
		{"analyze", "-o a.json", false},                       // no dataset
		{"analyze", "ds", false},                              // no -o
		{"analyze", "ds -o a.json --compat tgi-bench", false}, // unknown peer
		{"analyze", "ds -o a.json --by model+", false},        // empty key
		{"analyze", "ds -o a.json --window -1h", false},       // negative window
		{"analyze", "ds -o a.json --window soon", false},      // bad duration
		{"analyze", "ds -o a.json --slo ttft:500ms", false},   // bad SLO syntax
		{"analyze", "ds -o a.json --gc-percent 0", false},     // GC off
		{"analyze", "ds -o a.json --gc-percent 50", true},
		{"report", "a.json -o r.html", true},
		{"report", "-o r.html", false},
		{"report", "a.json b.json -o r.html", false},
		{"run", "logs/ -o out --format nginx --by model --slo ttft=1s", true},
		{"run", "logs/", false},
		{"demo", "", true},
		{"demo", "extra", false},
		{"compare", "base.json new.json -o c.html", true},
		{"compare", "base.json -o c.html", false},
		{"sql", "--dialect trino", true},
		{"sql", "--dialect oracle", false},
		{"sql", "", true},
	}
	for _, tt := range tests {
		err := parsers[tt.cmd](strings.Fields(tt.args))
		var ue *usageError
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s %s: %v", tt.cmd, tt.args, err)
		case !tt.ok && !errors.As(err, &ue):
			t.Errorf("%s %s: err %v, want a usage error", tt.cmd, tt.args, err)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	d, err := parseDemo(nil)
	if err != nil || d.Output != demoOutput {
		t.Errorf("demo -o default %q, %v", d.Output, err)
	}
	s, err := parseSQL(nil)
	if err != nil || s.Dialect != "duckdb" {
		t.Errorf("sql dialect default %q, %v", s.Dialect, err)
	}
	c, err := parseCompare([]string{"-o", "c.html", "old.json", "new.json"})
	if err != nil || c.Base != "old.json" || c.New != "new.json" {
		t.Errorf("compare %+v, %v", c, err)
	}
}
