package analyze

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// hostInput is what one input gave one host: its path, the host, its
// folder, format, source, clock (of its first event)
// and the wall-clock range of its starts (ns).
type hostInput struct {
	path, host, dir, format, source, clock string
	first, last                            int64
}

// hostWarnings warns when one host name holds the events of inputs that
// look like different machines: inputs in different folders, or in one
// folder with one source but different formats (two kinds of proxy), whose
// wall-clock start ranges overlap or one of which is on a steady clock. Their clocks would be taken as one in
// clock offsets and joins. Only events whose host is their input's default
// (the name the file gave, or --host) count: a host a record names itself
// (OTLP host.name) is the record's word.
func hostWarnings(c *dataset.Columns, inputs []schema.InputStats) []Warning {
	given := map[string]string{}
	for _, in := range inputs {
		given[in.Path] = in.Host
	}
	byHost := map[string]map[string]*hostInput{}
	var last *hostInput // events come input by input: most widen the last one
	var lastFile, lastHost uint32
	for i := range c.Rows {
		start, ok := c.StartNs.Get(i)
		if !ok || c.Clock.At(i) == schema.ClockRelative {
			continue // relative clocks never join
		}
		file, host := c.InputFile.Codes[i], c.Host.Codes[i]
		if last != nil && file == lastFile && host == lastHost {
			last.first, last.last = min(last.first, start), max(last.last, start)
			continue
		}
		if h, ok := given[c.InputFile.Values[file]]; ok && c.Host.Values[host] == h {
			last, lastFile, lastHost = addHostInput(byHost, c, i, start), file, host
		}
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

// addHostInput widens the start range of row i's input under its host
// (start is its start, ns) and returns that input's entry.
func addHostInput(byHost map[string]map[string]*hostInput, c *dataset.Columns, i int, start int64) *hostInput {
	host, file := c.Host.At(i), c.InputFile.At(i)
	m := byHost[host]
	if m == nil {
		m = map[string]*hostInput{}
		byHost[host] = m
	}
	hi := m[file]
	if hi == nil {
		hi = &hostInput{path: file, host: host, dir: filepath.Dir(file), format: c.Format.At(i),
			source: c.Source.At(i), clock: c.Clock.At(i), first: start, last: start}
		m[file] = hi
	}
	hi.first, hi.last = min(hi.first, start), max(hi.last, start)
	return hi
}

// mergedMachines returns the first pair of inputs (in path order) that look
// like two machines with overlapping ranges.
func mergedMachines(m map[string]*hostInput) (a, b *hostInput, ok bool) {
	paths := slices.Sorted(maps.Keys(m))
	for i, p := range paths {
		for _, q := range paths[i+1:] {
			x, y := m[p], m[q]
			apart := x.dir != y.dir || x.source == y.source && x.format != y.format
			if apart && overlap(x, y) {
				return x, y, true
			}
		}
	}
	return nil, nil, false
}

// overlap reports whether the start ranges of x and y overlap; ranges on
// a steady clock (an arbitrary origin per machine) cannot be told apart,
// so they count as overlapping.
func overlap(x, y *hostInput) bool {
	if x.clock != schema.ClockWall || y.clock != schema.ClockWall {
		return true
	}
	return x.first <= y.last && y.first <= x.last
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

// byWarnings warns of --by keys that no event of c has: a key neither
// built in nor an attribute of any event (a typo: every group would be
// "(none)"), naming the keys the data has and the closest one; and a
// built-in key no event gives a value. c must have been read with the
// attributes by names (ColumnsOptions).
func byWarnings(c *dataset.Columns, by [][]string) []Warning {
	var keys []string // each key once, in option order
	for _, ks := range by {
		for _, k := range ks {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	ws := []Warning{}
	var known []string
	for _, k := range keys {
		if hasKey(c, k) || (!slices.Contains(builtinKeys, k) && c.Rows == 0) {
			continue
		}
		if known == nil {
			known = append(slices.Clone(builtinKeys), c.AttrKeys()...)
		}
		ws = append(ws, byKeyWarning(k, known))
	}
	return ws
}

// hasKey reports whether some event of c has a value for key k: a
// built-in key's column, else the attribute k.
func hasKey(c *dataset.Columns, k string) bool {
	switch k {
	case "model":
		return anyValue(&c.Model)
	case "endpoint":
		return anyValue(&c.Endpoint)
	case "host":
		return anyValue(&c.Host)
	case "format":
		return anyValue(&c.Format)
	case "source":
		return anyValue(&c.Source)
	case "status":
		return len(c.Status.Values) > 0
	}
	for _, a := range c.Attrs.Values {
		if c.AttrStrings[a.Key] == k {
			return true
		}
	}
	return false
}

// anyValue reports whether some row of d is not "" (code 0).
func anyValue[C uint8 | uint32](d *dataset.ColumnsDict[C]) bool {
	for _, code := range d.Codes {
		if code != 0 {
			return true
		}
	}
	return false
}

// byKeyWarning words the warning of a --by key no event has a value for.
func byKeyWarning(k string, known []string) Warning {
	if slices.Contains(builtinKeys, k) {
		return Warning{Kind: WarnByNoValue, Message: fmt.Sprintf(
			"--by %s: no event has a value for this key, so every request falls in one group \"(none)\"", k)}
	}
	msg := fmt.Sprintf("--by %s: no event has this key, so every request falls in one group \"(none)\"; keys in the data: %s",
		k, strings.Join(known, ", "))
	if c := closestKey(k, known); c != "" {
		msg += fmt.Sprintf(" (did you mean --by %s?)", c)
	}
	return Warning{Kind: WarnByUnknownKey, Message: msg}
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
