package analyze

import (
	"slices"
	"strconv"
	"strings"
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

// groupsOfRow finds the groups of events, reusing its buffers.
type groupsOfRow struct {
	out    []*groupAcc
	id     []byte
	values []string
}

// of returns the groups of acc that e belongs to, creating them: {}
// (acc.all) and one per breakdown of by (an empty breakdown, or one
// repeating an earlier one, adds none). The slice is reused by the next
// call.
func (gs *groupsOfRow) of(acc *sourceAcc, e event, by [][]string) []*groupAcc {
	gs.out = append(gs.out[:0], acc.all)
	for i, keys := range by {
		if len(keys) == 0 {
			continue
		}
		gs.id, gs.values = gs.id[:0], gs.values[:0]
		for _, k := range keys {
			v := groupValue(e, k)
			gs.values = append(gs.values, v)
			gs.id = append(append(append(append(gs.id, k...), 0), v...), 0)
		}
		ga := acc.groups[string(gs.id)]
		if ga == nil {
			ga = acc.group(groupKey{by: i, keys: keys, values: slices.Clone(gs.values)})
		}
		if !slices.Contains(gs.out, ga) {
			gs.out = append(gs.out, ga)
		}
	}
	return gs.out
}

// groupValue returns e's value for a breakdown key: model, endpoint, host,
// status, format, source, or else the attribute of that name; "(none)" when
// it is missing or empty.
func groupValue(e event, key string) string {
	var v string
	switch key {
	case "model":
		v = e.model()
	case "endpoint":
		v = e.endpoint()
	case "host":
		v = e.host()
	case "format":
		v = e.format()
	case "source":
		v = e.source()
	case "status":
		if st, ok := e.status(); ok {
			v = strconv.Itoa(int(st))
		}
	default:
		v = e.c.AttrOf(e.i, key)
	}
	if v == "" {
		return noValue
	}
	return v
}
