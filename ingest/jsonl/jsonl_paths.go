package jsonl

import (
	"encoding/binary"
	"slices"
	"strings"
)

// jsonlPaths is a --map mapping's field paths compiled for the reader: a
// trie of the keys that lead to them, so that a line is walked once and only
// the members on some path are recorded (by edge, in a slice), and for each
// path the key sequences lookupSpan would try, in its order, so that a path
// resolves by indexing that slice instead of hashing keys.
//
// lookupSpan(i, "a.b.c") tries the key "a.b.c", then "a" and in it
// "b.c" (itself: "b.c", then "b" and in it "c"), then "a.b" and in it "c":
// the candidates [a.b.c], [a b.c], [a b c], [a.b c]. A path with d dots has
// 2^d of them, so paths with more than jsonlMaxDots dots are not compiled
// and the reader resolves that mapping's paths on each line's bytes.
type jsonlPaths struct {
	edges []jsonlEdge // by id, depth first: an edge's subtree follows it
	nodes []jsonlNode // 0 is the line's object
	slots []int32     // the nodes' hash tables of their keys: edge id + 1, 0 empty
	cands [][][]int32 // by target: its candidates, each the edge ids of its keys
}

// jsonlEdge is one key of one object on some path.
type jsonlEdge struct {
	key   string
	child int32  // the node of the key's object value
	last  int32  // the ids of the edges under child are (id, last)
	word  uint64 // jsonlKeyWord(key)
	plain bool   // key has no '\\': a raw key equal to it is that key
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

// jsonlCandidates returns the key sequences lookupSpan tries for path, in
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
		x.edges = append(x.edges, jsonlEdge{key: k, child: int32(t.child[n][k]), word: jsonlKeyWord([]byte(k)), plain: !strings.Contains(k, "\\")})
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
		h := jsonlHash(jsonlKeyWord([]byte(k)), len(k))
		for x.slots[x.nodes[n].off+h&x.nodes[n].mask] != 0 {
			h++
		}
		x.slots[x.nodes[n].off+h&x.nodes[n].mask] = ids[k] + 1
	}
}

// edge returns the id of key among node n's keys, or -1.
func (x *jsonlPaths) edge(n int32, key []byte) int32 {
	nd := &x.nodes[n]
	w := jsonlKeyWord(key)
	for h := jsonlHash(w, len(key)); ; h++ {
		s := x.slots[nd.off+h&nd.mask]
		if s == 0 {
			return -1
		}
		if e := &x.edges[s-1]; e.word == w && len(e.key) == len(key) && (len(key) <= 8 || e.key[8:] == string(key[8:])) {
			return s - 1
		}
	}
}

// jsonlKeyWord is a key's first eight bytes, little endian, zero-padded. A
// key of a line lies in it before at least its closing quote, so it is
// mostly loaded in one read from beyond its length.
func jsonlKeyWord(key []byte) uint64 {
	if cap(key) >= 8 {
		w := binary.LittleEndian.Uint64(key[:8])
		if n := len(key); n < 8 {
			w &= 1<<(8*n) - 1
		}
		return w
	}
	var w uint64
	for i, c := range key {
		w |= uint64(c) << (8 * i)
	}
	return w
}

// jsonlHash hashes a key from its first word and its length.
func jsonlHash(w uint64, n int) uint32 {
	return uint32((w ^ uint64(n)*0x9E3779B97F4A7C15) * 0xC2B2AE3D27D4EB4F >> 32)
}
