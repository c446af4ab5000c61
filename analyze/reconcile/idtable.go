package reconcile

import (
	"math/bits"

	"github.com/ttftrace/ttftrace/dataset"
)

// idTable indexes the ids of one source's observations: which observation
// carries an id, or that several do. It is an open-addressing hash table
// whose slots hold no key, only where to find it: the observation (plus
// one; 0 is an empty slot, bits 0–31), which of its ids (j, bits 32–39), 23
// bits of the key's hash (bits 40–62) and an ambiguity bit (63). The id
// itself is read back from the Columns through keyOf, only for a slot whose
// hash bits match: reading it costs a few cache misses. So an id
// costs one 8-byte slot at a load of at most 5/8, about 13 bytes, where a
// Go map keyed by the 16-byte id took 30 to 55.
type idTable struct {
	slots []uint64
	shift uint
	keyOf func(obs int32, j uint8) dataset.ColumnsID
}

const (
	idAmbiguous = 1 << 63
	idHashBits  = 0x7fffff << 40
)

// newIDTable returns a table for n ids.
func newIDTable(n int, keyOf func(obs int32, j uint8) dataset.ColumnsID) *idTable {
	size := 16
	for size*5 < n*8 {
		size *= 2
	}
	return &idTable{slots: make([]uint64, size), shift: uint(64 - bits.TrailingZeros(uint(size))), keyOf: keyOf}
}

// hash returns the first slot to probe for key and its hash bits.
func (t *idTable) hash(key dataset.ColumnsID) (int, uint64) {
	h := (key[0] ^ bits.RotateLeft64(key[1], 31)) * 0x9e3779b97f4a7c15
	return int(h >> t.shift), h << 40 & idHashBits
}

// find returns the slot of key, or the empty slot where it would go, and
// key's hash bits.
func (t *idTable) find(key dataset.ColumnsID) (int, uint64) {
	s, hb := t.hash(key)
	return t.probe(s, hb, func(v uint64) bool { return t.keyAt(v) == key }), hb
}

// probe returns the first slot from s on that is empty or holds hash bits
// hb and a key same reports equal (asked only on matching hash bits).
func (t *idTable) probe(s int, hb uint64, same func(v uint64) bool) int {
	mask := len(t.slots) - 1
	for ; ; s = (s + 1) & mask {
		if v := t.slots[s]; v == 0 || v&idHashBits == hb && same(v) {
			return s
		}
	}
}

// keyAt returns the key of the id slot value v refers to.
func (t *idTable) keyAt(v uint64) dataset.ColumnsID { return t.keyOf(int32(uint32(v)-1), uint8(v>>32)) }

// put records slot value v (an observation plus one, its id number, its
// key's hash bits) from its key's first slot s on; a key that another
// observation carries becomes ambiguous.
func (t *idTable) put(s int, v uint64) {
	s = t.probe(s, v&idHashBits, func(w uint64) bool { return t.keyAt(w) == t.keyAt(v) })
	switch w := t.slots[s]; {
	case w == 0:
		t.slots[s] = v
	case uint32(w) != uint32(v):
		t.slots[s] |= idAmbiguous
	}
}

const (
	// idBatchShift sets how many ids an idLoader holds before adding them:
	// a 2^idBatchShift-th of the table's slots, at least 4,096 (its two
	// buffers of 16 bytes an id take 1/16 of the table's memory while it is
	// built).
	idBatchShift = 6
	// idRegionBits is how many leading bits of a slot's index name its
	// region: an idLoader adds a batch region by region.
	idRegionBits = 10
)

// idLoader adds ids to an idTable a batch at a time, each batch region by
// region of the table (by their first slot; in the order they came within
// a region, so a key's first observation is the one kept). A table larger
// than the caches is then visited in order of address rather than at
// random, a cache miss per id: building the id tables of a 5M-request
// week took 2.3–2.4 s of CPU instead of 2.8–2.9 (BenchmarkIDTableBuild:
// 2.4 s instead of 3.2 for 15M ids). Which observation a key maps to, and
// whether it is ambiguous, does not depend on the order of the slots.
type idLoader struct {
	t            *idTable
	pend, sorted []idPending
}

// idPending is an id to add: its key's first slot and its slot value.
type idPending struct {
	slot uint32
	v    uint64
}

// add queues the id key that observation obs carries as its id number j.
func (l *idLoader) add(key dataset.ColumnsID, obs int32, j uint8) {
	s, hb := l.t.hash(key)
	if l.pend == nil {
		l.pend = make([]idPending, 0, max(1<<12, len(l.t.slots)>>idBatchShift))
	}
	l.pend = append(l.pend, idPending{uint32(s), uint64(uint32(obs)+1) | uint64(j)<<32 | hb})
	if len(l.pend) == cap(l.pend) {
		l.flush()
	}
}

// flush adds the queued ids, region by region (a counting sort on the
// leading idRegionBits of their first slot).
func (l *idLoader) flush() {
	shift := max(0, bits.Len(uint(len(l.t.slots)-1))-idRegionBits)
	var at [1<<idRegionBits + 1]int
	for _, p := range l.pend {
		at[p.slot>>shift+1]++
	}
	for k := 1; k < len(at); k++ {
		at[k] += at[k-1]
	}
	if l.sorted == nil {
		l.sorted = make([]idPending, cap(l.pend))
	}
	for _, p := range l.pend {
		l.sorted[at[p.slot>>shift]] = p
		at[p.slot>>shift]++
	}
	for _, p := range l.sorted[:len(l.pend)] {
		l.t.put(int(p.slot), p.v)
	}
	l.pend = l.pend[:0]
}

// unique returns the single observation carrying key, and false when none
// or several do.
func (t *idTable) unique(key dataset.ColumnsID) (int32, bool) {
	s, _ := t.find(key)
	v := t.slots[s]
	if v == 0 || v&idAmbiguous != 0 {
		return 0, false
	}
	return int32(uint32(v) - 1), true
}
