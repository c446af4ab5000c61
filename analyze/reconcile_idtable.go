package analyze

import (
	"math/bits"

	"github.com/ttftrace/ttftrace/dataset"
)

// idTable indexes the ids of one source's observations: which observation
// carries an id, or that several do. It is an open-addressing hash table
// whose slots hold no key, only where to find it: the observation (plus
// one; 0 is an empty slot), which of its ids (j), and an ambiguity bit.
// The id itself is read back from the Columns through keyOf. So an id
// costs one 8-byte slot at a load of at most 5/8, about 13 bytes, where a
// Go map keyed by the 16-byte id took 30 to 55.
type idTable struct {
	slots []uint64
	shift uint
	keyOf func(obs int32, j uint8) dataset.ColumnsID
}

const idAmbiguous = 1 << 63

// newIDTable returns a table for n ids.
func newIDTable(n int, keyOf func(obs int32, j uint8) dataset.ColumnsID) *idTable {
	size := 16
	for size*5 < n*8 {
		size *= 2
	}
	return &idTable{slots: make([]uint64, size), shift: uint(64 - bits.TrailingZeros(uint(size))), keyOf: keyOf}
}

// home returns the first slot to probe for key.
func (t *idTable) home(key dataset.ColumnsID) int {
	return int((key[0] ^ bits.RotateLeft64(key[1], 31)) * 0x9e3779b97f4a7c15 >> t.shift)
}

// find returns the slot of key, or the empty slot where it would go.
func (t *idTable) find(key dataset.ColumnsID) int {
	mask := len(t.slots) - 1
	for s := t.home(key); ; s = (s + 1) & mask {
		v := t.slots[s]
		if v == 0 || t.keyOf(int32(uint32(v)-1), uint8(v>>32)) == key {
			return s
		}
	}
}

// add records that observation obs carries key as its id number j; a key
// that another observation carries becomes ambiguous.
func (t *idTable) add(key dataset.ColumnsID, obs int32, j uint8) {
	s := t.find(key)
	switch v := t.slots[s]; {
	case v == 0:
		t.slots[s] = uint64(uint32(obs)+1) | uint64(j)<<32
	case int32(uint32(v)-1) != obs:
		t.slots[s] |= idAmbiguous
	}
}

// unique returns the single observation carrying key, and false when none
// or several do.
func (t *idTable) unique(key dataset.ColumnsID) (int32, bool) {
	v := t.slots[t.find(key)]
	if v == 0 || v&idAmbiguous != 0 {
		return 0, false
	}
	return int32(uint32(v) - 1), true
}
