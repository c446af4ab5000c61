package analyze

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// noValue is the group value of an event that lacks the key.
const noValue = "(none)"

// groupKey identifies one group: the index of the breakdown (−1 for the
// group of all requests) and its values, one per key of that breakdown.
type groupKey struct {
	by     int
	keys   []string
	values []string
}

// id is the key's identity: breakdowns repeating the same keys share it.
func (g groupKey) id() string {
	var b strings.Builder
	for i, k := range g.keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(g.values[i])
		b.WriteByte(0)
	}
	return b.String()
}

// labels is the group as analysis.json writes it: key → value.
func (g groupKey) labels() map[string]string {
	m := make(map[string]string, len(g.keys))
	for i, k := range g.keys {
		m[k] = g.values[i]
	}
	return m
}

// compareGroups orders groups: {} first, then by breakdown in the order
// given, then by values.
func compareGroups(a, b groupKey) int {
	if a.by != b.by {
		return a.by - b.by
	}
	return slices.Compare(a.values, b.values)
}

// groupsOf returns the groups e belongs to: {} and one per breakdown of by
// (an empty breakdown, or one repeating an earlier one, adds none).
func groupsOf(e *schema.Event, by [][]string) []groupKey {
	out := []groupKey{{by: -1}}
	seen := map[string]bool{"": true}
	for i, keys := range by {
		if len(keys) == 0 {
			continue
		}
		g := groupKey{by: i, keys: keys, values: make([]string, len(keys))}
		for j, k := range keys {
			g.values[j] = groupValue(e, k)
		}
		if id := g.id(); !seen[id] {
			seen[id] = true
			out = append(out, g)
		}
	}
	return out
}

// groupValue returns e's value for a breakdown key: model, endpoint, host,
// status, format, source, or else the attribute of that name; "(none)" when
// it is missing or empty.
func groupValue(e *schema.Event, key string) string {
	var v string
	switch key {
	case "model":
		v = e.Model
	case "endpoint":
		v = e.Endpoint
	case "host":
		v = e.Host
	case "format":
		v = e.Format
	case "source":
		v = e.Source
	case "status":
		if e.Status != nil {
			v = strconv.Itoa(int(*e.Status))
		}
	default:
		v = e.Attrs[key]
	}
	if v == "" {
		return noValue
	}
	return v
}
