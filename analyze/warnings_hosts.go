package analyze

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// hostInput is what one input gave one host: its folder, format, source
// and the wall-clock range of its starts (ns).
type hostInput struct {
	path, dir, format, source string
	first, last               int64
}

// hostWarnings warns when one host name holds the events of inputs that
// look like different machines: inputs in different folders, or in one
// folder with one source but different formats (two kinds of proxy), whose
// wall-clock start ranges overlap. Their clocks would be taken as one in
// clock offsets and joins. Only events whose host is their input's default
// (the name the file gave, or --host) count: a host a record names itself
// (OTLP host.name) is the record's word.
func hostWarnings(events []schema.Event, inputs []schema.InputStats) []Warning {
	given := map[string]string{}
	for _, in := range inputs {
		given[in.Path] = in.Host
	}
	byHost := map[string]map[string]*hostInput{}
	for i := range events {
		e := &events[i]
		h, ok := given[e.InputFile]
		if !ok || e.Host != h || e.Clock != schema.ClockWall || e.StartNs == nil {
			continue
		}
		addHostInput(byHost, e)
	}
	ws := []Warning{}
	for _, host := range slices.Sorted(maps.Keys(byHost)) {
		if a, b, ok := mergedMachines(byHost[host]); ok {
			ws = append(ws, Warning{Kind: WarnHostMerged, Message: fmt.Sprintf(
				"host %q holds %s and %s, whose requests overlap in time but come from different machines' logs: "+
					"their clocks are taken as one; name each with --host PATH=NAME (e.g. --host %s)",
				host, a.path, b.path, suggestHost(a, b))})
		}
	}
	return ws
}

// addHostInput widens the start range of e's input under e's host.
func addHostInput(byHost map[string]map[string]*hostInput, e *schema.Event) {
	m := byHost[e.Host]
	if m == nil {
		m = map[string]*hostInput{}
		byHost[e.Host] = m
	}
	hi := m[e.InputFile]
	if hi == nil {
		hi = &hostInput{path: e.InputFile, dir: filepath.Dir(e.InputFile), format: e.Format,
			source: e.Source, first: *e.StartNs, last: *e.StartNs}
		m[e.InputFile] = hi
	}
	hi.first, hi.last = min(hi.first, *e.StartNs), max(hi.last, *e.StartNs)
}

// mergedMachines returns the first pair of inputs (in path order) that look
// like two machines with overlapping ranges.
func mergedMachines(m map[string]*hostInput) (a, b *hostInput, ok bool) {
	paths := slices.Sorted(maps.Keys(m))
	for i, p := range paths {
		for _, q := range paths[i+1:] {
			x, y := m[p], m[q]
			apart := x.dir != y.dir || x.source == y.source && x.format != y.format
			if apart && x.first <= y.last && y.first <= x.last {
				return x, y, true
			}
		}
	}
	return nil, nil, false
}

// suggestHost proposes a --host PATH=NAME for input a, told apart from b:
// its folder named after itself when their folders differ, else the file
// named after its stem.
func suggestHost(a, b *hostInput) string {
	if a.dir != b.dir {
		return a.dir + "=" + filepath.Base(a.dir)
	}
	stem, _, _ := strings.Cut(filepath.Base(a.path), ".")
	return a.path + "=" + stem
}

// builtinKeys are the --by keys every event has (see groupValue).
var builtinKeys = []string{"model", "endpoint", "host", "status", "format", "source"}

// byWarnings warns of --by keys that no event has: a key neither built in
// nor an attribute of any event (a typo: every group would be "(none)"),
// naming the keys the data has and the closest one; and a built-in key no
// event gives a value.
func byWarnings(events []schema.Event, by [][]string) []Warning {
	if len(by) == 0 {
		return []Warning{}
	}
	attrs := map[string]bool{}
	valued := map[string]bool{}
	for i := range events {
		for k := range events[i].Attrs {
			attrs[k] = true
		}
		for _, k := range builtinKeys {
			if !valued[k] && hasBuiltin(&events[i], k) {
				valued[k] = true
			}
		}
	}
	known := append(slices.Clone(builtinKeys), slices.Sorted(maps.Keys(attrs))...)
	ws := []Warning{}
	seen := map[string]bool{}
	for _, keys := range by {
		for _, k := range keys {
			if seen[k] {
				continue
			}
			seen[k] = true
			if w, ok := byKeyWarning(k, known, attrs[k], valued[k], len(events)); ok {
				ws = append(ws, w)
			}
		}
	}
	return ws
}

// hasBuiltin reports whether e has a value for the built-in key k.
func hasBuiltin(e *schema.Event, k string) bool {
	switch k {
	case "model":
		return e.Model != ""
	case "endpoint":
		return e.Endpoint != ""
	case "host":
		return e.Host != ""
	case "status":
		return e.Status != nil
	case "format":
		return e.Format != ""
	}
	return e.Source != ""
}

// byKeyWarning words the warning of one --by key, if it needs one.
func byKeyWarning(k string, known []string, isAttr, hasValue bool, events int) (Warning, bool) {
	switch {
	case slices.Contains(builtinKeys, k) && !hasValue && events > 0:
		return Warning{Kind: WarnByNoValue, Message: fmt.Sprintf(
			"--by %s: no event has a value for this key, so every request falls in one group \"(none)\"", k)}, true
	case slices.Contains(builtinKeys, k) || isAttr:
		return Warning{}, false
	}
	msg := fmt.Sprintf("--by %s: no event has this key, so every request falls in one group \"(none)\"; keys in the data: %s",
		k, strings.Join(known, ", "))
	if c := closestKey(k, known); c != "" {
		msg += fmt.Sprintf(" (did you mean --by %s?)", c)
	}
	return Warning{Kind: WarnByUnknownKey, Message: msg}, true
}

// closestKey returns the known key within edit distance 2 of k (the first
// of the nearest), or "".
func closestKey(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if d := editDistance(k, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
