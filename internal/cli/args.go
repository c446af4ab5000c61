package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints nothing by itself (run prints the usage).
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseArgs parses args with fs, flags allowed before and after the
// positional arguments, and returns the positional arguments. "--" ends the
// flags: everything after it is positional. A bad flag is a usageError;
// -h and --help give flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := fs.Parse(reorderArgs(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error()}
	}
	return fs.Args(), nil
}

// reorderArgs moves the flags of args (with the values of flags that take
// one) in front of the positional arguments, keeping both in order, and ends
// the flags with "--". It knows which flags take a value from fs: every flag
// except booleans. "-" alone is a positional argument (standard input).
func reorderArgs(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(append(flags, "--"), pos...)
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// sloMetrics are the metrics an --slo may name.
var sloMetrics = []string{"ttft", "tpot", "itl", "e2e", "chunk_gap", "time_to_headers", "queue", "prefill", "decode"}

// sloFlag is the repeatable --slo flag: metric=limit pairs separated by
// commas, a limit being a Go duration ("500ms", "1.5s") or a bare number of
// milliseconds. It maps each metric to its limit in milliseconds.
type sloFlag map[string]float64

func (s *sloFlag) String() string {
	keys := make([]string, 0, len(*s))
	for k := range *s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%gms", k, (*s)[k]))
	}
	return strings.Join(parts, ",")
}

func (s *sloFlag) Set(v string) error {
	parsed, err := parseSLO(v)
	if err != nil {
		return err
	}
	if *s == nil {
		*s = sloFlag{}
	}
	for k, ms := range parsed {
		(*s)[k] = ms
	}
	return nil
}

// parseSLO parses "ttft=500ms,tpot=50ms" into {"ttft": 500, "tpot": 50}
// (milliseconds).
func parseSLO(v string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, pair := range strings.Split(v, ",") {
		metric, limit, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || metric == "" || limit == "" {
			return nil, fmt.Errorf("%q is not metric=limit (e.g. ttft=500ms)", pair)
		}
		if !slices.Contains(sloMetrics, metric) {
			return nil, fmt.Errorf("unknown metric %q (one of %s)", metric, strings.Join(sloMetrics, ", "))
		}
		ms, err := parseMillis(limit)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", metric, err)
		}
		out[metric] = ms
	}
	return out, nil
}

// parseMillis reads a positive duration ("500ms", "1.5s") or a bare number
// of milliseconds and returns milliseconds.
func parseMillis(s string) (float64, error) {
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil {
		d, derr := time.ParseDuration(s)
		if derr != nil {
			return 0, fmt.Errorf("bad limit %q (e.g. 500ms or 1.5s)", s)
		}
		ms = float64(d) / float64(time.Millisecond)
	}
	if !(ms > 0) {
		return 0, fmt.Errorf("limit %q must be positive", s)
	}
	return ms, nil
}
