package cli

import (
	"flag"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/ingest"
)

// inputFlags are the flags of commands that read logs (ingest, run).
type inputFlags struct {
	Format    string     // --format: skip sniffing
	Host      stringList // --host NAME or PATH=NAME, repeatable: host of records that carry none
	LogFormat stringList // --log-format [FORMAT=]STRING|@FILE, repeatable
	Map       string     // --map @FILE (or the mapping itself)
	TZ        string     // --tz: zone of log times without one
	Endpoints stringList // --endpoint, repeatable
}

func (f *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.Format, "format", "", "input format `NAME`, instead of sniffing (see ttftrace formats)")
	fs.Var(&f.Host, "host", "observer host of records that carry none: `NAME` for every input, or PATH=NAME for the inputs a file, folder or glob names (repeatable; default: the file name up to its first dot, or its folder's name when the file name is generic: access, traces, router… see README)")
	fs.Var(&f.LogFormat, "log-format", "nginx log_format, Envoy format string or Envoy JSON key→operator map, inline or from a file: `[FORMAT=]STRING|@FILE`; without a prefix it goes to the one format it parses as; prefix nginx= or envoy= to give both (--log-format nginx=@a --log-format envoy=@b)")
	fs.StringVar(&f.Map, "map", "", "field mapping of the generic jsonl format: `@FILE` or the JSON itself")
	fs.StringVar(&f.TZ, "tz", "", "time `ZONE` of log times that carry none, e.g. Europe/Paris (default UTC)")
	fs.Var(&f.Endpoints, "endpoint", "URL `PATH` of HAR entries to keep (repeatable; default: the LLM API paths)")
}

// driverOptions resolves @FILE values, the time zone and the hosts of the
// inputs, and checks --map. Its errors are usage errors, but for inputs
// that cannot be listed.
func (f *inputFlags) driverOptions(inputs []string) (ingest.DriverOptions, error) {
	var o ingest.DriverOptions
	var err error
	for _, v := range f.LogFormat {
		name, rest, prefixed := cutFormatPrefix(v)
		text, err := readAtFile("--log-format", rest)
		if err != nil {
			return o, err
		}
		if !prefixed {
			name = ""
		}
		if name, err = logFormatFor(v, name, text); err != nil {
			return o, err
		}
		if _, dup := o.LogFormats[name]; dup {
			return o, usagef("--log-format: the %s log format is given twice", name)
		}
		if o.LogFormats == nil {
			o.LogFormats = map[string]string{}
		}
		o.LogFormats[name] = text
	}
	if o.Options.Map, err = readAtFile("--map", f.Map); err != nil {
		return o, err
	}
	if f.TZ != "" {
		if o.Options.TZ, err = time.LoadLocation(f.TZ); err != nil {
			return o, usagef("--tz: %v", err)
		}
	}
	if err := checkMap(o.Options.Map); err != nil {
		return o, err
	}
	hosts, err := parseHosts(f.Host)
	if err == nil {
		err = hosts.apply(inputs, &o)
	}
	o.Format, o.Options.Endpoints = f.Format, f.Endpoints
	return o, err
}

// cutFormatPrefix splits "nginx=@file" into the format name and the rest
// when v starts with the name of an input format and "="; a log format
// string itself ("$remote_addr …") never does.
func cutFormatPrefix(v string) (name, rest string, ok bool) {
	name, rest, ok = strings.Cut(v, "=")
	if !ok {
		return "", v, false
	}
	if _, known := ingest.Lookup(name); !known {
		return "", v, false
	}
	return name, rest, true
}

// readAtFile returns v, or the contents of the file v names after "@".
func readAtFile(flagName, v string) (string, error) {
	name, ok := strings.CutPrefix(v, "@")
	if !ok {
		return v, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return "", usagef("%s: %v", flagName, err)
	}
	return string(b), nil
}

// compatPeers are the peer tools --compat may name (see analyze.Options).
var compatPeers = []string{"vllm", "genai-perf", "guidellm", "llmperf"}

// analysisFlags are the flags of commands that analyse (analyze, run, demo).
type analysisFlags struct {
	By     stringList    // --by KEY[+KEY], repeatable
	Window time.Duration // --window
	SLO    sloFlag       // --slo metric=limit,…
	Compat string        // --compat NAME
	// GCPercent is Go's GC target while analysing (--gc-percent): the heap
	// may outgrow the live data by this percentage before a collection.
	GCPercent int
}

// defaultGCPercent is --gc-percent's default. Analysis keeps its data in
// pointer-free arrays, which a collection marks without scanning, so
// collecting often costs little CPU, while Go's default (100) lets the
// heap grow to twice the live data before collecting: 10 keeps the peak
// near the live data.
const defaultGCPercent = 10

// applyGC sets the GC target of the analysis that follows.
func (f *analysisFlags) applyGC() { debug.SetGCPercent(f.GCPercent) }

func (f *analysisFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.By, "by", "breakdown `KEY` (model, endpoint, host, status, format or an attribute; model+host crosses; repeatable)")
	fs.DurationVar(&f.Window, "window", 0, "time-series window `DURATION`, e.g. 1h (default: chosen from the data's span)")
	fs.Var(&f.SLO, "slo", "service level objectives `METRIC=LIMIT,…`, e.g. ttft=500ms,tpot=50ms (for goodput)")
	fs.StringVar(&f.Compat, "compat", "", "add a peer tool's figures: `NAME` (vllm, genai-perf, guidellm, llmperf)")
	fs.IntVar(&f.GCPercent, "gc-percent", defaultGCPercent, "Go's GC target while analysing, `PERCENT` of the live heap (lower: less memory, more CPU)")
}

// options checks the flags and returns them as analyze.Options.
func (f *analysisFlags) options() (analyze.Options, error) {
	var o analyze.Options
	for _, by := range f.By {
		keys := strings.Split(by, "+")
		if slices.Contains(keys, "") {
			return o, usagef("--by %q: empty key", by)
		}
		o.By = append(o.By, keys)
	}
	if f.Window < 0 {
		return o, usagef("--window %v: must be positive", f.Window)
	}
	if f.GCPercent < 1 {
		return o, usagef("--gc-percent %d: must be at least 1", f.GCPercent)
	}
	if f.Compat != "" && !slices.Contains(compatPeers, f.Compat) {
		return o, usagef("--compat %q: one of %s", f.Compat, strings.Join(compatPeers, ", "))
	}
	o.Window, o.SLO, o.Compat = f.Window, map[string]float64(f.SLO), f.Compat
	return o, nil
}

// needArgs checks the number of positional arguments (max -1: any).
func needArgs(pos []string, min, max int, what string) error {
	switch {
	case len(pos) < min:
		return usagef("missing %s", what)
	case max >= 0 && len(pos) > max:
		return usagef("unexpected argument %q", pos[max])
	}
	return nil
}

// needOutput is a usage error when -o is missing.
func needOutput(output string) error {
	if output == "" {
		return usagef("missing -o")
	}
	return nil
}

// commonFlags are -o, -q and --strict.
type commonFlags struct {
	Output string
	Quiet  bool
	Strict bool
}

func (c *commonFlags) register(fs *flag.FlagSet, output string, strict bool) {
	fs.StringVar(&c.Output, "o", "", output)
	fs.BoolVar(&c.Quiet, "q", false, "quiet: no summary, no progress bar (warnings are still printed)")
	if strict {
		fs.BoolVar(&c.Strict, "strict", false, "fail (exit 3) when any record is rejected")
	}
}
