package ingest

import "hash/maphash"

// DupWindow is the number of records the duplicate check remembers: a
// record is a duplicate when its raw bytes repeat one of the DupWindow
// records before it in the call's order (inputs in the order given, then
// lines), among the records of the same format that were kept or found
// duplicate.
//
// Why a window and not a set of every record: log shippers (Fluent Bit,
// Vector, Filebeat, the OpenTelemetry Collector) write a batch again when its
// acknowledgement fails or times out, so a copy lands a retry backoff after
// the original (seconds to minutes), a few thousand to a few hundred
// thousand lines later; a rotation with copytruncate repeats the last lines
// of one file at the start of the next input. 2^21 records cover 3.5 minutes
// at 10,000 requests per second and over half an hour at 1,000, in 48 MB
// whatever the size of the input (a set of every record took ~155 B per
// record: 1.36 GB for a 2.2 GB nginx log). A time-partitioned set was the
// other candidate; it still grows with the requests of a partition (a busy
// day of a fleet is tens of millions) and its eviction would depend on how
// ordered the log's times are. A repeat farther apart than the window is
// kept as a record: ttftrace never drops a record it cannot prove repeated.
const DupWindow = 1 << 21

// dupWindow is the set of the last DupWindow record sums: a ring of the
// sums in arrival order and an open-addressing table (linear probing) of
// 1-based ring positions, at most half full, so memory is 24 bytes per
// remembered record and lookups stay one or two probes. The ring and table
// grow by doubling up to their caps, so small inputs cost little.
type dupWindow struct {
	capacity int      // most sums remembered (a power of two)
	ring     []rawSum // the remembered sums; next overwrites the oldest
	next     int      // ring position of the next sum once the ring is full
	table    []uint32 // 0 = empty, else 1 + a ring position
}

func newDupWindow(capacity int) *dupWindow {
	return &dupWindow{capacity: capacity}
}

// seen reports whether sum is among the remembered sums, and remembers it
// (forgetting the oldest when full) when it is not.
func (w *dupWindow) seen(sum rawSum) bool {
	if len(w.table) > 0 && w.find(sum) >= 0 {
		return true
	}
	if len(w.ring) < w.capacity {
		if 2*(len(w.ring)+1) > len(w.table) {
			w.grow()
		}
		w.ring = append(w.ring, sum)
		w.insert(len(w.ring) - 1)
		return false
	}
	w.remove(w.find(w.ring[w.next]))
	w.ring[w.next] = sum
	w.insert(w.next)
	w.next = (w.next + 1) % w.capacity
	return false
}

// slot returns the home slot of sum in the table.
func (w *dupWindow) slot(sum rawSum) int {
	return int(sum[0] & uint64(len(w.table)-1))
}

// find returns the table slot holding sum, or -1.
func (w *dupWindow) find(sum rawSum) int {
	mask := len(w.table) - 1
	for i := w.slot(sum); ; i = (i + 1) & mask {
		p := w.table[i]
		if p == 0 {
			return -1
		}
		if w.ring[p-1] == sum {
			return i
		}
	}
}

// insert puts ring position pos in the table.
func (w *dupWindow) insert(pos int) {
	mask := len(w.table) - 1
	i := w.slot(w.ring[pos])
	for w.table[i] != 0 {
		i = (i + 1) & mask
	}
	w.table[i] = uint32(pos + 1)
}

// remove empties table slot i and moves later entries of its probe run
// back (backward-shift deletion), so that no tombstones are needed.
func (w *dupWindow) remove(i int) {
	mask := len(w.table) - 1
	for j := (i + 1) & mask; w.table[j] != 0; j = (j + 1) & mask {
		home := w.slot(w.ring[w.table[j]-1])
		// The entry at j moves to i when i is no farther from j than its
		// home is (going forward, wrapping around).
		if (j-home)&mask >= (j-i)&mask {
			w.table[i] = w.table[j]
			i = j
		}
	}
	w.table[i] = 0
}

// grow doubles the table (at least 64 slots) and reinserts the ring.
func (w *dupWindow) grow() {
	w.table = make([]uint32, max(64, 2*len(w.table)))
	for pos := range w.ring {
		w.insert(pos)
	}
}

// formatSeed mixes a format's name into record sums, so that one window
// serves every format and equal bytes of two formats never match.
var formatSeed = maphash.MakeSeed()

// formatHash is a format's name hashed (formatKey) for the window keys of
// its records, once per batch rather than once per record.
type formatHash uint64

// formatKey returns the hash of format.
func formatKey(format string) formatHash { return formatHash(maphash.String(formatSeed, format)) }

// key returns the window key of a record of the format with raw sum.
func (h formatHash) key(sum rawSum) rawSum {
	return rawSum{sum[0] ^ uint64(h), sum[1] ^ uint64(h)}
}
