package reconcile

import (
	"math/rand/v2"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
)

// idTableOf builds an idTable over ids (observation k carries ids[k]) the
// way obsSource.index does, through an idLoader.
func idTableOf(ids [][]dataset.ColumnsID) *idTable {
	n := 0
	for _, x := range ids {
		n += len(x)
	}
	t := newIDTable(n, func(k int32, j uint8) dataset.ColumnsID { return ids[k][j] })
	l := idLoader{t: t}
	for k, x := range ids {
		for j, id := range x {
			l.add(id, int32(k), uint8(j))
		}
	}
	l.flush()
	return t
}

// randomIDs returns n observations of 0–3 ids each, drawn from a pool of
// about 0.9·n keys (at least one) so that some keys are shared by several
// observations and some repeated within one.
func randomIDs(n int, seed uint64) [][]dataset.ColumnsID {
	rng := rand.New(rand.NewPCG(seed, 1))
	ids := make([][]dataset.ColumnsID, n)
	for k := range ids {
		for range rng.IntN(4) {
			v := rng.Uint64N(uint64(n)*9/10 + 1)
			ids[k] = append(ids[k], dataset.ColumnsID{v * 0x9e3779b97f4a7c15, v})
		}
	}
	return ids
}

// TestIDTableUnique checks every key's unique observation (or none, when
// several observations carry it) against a map built from the same ids,
// on tables large enough to be added in many batches, and keys absent.
func TestIDTableUnique(t *testing.T) {
	for _, n := range []int{1, 100, 300_000} {
		ids := randomIDs(n, uint64(n))
		carriers := map[dataset.ColumnsID]map[int32]bool{}
		for k, x := range ids {
			for _, id := range x {
				if carriers[id] == nil {
					carriers[id] = map[int32]bool{}
				}
				carriers[id][int32(k)] = true
			}
		}
		tab := idTableOf(ids)
		shared := 0
		for id, obs := range carriers {
			got, ok := tab.unique(id)
			switch {
			case len(obs) > 1:
				shared++
				if ok {
					t.Fatalf("n=%d: key %x carried by %d observations is unique (%d)", n, id, len(obs), got)
				}
			case !ok || !obs[got]:
				t.Fatalf("n=%d: key %x of observation %v: got %d, %v", n, id, obs, got, ok)
			}
		}
		for v := uint64(n); v < uint64(n)+1000; v++ {
			if _, ok := tab.unique(dataset.ColumnsID{v * 0x9e3779b97f4a7c15, v}); ok {
				t.Fatalf("n=%d: absent key %d found", n, v)
			}
		}
		if n == 300_000 && (shared == 0 || len(carriers) < n/2) {
			t.Fatalf("n=%d: %d keys, %d shared: the ids do not exercise ambiguity", n, len(carriers), shared)
		}
	}
}

// BenchmarkIDTableBuild builds the id table of 10M observations of 0–3 ids
// (about 15M ids, a table of 32M slots: 256 MB) through an idLoader
// (batched) and one id at a time in observation order (in order).
func BenchmarkIDTableBuild(b *testing.B) {
	ids := randomIDs(10_000_000, 3)
	b.Run("batched", func(b *testing.B) {
		for b.Loop() {
			idTableOf(ids)
		}
	})
	b.Run("in order", func(b *testing.B) {
		for b.Loop() {
			t := newIDTable(15_000_000, func(k int32, j uint8) dataset.ColumnsID { return ids[k][j] })
			for k, x := range ids {
				for j, id := range x {
					s, hb := t.hash(id)
					t.put(s, uint64(uint32(k)+1)|uint64(j)<<32|hb)
				}
			}
		}
	})
}
