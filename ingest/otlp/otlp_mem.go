package otlp

import "unsafe"

// otlpMem is where a reader's events get the strings and values they
// point at: strings are copied into chunks of otlpChunkBytes, values
// handed out from slabs of otlpSlabEvents, instead of one allocation each
// (four strings and a value box a span: 37% of the decoder's allocations
// and most of its malloc time). A chunk or slab is never written again
// where it was handed out, so the strings stay immutable; it lives as long
// as any event pointing into it, which are the events of one batch or two.
type otlpMem struct {
	chunk []byte
	vals  []otlpEventValues
	attrs otlpAttrMap // the events' Attrs map, reused (see otlpAttrMap)
}

// otlpChunkBytes is the size of a string chunk: ~35 vLLM spans' ids,
// request ids and models.
const otlpChunkBytes = 4 << 10

// otlpSlabEvents is the number of value boxes in a slab (7 KB).
const otlpSlabEvents = 64

// str returns a string holding b, copied into the current chunk (nil m:
// allocated alone).
func (m *otlpMem) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if m == nil {
		return string(b)
	}
	if len(b) > cap(m.chunk)-len(m.chunk) {
		if len(b) > otlpChunkBytes/4 {
			return string(b) // a large string is allocated alone
		}
		m.chunk = make([]byte, 0, otlpChunkBytes)
	}
	n := len(m.chunk)
	m.chunk = append(m.chunk, b...)
	return unsafe.String(&m.chunk[n], len(b))
}

// values returns a zeroed value box from the current slab (nil m: a new
// one).
func (m *otlpMem) values() *otlpEventValues {
	if m == nil {
		return &otlpEventValues{}
	}
	if len(m.vals) == 0 {
		m.vals = make([]otlpEventValues, otlpSlabEvents)
	}
	v := &m.vals[0]
	m.vals = m.vals[1:]
	return v
}

// attrMap returns the reused Attrs map (nil m: none, a new map each time).
func (m *otlpMem) attrMap() *otlpAttrMap {
	if m == nil {
		return nil
	}
	return &m.attrs
}
