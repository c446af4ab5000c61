package jsonl

import (
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The walk of the jsonl fast path (see jsonl_fast.go): a line is walked once,
// recording the value spans of the members on the compiled paths
// (jsonl_paths.go), and each path then resolves by indexing them.

// parse walks line, recording the spans of the members on a path, and
// reports whether it is one JSON object with nothing after it.
func (f *jsonlFast) parse(line []byte) bool {
	f.line, f.fail = line, false
	clear(f.vals)
	end := f.object(0, 0)
	return end >= 0 && jsonwalk.SkipWS(line, end) == len(line)
}

// object walks the object at f.line[i] (after white space), which is node n
// of the paths, as jsonwalk.WalkObject would with member; it returns the index
// just past the object, or -1.
func (f *jsonlFast) object(i int, n int32) int {
	b := f.line
	i = jsonwalk.SkipWS(b, i)
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	if i = jsonwalk.SkipWS(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kEnd, st := jsonwalk.StringEndSWAR(b, i)
		if st != jsonwalk.OK {
			return -1
		}
		j := jsonwalk.SkipWS(b, kEnd)
		if j >= len(b) || b[j] != ':' {
			return -1
		}
		if j = jsonwalk.SkipWS(b, j+1); j >= len(b) {
			return -1
		}
		if i = f.member(n, b[i+1:kEnd-1], j); i < 0 {
			return -1
		}
		if i = jsonwalk.SkipWS(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case '}':
			return i + 1
		case ',':
			i = jsonwalk.SkipWS(b, i+1)
		default:
			return -1
		}
	}
}

// member records the value at f.line[j] of key in node n when the key is
// on a path, and returns the index just past the value, or -1.
func (f *jsonlFast) member(n int32, key []byte, j int) int {
	x := f.paths
	e := x.edge(n, key)
	if (e < 0 || !x.edges[e].plain) && !jsonwalk.Plain(key) {
		return -1 // it might unescape or decode to a key on a path
	}
	if e < 0 {
		return f.skip(j)
	}
	ed := &x.edges[e]
	if f.vals[e].end != 0 { // a duplicate key: forget the earlier value's members
		clear(f.vals[e+1 : ed.last])
	}
	var end int
	if f.line[j] == '{' && x.nodes[ed.child].keys > 0 {
		end = f.object(j, ed.child)
	} else {
		end = f.skip(j)
	}
	if end >= 0 {
		f.vals[e] = jsonlSpan{int32(j), int32(end)}
	}
	return end
}

// skip validates the value at f.line[j] and returns the index just past
// it, or -1, as jsonwalk.WalkSkip does; scalars without its set-up.
func (f *jsonlFast) skip(j int) int {
	b := f.line
	end, st := 0, jsonwalk.Bad
	switch c := b[j]; {
	case c == '"':
		end, st = jsonwalk.StringEndSWAR(b, j)
	case c == '-' || c >= '0' && c <= '9':
		end, st = jsonwalk.NumberEnd(b, j)
	case c == 't' || c == 'f' || c == 'n':
		end, st = jsonwalk.LiteralEnd(b, j)
	default:
		return jsonwalk.WalkSkip(b, j, &f.stack)
	}
	if st != jsonwalk.OK {
		return -1
	}
	return end
}

// lookup is jsonlLookup on the walked line: the edge of the member at
// target t, or -1.
func (f *jsonlFast) lookup(t int32) int32 {
	for _, seq := range f.paths.cands[t] {
		last := len(seq) - 1
		for i, e := range seq {
			v := f.vals[e]
			if v.end == 0 {
				break
			}
			if i == last {
				return e
			}
			if f.line[v.start] != '{' {
				break
			}
		}
	}
	return -1
}

// value returns the first byte of the value at target t (0 when missing or
// t < 0, 'n' for null) and its edge.
func (f *jsonlFast) value(t int32) (byte, int32) {
	if t < 0 {
		return 0, -1
	}
	e := f.lookup(t)
	if e < 0 {
		return 0, -1
	}
	return f.line[f.vals[e].start], e
}
