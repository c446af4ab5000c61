package reconcile

import (
	"math/bits"
	"slices"

	"github.com/ttftrace/ttftrace/dataset"
)

// The id joins find, for every outer observation of a pair, the one inner
// observation sharing its trace id and the one sharing its normalized ids
// (idCandidates), as a partitioned hash join: the keys of both sides are
// copied into partitions by their hash's leading bits (each side's keys of
// one partition in observation order), then each partition's keys, a few
// thousand, are matched in a hash table that stays in the caches. A key two
// observations of one side carry is ambiguous and matches nothing. Indexing
// every source's keys in one table per source, as before, made each key a
// cache miss to add and two to look up (the outer's, then the inner's) plus
// one to read the key back from the Columns; on a week of five million
// requests the tables took 1.1–2.7 s of CPU to build and 1.4 s to probe,
// and 256 MB while the joins ran.

// idKeys gives the keys of one domain (trace ids or normalized ids) that a
// row of the Columns carries, appended to dst.
type idKeys func(dst []dataset.ColumnsID, row int) []dataset.ColumnsID

// traceKeys and normalizedKeys are the two domains of the id joins.
func traceKeys(c *dataset.Columns) idKeys {
	return func(dst []dataset.ColumnsID, row int) []dataset.ColumnsID {
		if id, ok := c.TraceID.Get(row); ok {
			dst = append(dst, id)
		}
		return dst
	}
}

func normalizedKeys(c *dataset.Columns) idKeys {
	return func(dst []dataset.ColumnsID, row int) []dataset.ColumnsID { return append(dst, c.IDKeys.At(row)...) }
}

// idSideKeys are one side's keys of one domain, by part of its
// observations and, within a part, by partition: part k's keys of
// partition q are parts[k].keys[at[q]:at[q+1]], carried by the
// observations (indices into the source's) of parts[k].obs alike, in
// observation order.
type idSideKeys struct{ parts []idPartKeys }

// idPartKeys are one part's keys, by partition.
type idPartKeys struct {
	keys []dataset.ColumnsID
	obs  []int32
	at   []int32
}

// partition returns partition q's keys and observations in part k.
func (x *idSideKeys) partition(k, q int) ([]dataset.ColumnsID, []int32) {
	p := &x.parts[k]
	return p.keys[p.at[q]:p.at[q+1]], p.obs[p.at[q]:p.at[q+1]]
}

// idPartSize is the number of observations (of both sides) whose keys a
// partition of the id joins holds on average (a row has at most one trace
// id and most have one or two ids); idPartsPart is how many observations
// one part of the partitioning takes.
const (
	idPartSize  = 1 << 13
	idPartsPart = 1 << 16
)

// idKeyHash mixes a key's two words (a ColumnsID is already a hash or the
// digits of a hex id).
func idKeyHash(key dataset.ColumnsID) uint64 {
	return (key[0] ^ bits.RotateLeft64(key[1], 31)) * 0x9e3779b97f4a7c15
}

// idGather is one worker's scratch for partitionKeys: a part's keys, their
// observations and partitions in observation order.
type idGather struct {
	keys []dataset.ColumnsID
	obs  []int32
	part []uint16
}

// partitionKeys copies the keys of s's observations into 1<<partBits
// partitions by their hash's leading bits, part by part of observations in
// parallel, into x (its arrays reused when large enough). A part's keys are
// read once, into its worker's scratch (which stays in the caches), then
// counted and copied to its own arrays by partition: partitioning all the
// keys at once read them twice (to count, then to copy) and wrote each to
// one of thousands of places across the whole array.
func (r *reconciler) partitionKeys(x *idSideKeys, s *obsSource, keysOf idKeys, partBits int) {
	nParts := 1 << partBits
	shift := uint(64 - partBits) // 64: one partition, as x >> 64 is 0
	parts := r.par.PartCount(len(s.obs), idPartsPart)
	if len(x.parts) < parts {
		x.parts = append(x.parts, make([]idPartKeys, parts-len(x.parts))...)
	}
	x.parts = x.parts[:parts]
	size := r.par.PartSize(idPartsPart)
	scratch := make([]idGather, r.par.WorkerCount(parts))
	r.par.ForEach(parts, func(w, k int) {
		g, buf := &scratch[w], []dataset.ColumnsID(nil)
		g.keys, g.obs, g.part = g.keys[:0], g.obs[:0], g.part[:0]
		for o := k * size; o < min(len(s.obs), (k+1)*size); o++ {
			buf = keysOf(buf[:0], int(s.obs[o].event))
			for _, key := range buf {
				g.keys, g.obs = append(g.keys, key), append(g.obs, int32(o))
				g.part = append(g.part, uint16(idKeyHash(key)>>shift))
			}
		}
		p := &x.parts[k]
		p.at = slices.Grow(p.at[:0], nParts+1)[:nParts+1]
		clear(p.at)
		for _, q := range g.part {
			p.at[q+1]++
		}
		for q := range nParts {
			p.at[q+1] += p.at[q]
		}
		n := len(g.keys)
		p.keys, p.obs = slices.Grow(p.keys[:0], n)[:n], slices.Grow(p.obs[:0], n)[:n]
		next := slices.Clone(p.at[:nParts])
		for j, q := range g.part {
			p.keys[next[q]], p.obs[next[q]] = g.keys[j], g.obs[j]
			next[q]++
		}
	})
}

