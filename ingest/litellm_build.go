package ingest

import "github.com/ttftrace/ttftrace/schema"

// litellmBuild holds what litellmRecord.event builds an event with. The
// general route's zero value allocates each value; the fast path's reuses
// its event, draws values from an arena and shares attribute maps.
type litellmBuild struct {
	ev    schema.Event
	arena *valueArena // nil: allocate each value
	maps  *attrMaps   // nil: a new map per event
	attrs []attrKV
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
	return b.arena.int64(v)
}

func (b *litellmBuild) int32(v int32) *int32 {
	if b.arena == nil {
		p := new(int32) // not &v, which would move v to the heap on every call
		*p = v
		return p
	}
	return b.arena.int32(v)
}

func (b *litellmBuild) bool(v bool) *bool {
	if b.arena == nil {
		p := new(bool) // not &v, which would move v to the heap on every call
		*p = v
		return p
	}
	return b.arena.bool(v)
}

// attr adds attribute k unless v is empty, as setAttr does; later ones win.
func (b *litellmBuild) attr(k, v string) {
	if v != "" {
		b.attrs = append(b.attrs, attrKV{k, v})
	}
}

// setAttrs sets the event's attributes from those added.
func (b *litellmBuild) setAttrs() {
	if b.maps != nil {
		b.ev.Attrs = b.maps.get(b.attrs)
		return
	}
	for _, a := range b.attrs {
		setAttr(&b.ev, a.key, a.val)
	}
}

// litellmFieldIndex is the index of each of litellmFields.
var litellmFieldIndex = func() map[string]int {
	m := map[string]int{}
	for i, n := range litellmFields {
		m[n] = i
	}
	return m
}()

// litellmFieldLens marks the lengths of litellmFields' names.
var litellmFieldLens = func() (l [32]bool) {
	for _, n := range litellmFields {
		l[len(n)] = true
	}
	return l
}()

// litellmKey is jsonStructKey(key, litellmFields), with one map look-up for
// the keys it reads and a length test for most of the others.
func litellmKey(key []byte) (int, bool) {
	if k, ok := litellmFieldIndex[string(key)]; ok {
		return k, true
	}
	if len(key) < len(litellmFieldLens) && !litellmFieldLens[len(key)] {
		ascii := true
		for _, c := range key {
			ascii = ascii && c != '\\' && c < 0x80
		}
		if ascii { // an ASCII key folds only to a name of its length
			return -1, true
		}
	}
	return jsonStructKey(key, litellmFields)
}
