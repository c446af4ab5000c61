package litellm

import (
	"bytes"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// litellmBuild holds what litellmRecord.event builds an event with: the
// event, reused record to record, values drawn from an arena and
// attribute maps shared between events.
type litellmBuild struct {
	ev    schema.Event
	arena *decode.ValueArena
	maps  *decode.AttrMaps
	attrs []decode.AttrKV
}

// newLiteLLMReader returns a reader whose events draw from its own arena
// and attribute maps.
func newLiteLLMReader() *litellmReader {
	f := &litellmReader{}
	f.build.arena, f.build.maps = &f.arena, &f.maps
	return f
}

func (b *litellmBuild) int64(v int64) *int64 { return b.arena.Int64(v) }

func (b *litellmBuild) int32(v int32) *int32 { return b.arena.Int32(v) }

func (b *litellmBuild) bool(v bool) *bool { return b.arena.Bool(v) }

// attr adds attribute k unless v is empty, as decode.SetAttr does; later ones win.
func (b *litellmBuild) attr(k, v string) {
	if v != "" {
		b.attrs = append(b.attrs, decode.AttrKV{Key: k, Val: v})
	}
}

// setAttrs sets the event's attributes from those added.
func (b *litellmBuild) setAttrs() { b.ev.Attrs = b.maps.Get(b.attrs) }

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
