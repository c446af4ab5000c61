package sqlviews

import (
	"strings"
	"testing"
)

// TestGroups checks grouped_events' pairs: group {} first, breakdowns in the
// order given, an empty or repeated breakdown dropped as analyze drops it,
// each key's value expression per dialect, and bad keys refused.
func TestGroups(t *testing.T) {
	by := [][]string{{"model"}, {}, {"host", "region"}, {"model"}, {"status"}}
	want := map[string][]string{
		"duckdb": {"{'group_key': CAST('' AS VARCHAR), 'group_values': CAST([] AS VARCHAR[])}",
			"{'group_key': CAST('model' AS VARCHAR), 'group_values': [coalesce(nullif(model, ''), '(none)')]}",
			"{'group_key': CAST('host+region' AS VARCHAR), 'group_values': [coalesce(nullif(host, ''), '(none)'), coalesce(nullif(attrs['region'], ''), '(none)')]}",
			"{'group_key': CAST('status' AS VARCHAR), 'group_values': [coalesce(nullif(CAST(status AS VARCHAR), ''), '(none)')]}"},
		"trino": {"ROW(CAST('' AS VARCHAR), CAST(ARRAY[] AS ARRAY(VARCHAR)))",
			"ROW(CAST('host+region' AS VARCHAR), ARRAY[coalesce(nullif(host, ''), '(none)'), coalesce(nullif(element_at(attrs, 'region'), ''), '(none)')])"},
		"spark": {"named_struct('group_key', CAST('' AS STRING), 'group_values', CAST(array() AS ARRAY<STRING>))",
			"named_struct('group_key', CAST('host+region' AS STRING), 'group_values', array(coalesce(nullif(host, ''), '(none)'), coalesce(nullif(try_element_at(attrs, 'region'), ''), '(none)')))"},
	}
	for d, parts := range want {
		got, err := groupsSQL(syntaxes[d], by)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(got, "group_key', CAST(") + strings.Count(got, "ROW(CAST(") + strings.Count(got, "{'group_key'"); n != 4 {
			t.Errorf("%s: %d groups, want 4 ({} model host+region status):\n%s", d, n, got)
		}
		at := -1
		for _, p := range parts {
			i := strings.Index(got, p)
			if i <= at {
				t.Errorf("%s: lacks %s after position %d:\n%s", d, p, at, got)
			}
			at = i
		}
	}
	for _, bad := range [][]string{{"model", ""}, {"a+b"}} {
		if _, err := groupsSQL(syntaxes["spark"], [][]string{bad}); err == nil {
			t.Errorf("--by %q: no error", bad)
		}
	}
}
