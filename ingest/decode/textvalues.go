package decode

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// This file holds the allocation-free value readers of the fast text paths
// (nginx, Envoy, HAProxy, TGI): each reads the common shape of a value
// straight from a line's bytes and reports ok=false for anything else, which
// the caller then hands to the general (string-based) parser, so that both
// give the same result.

// ValueArena hands out the nullable numbers and flags of schema.Event from
// blocks, so that a record's instants do not cost one allocation each. Values
// are never reused: each pointer stays valid and unshared.
type ValueArena struct {
	i64 []int64
	i32 []int32
	b   []bool
}

const arenaBlock = 256

func (a *ValueArena) Int64(v int64) *int64 {
	if len(a.i64) == cap(a.i64) {
		a.i64 = make([]int64, 0, arenaBlock)
	}
	a.i64 = append(a.i64, v)
	return &a.i64[len(a.i64)-1]
}

func (a *ValueArena) Int32(v int32) *int32 {
	if len(a.i32) == cap(a.i32) {
		a.i32 = make([]int32, 0, arenaBlock)
	}
	a.i32 = append(a.i32, v)
	return &a.i32[len(a.i32)-1]
}

func (a *ValueArena) Bool(v bool) *bool {
	if len(a.b) == cap(a.b) {
		a.b = make([]bool, 0, arenaBlock)
	}
	a.b = append(a.b, v)
	return &a.b[len(a.b)-1]
}

// InternTable returns one string per distinct byte value for the values that
// repeat from record to record (methods, paths, hosts, user agents), so that
// each costs one allocation per input instead of one per record. A few
// recent values are compared before the map is looked up. It stops growing
// at internMax entries; longer values are not kept.
type InternTable struct {
	recent [16]string // by internSlot
	m      map[string]string
}

const (
	internMax    = 4096
	internMaxLen = 256
)

// internSlot picks the recent-value slot of b from a hash of its length
// and last eight bytes (where ids and addresses differ).
func internSlot(b []byte) int {
	var x uint64
	if len(b) >= 8 {
		x = binary.LittleEndian.Uint64(b[len(b)-8:])
	} else {
		for _, c := range b {
			x = x<<8 | uint64(c)
		}
	}
	return int(((x ^ uint64(len(b))) * 0x9e3779b97f4a7c15) >> 60)
}

func (t *InternTable) Get(b []byte) string {
	slot := internSlot(b)
	if t.recent[slot] == string(b) {
		return t.recent[slot]
	}
	s, ok := t.m[string(b)]
	if !ok {
		s = string(b)
		if len(b) <= internMaxLen && len(t.m) < internMax {
			if t.m == nil {
				t.m = map[string]string{}
			}
			t.m[s] = s
		}
	}
	t.recent[slot] = s
	return s
}

// ASCIIGraphic reports whether c is a printable ASCII character other than
// the space: a byte no trimming or field splitting touches.
func ASCIIGraphic(c byte) bool { return c > ' ' && c < 0x7f }

// AppendTraceparentID appends the trace id TraceIDFromTraceparent gives
// for the line bytes b (nothing when it gives ""); ok is false when b is not
// of the common shape, and TraceIDFromTraceparent must read it.
func AppendTraceparentID(dst, b []byte) (out []byte, ok bool) {
	if len(b) == 0 || !ASCIIGraphic(b[0]) || !ASCIIGraphic(b[len(b)-1]) {
		return dst, false
	}
	i := bytes.IndexByte(b, '-')
	if i < 0 {
		return dst, true
	}
	rest := b[i+1:]
	j := bytes.IndexByte(rest, '-')
	if j < 0 || bytes.IndexByte(rest[j+1:], '-') < 0 {
		return dst, true // fewer than four parts
	}
	return AppendTraceID(dst, rest[:j])
}

