package jsonl

import (
	"reflect"
	"testing"
)

// TestJSONLCandidates checks the order in which a dotted path's key
// sequences are tried: lookupSpan's.
func TestJSONLCandidates(t *testing.T) {
	for path, want := range map[string][][]string{
		"a":     {{"a"}},
		"a.b":   {{"a.b"}, {"a", "b"}},
		"a.b.c": {{"a.b.c"}, {"a", "b.c"}, {"a", "b", "c"}, {"a.b", "c"}},
		".a":    {{".a"}, {"", "a"}},
		"a..b":  {{"a..b"}, {"a", ".b"}, {"a", "", "b"}, {"a.", "b"}},
	} {
		if got := jsonlCandidates(path); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %q, want %q", path, got, want)
		}
	}
}

// TestJSONLPathsTrie checks that every key of the trie is found in its node
// and that an edge's subtree is the ids after it up to last.
func TestJSONLPathsTrie(t *testing.T) {
	x, ok := compileJSONLPaths([]string{"a.b.c", "a.d", "e", "a"})
	if !ok {
		t.Fatal("not compiled")
	}
	parent := map[int32]int32{} // edge id → the node holding it
	for n := range x.nodes {
		for e := range x.edges {
			if x.edge(int32(n), []byte(x.edges[e].key)) == int32(e) {
				parent[int32(e)] = int32(n)
			}
		}
		if x.edge(int32(n), []byte("zz")) != -1 {
			t.Errorf("node %d finds a key it lacks", n)
		}
	}
	if len(parent) != len(x.edges) {
		t.Fatalf("%d of %d edges found", len(parent), len(x.edges))
	}
	for e, ed := range x.edges {
		for d := int32(e) + 1; d < ed.last; d++ {
			if n := parent[d]; n != ed.child && !isUnder(x, n, ed.child) {
				t.Errorf("edge %d (%q) is not under edge %d (%q)", d, x.edges[d].key, e, ed.key)
			}
		}
	}
	if len(x.cands) != 4 || len(x.cands[3]) != 1 || len(x.cands[0]) != 4 {
		t.Errorf("candidates %v", x.cands)
	}
}

// isUnder reports whether node n lies under node top.
func isUnder(x *jsonlPaths, n, top int32) bool {
	for e := range x.edges {
		if x.edges[e].child == n {
			for p := range x.edges {
				if x.edges[p].child == top && int32(e) > int32(p) && int32(e) < x.edges[p].last {
					return true
				}
			}
		}
	}
	return false
}

// TestJSONLKeyWord checks that a key's word does not depend on what lies
// past it.
func TestJSONLKeyWord(t *testing.T) {
	line := []byte(`"abcdefghijk":1`)
	for n := 0; n <= 11; n++ {
		key := line[1 : 1+n]
		short := append([]byte(nil), key...)[:n:n]
		if jsonlKeyWord(key) != jsonlKeyWord(short) {
			t.Errorf("%q: %x in a line, %x alone", key, jsonlKeyWord(key), jsonlKeyWord(short))
		}
	}
}