// idSlot is one key of a partition's table: the outer and inner
// observations carrying it (index + 1; 0 none, −1 several).
type idSlot struct {
	key     dataset.ColumnsID
	out, in int32
	used    bool
}

// idMatchTable is a partition's open-addressing table, reused partition
// after partition.
type idMatchTable struct {
	slots []idSlot
	mask  int
}

// reset empties the table, sized for n keys at a load of at most one half.
func (t *idMatchTable) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(t.slots) < size {
		t.slots = make([]idSlot, size)
	}
	t.slots = t.slots[:size]
	clear(t.slots)
	t.mask = size - 1
}

// slot returns key's slot, claiming an empty one for it.
func (t *idMatchTable) slot(key dataset.ColumnsID) *idSlot {
	for s := int(idKeyHash(key)>>32) & t.mask; ; s = (s + 1) & t.mask {
		e := &t.slots[s]
		if !e.used {
			e.key, e.used = key, true
			return e
		}
		if e.key == key {
			return e
		}
	}
}

// carry records that observation obs carries the key of slot field *f.
func carry(f *int32, obs int32) {
	switch *f {
	case 0:
		*f = obs + 1
	case obs + 1, -1:
	default:
		*f = -1
	}
}

// matchKeys returns, per partition, the outer and inner observations of
// each outer key of one domain that exactly one outer and one inner
// observation carry, in the partition's order of outer keys (observation
// order); the partitions are matched in parallel.
func (r *reconciler) matchKeys(p *joinPair, keysOf idKeys, outs, ins *idSideKeys) [][][2]int32 {
	n := len(p.outer.obs) + len(p.inner.obs)
	size := r.par.PartSize(idPartSize) // tests set Part: many partitions of a few keys
	partBits := 0
	for n>>partBits > size && partBits < 16 {
		partBits++
	}
	r.partitionKeys(outs, p.outer, keysOf, partBits)
	r.partitionKeys(ins, p.inner, keysOf, partBits)
	nParts := 1 << partBits
	matches := make([][][2]int32, nParts)
	r.par.ForParts(nParts, 1+nParts/64, func(_, from, to int) {
		var t idMatchTable
		for q := from; q < to; q++ {
			total := 0
			for _, x := range []*idSideKeys{outs, ins} {
				for k := range x.parts {
					total += int(x.parts[k].at[q+1] - x.parts[k].at[q])
				}
			}
			t.reset(total)
			for k := range ins.parts {
				keys, obs := ins.partition(k, q)
				for j, key := range keys {
					carry(&t.slot(key).in, obs[j])
				}
			}
			for k := range outs.parts {
				keys, obs := outs.partition(k, q)
				for j, key := range keys {
					carry(&t.slot(key).out, obs[j])
				}
			}
			for k := range outs.parts {
				keys, obs := outs.partition(k, q)
				for j, key := range keys {
					if e := t.slot(key); e.out > 0 && e.in > 0 {
						matches[q] = append(matches[q], [2]int32{obs[j], e.in - 1})
					}
				}
			}
		}
	})
	return matches
}

// idCandidates returns, per outer observation of p, the inner observations
// it shares its trace id with and its ids with (−1: none, or its ids point
// to several).
func (r *reconciler) idCandidates(p *joinPair) []idCands {
	cands := make([]idCands, len(p.outer.obs))
	for o := range cands {
		cands[o] = idCands{-1, -1}
	}
	// The partitions' arrays are reused from the ids to the trace ids, of
	// which there are fewer (memory already written to is not faulted in
	// again).
	var outs, ins idSideKeys
	// A row has several ids, maybe in several partitions: an outer whose
	// ids match different inners takes none.
	for _, l := range r.matchKeys(p, normalizedKeys(r.cols), &outs, &ins) {
		for _, m := range l {
			switch c := &cands[m[0]]; {
			case c.id == -1:
				c.id = m[1]
			case c.id != m[1]:
				c.id = -2
			}
		}
	}
	// A row has one trace id: each outer is matched at most once.
	for _, l := range r.matchKeys(p, traceKeys(r.cols), &outs, &ins) {
		for _, m := range l {
			cands[m[0]].trace = m[1]
		}
	}
	for o := range cands {
		cands[o].id = max(cands[o].id, -1)
	}
	return cands
}
