package litellm

import (
	"bytes"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// litellmBuild holds what litellmRecord.event builds an event with. The
// general route's zero value allocates each value; the fast path's reuses
// its event, draws values from an arena and shares attribute maps.
type litellmBuild struct {
	ev    schema.Event
	arena *decode.ValueArena // nil: allocate each value
	maps  *decode.AttrMaps   // nil: a new map per event
	attrs []decode.AttrKV
}

// newLiteLLMFast returns a fast path whose events draw from its own arena
// and attribute maps.
func newLiteLLMFast() *litellmFast {
	f := &litellmFast{}
	f.build.arena, f.build.maps = &f.arena, &f.maps
	return f
}

func (b *litellmBuild) int64(v int64) *int64 {
	if b.arena == nil {
		p := new(int64) // not &v, which would move v to the heap on every call
		*p = v
		return p
	}
	return b.arena.Int64(v)
}

func (b *litellmBuild) int32(v int32) *int32 {
	if b.arena == nil {
		p := new(int32) // not &v, which would move v to the heap on every call
		*p = v
		return p
	}
	return b.arena.Int32(v)
}

func (b *litellmBuild) bool(v bool) *bool {
	if b.arena == nil {
		p := new(bool) // not &v, which would move v to the heap on every call
		*p = v
		return p
	}
	return b.arena.Bool(v)
}

// attr adds attribute k unless v is empty, as decode.SetAttr does; later ones win.
func (b *litellmBuild) attr(k, v string) {
	if v != "" {
		b.attrs = append(b.attrs, decode.AttrKV{Key: k, Val: v})
	}
}

// setAttrs sets the event's attributes from those added.
func (b *litellmBuild) setAttrs() {
	if b.maps != nil {
		b.ev.Attrs = b.maps.Get(b.attrs)
		return
	}
	for _, a := range b.attrs {
		decode.SetAttr(&b.ev, a.Key, a.Val)
	}
}

// litellmFieldsByLen are the indices of litellmFields by name length.
var litellmFieldsByLen = func() (l [32][]int) {
	for i, n := range litellmFields {
		l[len(n)] = append(l[len(n)], i)
	}
	return l
}()

// litellmKey is jsonwalk.StructKey(key, litellmFields), comparing a key only
// with the names of its length: an ASCII key folds to no other.
func litellmKey(key []byte) (int, bool) {
	if len(key) >= len(litellmFieldsByLen) {
		return jsonwalk.StructKey(key, litellmFields)
	}
	names := litellmFieldsByLen[len(key)]
	for _, k := range names {
		if string(key) == litellmFields[k] {
			return k, true
		}
	}
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return jsonwalk.StructKey(key, litellmFields)
		}
	}
	for _, k := range names {
		if n := litellmFields[k]; key[0]|0x20 == n[0]|0x20 && bytes.EqualFold(key, []byte(n)) {
			return -1, false
		}
	}
	return -1, true
}
