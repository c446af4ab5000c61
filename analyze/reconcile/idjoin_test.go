package reconcile

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ttftrace/ttftrace/analyze/internal/parallel"
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// TestIDCandidates checks the id join's candidates of every outer
// observation of the three pairs against maps built from the same keys:
// a trace id or an id is used only when one observation of each side
// carries it, and an outer whose usable ids name different inner
// observations has no id candidate. The sources draw traces and ids from
// small pools, so that keys are shared within a source, across sources
// and within one observation (twice, even); run on whole loops and on parts of a few
// observations, with partitions of a few keys, it must give the same.
func TestIDCandidates(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func(pool int, empty float64) string {
		if rng.Float64() < empty {
			return ""
		}
		return fmt.Sprintf("id%d", rng.IntN(pool))
	}
	var events []schema.Event
	for k := range 6000 {
		src := []string{schema.SourceClient, schema.SourceProxy, schema.SourceServer}[k%3]
		e := obsEvent(src, fmt.Sprintf("h%d", k%5), "f", float64(k), noInstant, float64(k)+1)
		if rng.Float64() < 0.7 {
			e.TraceID = fmt.Sprintf("%032d", rng.IntN(2400))
		}
		e.RequestID, e.ResponseID = pick(5000, 0.2), pick(5000, 0.6)
		if rng.IntN(4) == 0 { // past four distinct keys, a repeat is kept (dataset.appendIDKeys)
			x := pick(5000, 0)
			e.OtherIDs = []string{pick(5000, 0), e.RequestID, pick(5000, 0), pick(5000, 0), pick(5000, 0), x, x}
		}
		events = append(events, e)
	}
	c, err := dataset.ColumnsOf(events, ColumnsOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := newReconciler(c, nil, parallel.Split{})
	// carriers lists, per key, the observations of s carrying it.
	carriers := func(s *obsSource, keysOf idKeys) map[dataset.ColumnsID][]int32 {
		m := map[dataset.ColumnsID][]int32{}
		for k, ref := range s.obs {
			for _, key := range keysOf(nil, int(ref.event)) {
				if l := m[key]; len(l) == 0 || l[len(l)-1] != int32(k) {
					m[key] = append(l, int32(k))
				}
			}
		}
		return m
	}
	traces, ids := traceKeys(c), normalizedKeys(c)
	withTrace, withID, conflicts := 0, 0, 0
	for _, p := range []*joinPair{r.cp, r.ps, r.cs} {
		outT, inT := carriers(p.outer, traces), carriers(p.inner, traces)
		outI, inI := carriers(p.outer, ids), carriers(p.inner, ids)
		unique := func(out, in map[dataset.ColumnsID][]int32, key dataset.ColumnsID) int32 {
			if len(out[key]) == 1 && len(in[key]) == 1 {
				return in[key][0]
			}
			return -1
		}
		want := make([]idCands, len(p.outer.obs))
		for o, ref := range p.outer.obs {
			w := idCands{-1, -1}
			for _, key := range traces(nil, int(ref.event)) {
				w.trace = unique(outT, inT, key)
			}
			conflict := false
			for _, key := range ids(nil, int(ref.event)) {
				switch i := unique(outI, inI, key); {
				case i < 0:
				case w.id < 0:
					w.id = i
				case w.id != i:
					conflict = true
				}
			}
			if conflict {
				w.id = -1
				conflicts++
			}
			want[o] = w
			withTrace += int(boolCount(w.trace >= 0))
			withID += int(boolCount(w.id >= 0))
		}
		for _, part := range []int{0, 7} {
			r.par.Part = part
			for o, got := range r.idCandidates(p) {
				if got != want[o] {
					t.Fatalf("%s⊃%s outer %d, parts of %d: candidates %+v, want %+v", p.outer.name, p.inner.name, o, part, got, want[o])
				}
			}
		}
	}
	if withTrace < 100 || withID < 100 || conflicts == 0 {
		t.Fatalf("%d outers with a trace candidate, %d with an id candidate, %d with conflicting ids: too few to test",
			withTrace, withID, conflicts)
	}
}