// AppendTraceID appends the id NormalizeTraceID gives for b (nothing for
// ""); ok is false when b has a 0x prefix or dashes, which NormalizeTraceID
// must read.
func AppendTraceID(dst, b []byte) (out []byte, ok bool) {
	if len(b) >= 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') || bytes.IndexByte(b, '-') >= 0 {
		return dst, false
	}
	if len(b) != 32 {
		return dst, true
	}
	var nonZero byte
	for _, c := range b {
		l := HexLower[c]
		if l == 0 {
			return dst, true
		}
		nonZero |= l ^ '0'
	}
	if nonZero == 0 {
		return dst, true
	}
	for _, c := range b {
		dst = append(dst, HexLower[c])
	}
	return dst, true
}

// HexLower maps each hex digit to its lower-case form and any other byte to 0.
var HexLower = func() (t [256]byte) {
	for _, c := range []byte("0123456789abcdef") {
		t[c] = c
	}
	for _, c := range []byte("ABCDEF") {
		t[c] = c + 'a' - 'A'
	}
	return t
}()

// EndpointPathBytes is EndpointPath for line bytes: the target up to its query
// or fragment.
func EndpointPathBytes(b []byte) []byte {
	for i, c := range b {
		if c == '?' || c == '#' {
			return b[:i]
		}
	}
	return b
}

// AttrKV is one attribute of an event being built.
type AttrKV struct{ Key, Val string }

// AttrMaps returns one attribute map per distinct set of attributes, shared
// by every event with that set, so that an event's Attrs cost no allocation
// when its attributes repeat (methods, hosts, user agents). The maps are
// read-only once handed out: the Sink contract lets a format reuse what it
// passes, and the driver clones the maps it keeps. At most attrMapsMax sets
// are kept; beyond that each event gets its own map.
type AttrMaps struct {
	recent [8]attrSet // the sets last asked for, most recent first
	key    []byte
	maps   map[string]map[string]string
}

// attrSet is a set of attributes and its map.
type attrSet struct {
	attrs []AttrKV
	m     map[string]string
}

const attrMapsMax = 1024

// get returns the map holding attrs (later entries win), nil when empty.
func (c *AttrMaps) Get(attrs []AttrKV) map[string]string {
	if len(attrs) == 0 {
		return nil
	}
	for i := range c.recent {
		if r := c.recent[i]; slices.Equal(r.attrs, attrs) {
			copy(c.recent[1:i+1], c.recent[:i])
			c.recent[0] = r
			return r.m
		}
	}
	m := c.lookup(attrs)
	last := c.recent[len(c.recent)-1].attrs
	copy(c.recent[1:], c.recent[:])
	c.recent[0] = attrSet{append(last[:0], attrs...), m}
	return m
}

// lookup returns the map of attrs from the table of sets, adding it.
func (c *AttrMaps) lookup(attrs []AttrKV) map[string]string {
	c.key = c.key[:0]
	for _, a := range attrs {
		c.key = append(binary.AppendUvarint(c.key, uint64(len(a.Key))), a.Key...)
		c.key = append(binary.AppendUvarint(c.key, uint64(len(a.Val))), a.Val...)
	}
	if m, ok := c.maps[string(c.key)]; ok {
		return m
	}
	m := make(map[string]string, len(attrs))
	for _, a := range attrs {
		m[a.Key] = a.Val
	}
	if len(c.maps) < attrMapsMax {
		if c.maps == nil {
			c.maps = map[string]map[string]string{}
		}
		c.maps[string(c.key)] = m
	}
	return m
}

// TraceID is the trace id of an entry so far: TRACEPARENT values
// replace it, TRACE_ID and B3 values only fill it.
type TraceID struct {
	ID [32]byte
	N  int
}

func (t *TraceID) Set(v []byte, traceparent bool) {
	if !traceparent && t.N > 0 {
		return
	}
	var buf [32]byte
	id, ok := buf[:0], false
	if traceparent {
		id, ok = AppendTraceparentID(id, v)
	} else {
		id, ok = AppendTraceID(id, v)
	}
	if !ok && traceparent {
		id = append(id, TraceIDFromTraceparent(string(v))...)
	} else if !ok {
		id = append(id, NormalizeTraceID(string(v))...)
	}
	if len(id) > 0 {
		t.N = copy(t.ID[:], id)
	}
}
