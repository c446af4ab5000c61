package ingest

import (
	"slices"
	"strings"
)

// jsonlPaths is a --map mapping's field paths compiled for the fast path: a
// trie of the keys that lead to them, so that a line is walked once and only
// the members on some path are recorded (by edge, in a slice), and for each
// path the key sequences jsonlLookup would try, in its order, so that a path
// resolves by indexing that slice instead of hashing keys.
//
// jsonlLookup(obj, "a.b.c") tries the key "a.b.c", then "a" and in it
// "b.c" (itself: "b.c", then "b" and in it "c"), then "a.b" and in it "c":
// the candidates [a.b.c], [a b.c], [a b c], [a.b c]. A path with d dots has
// 2^d of them, so paths with more than jsonlMaxDots dots are not compiled
// and the fast path is off for that mapping.
type jsonlPaths struct {
	edges []jsonlEdge // by id, depth first: an edge's subtree follows it
	nodes []jsonlNode // 0 is the line's object
	slots []int32     // the nodes' hash tables of their keys: edge id + 1, 0 empty
	cands [][][]int32 // by target: its candidates, each the edge ids of its keys
}

// jsonlEdge is one key of one object on some path.
type jsonlEdge struct {
	key   string
	child int32 // the node of the key's object value
	last  int32 // the ids of the edges under child are (id, last)
	plain bool  // key has no '\\': a raw key equal to it needs no unescaping
}

// jsonlNode is one object on some path: its keys' hash table is
// slots[off : off+mask+1]; a node without keys is a leaf.
type jsonlNode struct {
	off, mask uint32
	keys      int
}

const jsonlMaxDots = 10

// jsonlTrie is the trie being built: keys by node, and the child of each.
type jsonlTrie struct {
	keys  [][]string
	child []map[string]int
}

// add inserts a key sequence.
func (t *jsonlTrie) add(seq []string) {
	n := 0
	for _, k := range seq {
		c, ok := t.child[n][k]
		if !ok {
			c = len(t.keys)
			t.keys = append(t.keys, nil)
			t.child = append(t.child, map[string]int{})
			t.child[n][k] = c
			t.keys[n] = append(t.keys[n], k)
		}
		n = c
	}
}

// jsonlCandidates returns the key sequences jsonlLookup tries for path, in
// its order.
func jsonlCandidates(path string) [][]string {
	out := [][]string{{path}}
	for i := 0; i < len(path); i++ {
		if path[i] == '.' {
			for _, rest := range jsonlCandidates(path[i+1:]) {
				out = append(out, append([]string{path[:i]}, rest...))
			}
		}
	}
	return out
}

// compileJSONLPaths compiles paths (the targets, by index); ok is false when
// one has too many dots.
func compileJSONLPaths(paths []string) (*jsonlPaths, bool) {
	t := &jsonlTrie{keys: [][]string{nil}, child: []map[string]int{{}}}
	var seqs [][][]string
	for _, p := range paths {
		if strings.Count(p, ".") > jsonlMaxDots {
			return nil, false
		}
		c := jsonlCandidates(p)
		for _, seq := range c {
			t.add(seq)
		}
		seqs = append(seqs, c)
	}
	x := &jsonlPaths{nodes: make([]jsonlNode, len(t.keys))}
	ids := make([]map[string]int32, len(t.keys)) // edge ids by node and key
	x.number(t, ids, 0)
	for n := range t.keys {
		x.table(n, ids[n])
	}
	for _, c := range seqs {
		var cands [][]int32
		for _, seq := range c {
			var es []int32
			n := 0
			for _, k := range seq {
				es = append(es, ids[n][k])
				n = t.child[n][k]
			}
			cands = append(cands, es)
		}
		x.cands = append(x.cands, cands)
	}
	return x, true
}

// number gives the edges under node n of t their ids, depth first, in
// ids and x.edges.
func (x *jsonlPaths) number(t *jsonlTrie, ids []map[string]int32, n int) {
	ids[n] = map[string]int32{}
	for _, k := range t.keys[n] {
		id := int32(len(x.edges))
		ids[n][k] = id
		x.edges = append(x.edges, jsonlEdge{key: k, child: int32(t.child[n][k]), plain: !strings.Contains(k, "\\")})
		x.number(t, ids, t.child[n][k])
		x.edges[id].last = int32(len(x.edges))
	}
}

// table builds the hash table of node n's keys.
func (x *jsonlPaths) table(n int, ids map[string]int32) {
	size := 4
	for size < 2*len(ids) {
		size *= 2
	}
	x.nodes[n] = jsonlNode{off: uint32(len(x.slots)), mask: uint32(size - 1), keys: len(ids)}
	x.slots = append(x.slots, make([]int32, size)...)
	keys := make([]string, 0, len(ids))
	for k := range ids {
		keys = append(keys, k)
	}
	slices.Sort(keys) // a deterministic layout
	for _, k := range keys {
		h := jsonlHash(0, k)
		for x.slots[x.nodes[n].off+h&x.nodes[n].mask] != 0 {
			h++
		}
		x.slots[x.nodes[n].off+h&x.nodes[n].mask] = ids[k] + 1
	}
}

// edge returns the id of key among node n's keys, or -1.
func (x *jsonlPaths) edge(n int32, key []byte) int32 {
	nd := &x.nodes[n]
	for h := jsonlHash(0, string(key)); ; h++ {
		s := x.slots[nd.off+h&nd.mask]
		if s == 0 {
			return -1
		}
		if x.edges[s-1].key == string(key) {
			return s - 1
		}
	}
}

// jsonlHash hashes a key of object obj from its length and three of its
// bytes: cheap, and keys of one object rarely collide on all of them.
func jsonlHash(obj int, key string) uint32 {
	h := uint32(obj)*0x9E3779B1 ^ uint32(len(key))*0x85EBCA77
	if n := len(key); n > 0 {
		h ^= (uint32(key[0]) | uint32(key[n/2])<<8 | uint32(key[n-1])<<16) * 0xC2B2AE3D
	}
	return h ^ h>>15
}
