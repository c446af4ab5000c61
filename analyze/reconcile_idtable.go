package analyze

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
	mask := len(t.slots) - 1
	s, hb := t.hash(key)
	for ; ; s = (s + 1) & mask {
		v := t.slots[s]
		if v == 0 || v&idHashBits == hb && t.keyOf(int32(uint32(v)-1), uint8(v>>32)) == key {
			return s, hb
		}
	}
}

// add records that observation obs carries key as its id number j; a key
// that another observation carries becomes ambiguous.
func (t *idTable) add(key dataset.ColumnsID, obs int32, j uint8) {
	s, hb := t.find(key)
	switch v := t.slots[s]; {
	case v == 0:
		t.slots[s] = uint64(uint32(obs)+1) | uint64(j)<<32 | hb
	case int32(uint32(v)-1) != obs:
		t.slots[s] |= idAmbiguous
	}
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
