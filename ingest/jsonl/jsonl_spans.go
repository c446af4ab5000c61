package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The walk of the jsonl reader: a line is walked once by jsonwalk.WalkObject,
// recording the value spans of the members on the compiled paths
// (jsonl_paths.go), as encoding/json decodes the line into a map: keys
// decoded (escapes, invalid UTF-8 as U+FFFD), the last of repeated keys wins
// (its earlier object forgotten), values nested to encoding/json's depth,
// text after the object ignored as json.Decoder ignores it. Each path then
// resolves with lookupSpan's rule (the whole key first, then every split,
// leftmost first) by indexing those spans; a mapping whose paths did not
// compile resolves each path on the line's bytes (lookupSpan).

// jsonlSpan is where a value lies in the line; end 0: not seen.
type jsonlSpan struct{ start, end int32 }

// parse walks line, recording the spans of the members on a path, and
// reports whether it starts with one JSON object.
func (f *jsonlReader) parse(line []byte) bool {
	f.line = line
	if f.paths == nil {
		return jsonwalk.WalkObject(line, 0, func(_ []byte, j int) int {
			return jsonwalk.SkipAt(line, j, 1, &f.stack)
		}) >= 0
	}
	clear(f.vals)
	return f.object(0, 0, 1) >= 0
}

// object walks the object at f.line[i], which is node n of the paths and
// holds values at depth (objects and arrays around them); it returns the
// index just past the object, or -1.
func (f *jsonlReader) object(i int, n int32, depth int) int {
	return jsonwalk.WalkObject(f.line, i, func(key []byte, j int) int {
		return f.member(n, key, j, depth)
	})
}

// member records the value at f.line[j] of key in node n when the key is
// on a path, and returns the index just past the value, or -1.
func (f *jsonlReader) member(n int32, key []byte, j, depth int) int {
	x := f.paths
	e := x.edge(n, key)
	if (e < 0 || !x.edges[e].plain) && !jsonwalk.Plain(key) { // a key that decodes to another
		text, ok := jsonwalk.KeyText(key)
		if !ok {
			return -1
		}
		e = x.edge(n, text)
	}
	if e < 0 {
		return jsonwalk.SkipAt(f.line, j, depth, &f.stack)
	}
	ed := &x.edges[e]
	if f.vals[e].end != 0 { // a repeated key: forget the earlier value's members
		clear(f.vals[e+1 : ed.last])
	}
	var end int
	if f.line[j] == '{' && x.nodes[ed.child].keys > 0 {
		end = f.object(j, ed.child, depth+1)
	} else {
		end = jsonwalk.SkipAt(f.line, j, depth, &f.stack)
	}
	if end >= 0 {
		f.vals[e] = jsonlSpan{int32(j), int32(end)}
	}
	return end
}

// lookup resolves target t on the walked line by lookupSpan's rule: the
// span of its value; ok false when there is none.
func (f *jsonlReader) lookup(t int32) (jsonlSpan, bool) {
	if f.paths == nil {
		return f.lookupSpan(0, f.names[t])
	}
	for _, seq := range f.paths.cands[t] {
		last := len(seq) - 1
		for i, e := range seq {
			v := f.vals[e]
			if v.end == 0 {
				break
			}
			if i == last {
				return v, true
			}
			if f.line[v.start] != '{' {
				break
			}
		}
	}
	return jsonlSpan{}, false
}

// lookupSpan returns the span of the value at path in the object at
// f.line[i], a path's rule: the member whose key is path itself (the last
// of repeated ones), else, at each dot from the left, the rest of the path
// in the object that is the value of the key before the dot.
func (f *jsonlReader) lookupSpan(i int, path string) (jsonlSpan, bool) {
	if v, ok := f.memberSpan(i, path); ok {
		return v, true
	}
	for k := 0; k < len(path); k++ {
		if path[k] != '.' {
			continue
		}
		if v, ok := f.memberSpan(i, path[:k]); ok && f.line[v.start] == '{' {
			if r, ok := f.lookupSpan(int(v.start), path[k+1:]); ok {
				return r, true
			}
		}
	}
	return jsonlSpan{}, false
}

// memberSpan returns the span of the value of the last member whose key
// decodes to key in the object at f.line[i], which parse validated.
func (f *jsonlReader) memberSpan(i int, key string) (v jsonlSpan, found bool) {
	jsonwalk.WalkObject(f.line, i, func(k []byte, j int) int {
		end := jsonwalk.SkipAt(f.line, j, 0, &f.stack)
		if text, _ := jsonwalk.KeyText(k); string(text) == key {
			v, found = jsonlSpan{int32(j), int32(end)}, true
		}
		return end
	})
	return v, found
}

// value returns the first byte of the value at target t (0 when missing or
// t < 0, 'n' for null) and its span.
func (f *jsonlReader) value(t int32) (byte, jsonlSpan) {
	if t < 0 {
		return 0, jsonlSpan{}
	}
	v, ok := f.lookup(t)
	if !ok {
		return 0, jsonlSpan{}
	}
	return f.line[v.start], v
}

// scalar is the text of the string (decoded), number or bool at v; ok is
// false for null, objects and arrays.
func (f *jsonlReader) scalar(v jsonlSpan) (s []byte, ok bool) {
	switch f.line[v.start] {
	case '"':
		if s = f.line[v.start+1 : v.end-1]; jsonwalk.Plain(s) {
			return s, true
		}
		s, _, ok = jsonwalk.Text(f.line, int(v.start))
		return s, ok
	case '{', '[', 'n':
		return nil, false
	}
	return f.line[v.start:v.end], true // a number's text or true/false
}

// detail names a field and its value at v as encoding/json decodes it
// into an any (with UseNumber) and fmt prints it.
func (f *jsonlReader) detail(field string, v jsonlSpan) string {
	f.bad = int(v.start)
	dec := json.NewDecoder(bytes.NewReader(f.line[v.start:v.end]))
	dec.UseNumber()
	var x any
	dec.Decode(&x) // the walk validated it
	return decode.TruncateDetail(fmt.Sprintf("%s=%v", field, x))
}

// jsonlRefuse is the reject detail of a line that is not a JSON object:
// json.Decoder's error decoding it into a map (returned too), or "<nil>"
// for null.
func jsonlRefuse(line []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var obj map[string]any
	err := dec.Decode(&obj)
	if err == nil && obj != nil {
		return "unreadable record", nil // not reached: parse takes what json.Decoder takes
	}
	return decode.TruncateDetail(fmt.Sprint(err)), err
}
