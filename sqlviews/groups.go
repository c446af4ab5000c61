package sqlviews

import (
	"fmt"
	"strings"
)

// dialectSyntax is what the group expressions need of a dialect: the
// string type, an array constructor, and a map lookup that gives NULL for a
// missing key.
type dialectSyntax struct {
	str        string
	arrayOpen  string
	arrayClose string
	mapLookup  string // format with the map column and the quoted key
	pairFmt    string // format of a (group_key, group_values) struct
	explode    string // grouped_events' body, formatted with the pairs
	match      string // regular expression match, formatted with string and pattern
	otherIDs   string // the rows of join_events' other_ids: source, event_id, raw
}

var syntaxes = map[string]dialectSyntax{
	"duckdb": {"VARCHAR", "[", "]", "%s[%s]",
		"{'group_key': %s, 'group_values': %s}",
		"SELECT * EXCLUDE (g), g.group_key, g.group_values\nFROM (SELECT *, unnest([\n    %s\n  ]) AS g FROM ttft_events)",
		"regexp_matches(%s, %s)",
		"SELECT source, event_id, unnest(other_ids) AS raw FROM join_events"},
	"trino": {"VARCHAR", "ARRAY[", "]", "element_at(%s, %s)",
		"ROW(%s, %s)",
		"SELECT e.*, g.group_key, g.group_values\nFROM ttft_events e\nCROSS JOIN UNNEST(ARRAY[\n    %s\n  ]) AS g (group_key, group_values)",
		"regexp_like(%s, %s)",
		"SELECT e.source, e.event_id, x.raw FROM join_events e CROSS JOIN UNNEST(e.other_ids) AS x (raw)"},
	"spark": {"STRING", "array(", ")", "try_element_at(%s, %s)",
		"named_struct('group_key', %s, 'group_values', %s)",
		"SELECT e.*, g.group_key, g.group_values\nFROM ttft_events e\nLATERAL VIEW inline(array(\n    %s\n  )) g AS group_key, group_values",
		"%s RLIKE %s",
		"SELECT source, event_id, raw FROM join_events LATERAL VIEW explode(other_ids) x AS raw"},
}

// array returns the array of elems in dialect d, typed even when empty.
func (d dialectSyntax) array(elems []string) string {
	if len(elems) == 0 {
		return "CAST(" + d.arrayOpen + d.arrayClose + " AS " + d.arrayType() + ")"
	}
	return d.arrayOpen + strings.Join(elems, ", ") + d.arrayClose
}

func (d dialectSyntax) arrayType() string {
	switch d.str {
	case "STRING":
		return "ARRAY<STRING>"
	}
	if d.arrayOpen == "[" {
		return "VARCHAR[]"
	}
	return "ARRAY(VARCHAR)"
}

// groupValue returns the SQL expression of an event's value for one --by
// key, as analyze's groupValue gives it: the column for model, endpoint,
// host, format and source, the decimal status, else the attribute of that
// name; "(none)" when missing or empty.
func (d dialectSyntax) groupValue(key string) string {
	var v string
	switch key {
	case "model", "endpoint", "host", "format", "source":
		v = key
	case "status":
		v = "CAST(status AS " + d.str + ")"
	default:
		v = fmt.Sprintf(d.mapLookup, "attrs", quote(key))
	}
	return "coalesce(nullif(" + v + ", ''), '(none)')"
}

// breakdowns returns by without empty breakdowns and without breakdowns
// repeating an earlier one's keys, as analyze counts them.
func breakdowns(by [][]string) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, keys := range by {
		id := strings.Join(keys, "\x00")
		if len(keys) == 0 || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, keys)
	}
	return out
}

// groupsSQL returns the body of the grouped_events view: every event once
// in group {} (an empty group_key, no values), and once more per breakdown,
// with group_key the keys joined by + (as --by takes them) and
// group_values the event's values of those keys, in order. The events are
// read once and multiplied by an array of (group_key, group_values) pairs.
func groupsSQL(d dialectSyntax, by [][]string) (string, error) {
	pairs := []string{d.pair("''", d.array(nil))}
	for _, keys := range breakdowns(by) {
		vals := make([]string, len(keys))
		for i, k := range keys {
			if k == "" || strings.ContainsAny(k, "+\x00") {
				return "", fmt.Errorf("--by key %q", k)
			}
			vals[i] = d.groupValue(k)
		}
		pairs = append(pairs, d.pair(quote(strings.Join(keys, "+")), d.array(vals)))
	}
	return fmt.Sprintf(d.explode, strings.Join(pairs, ",\n    ")), nil
}

// pair is one (group_key, group_values) element of the groups array.
func (d dialectSyntax) pair(key, values string) string {
	return fmt.Sprintf(d.pairFmt, "CAST("+key+" AS "+d.str+")", values)
}
