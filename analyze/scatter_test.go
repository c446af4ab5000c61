package analyze

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestRanksByPromptMatchesSort checks the counting sort's kept points
// against sorting every (prompt, ttft) pair, on random requests: ties in
// prompt and in ttft, negative prompts and ttfts, ttfts from the first
// chunk, failures and requests without a prompt count.
func TestRanksByPromptMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	shapes := []struct {
		name    string
		prompts int64 // prompt counts are drawn from −prompts/4…prompts
		ttftMs  int   // ttfts are drawn from −ttftMs/10…ttftMs whole ms
	}{{"one prompt", 1, 5000}, {"few ties", 4, 3}, {"spread", 8000, 2000}, {"wide", 1 << 20, 100}}
	for _, sh := range shapes {
		for _, n := range []int{scatterPoints + 400, 7919, 30000} {
			evs := make([]schema.Event, n)
			for i := range evs {
				e := wallEvent("server", float64(rng.IntN(1000)))
				e.PromptTokens = ptr(rng.Int64N(sh.prompts+sh.prompts/4+1) - sh.prompts/4)
				ttft := int64(rng.IntN(sh.ttftMs+sh.ttftMs/10+1)-sh.ttftMs/10) * 1e6
				if rng.IntN(2) == 0 {
					ttft += rng.Int64N(1e6) // sub-millisecond: fewer ties
				}
				if rng.IntN(4) == 0 {
					e.ChunkOffsetsNs = []int64{ttft, ttft + 1e6}
				} else {
					e.FirstTokenNs = ptr(*e.StartNs + ttft)
				}
				switch rng.IntN(20) {
				case 0:
					e.PromptTokens = nil
				case 1:
					e.Status = ptr(int32(500))
				}
				evs[i] = e
			}
			c, _ := eventsOf(t, evs...)
			pts := promptPoints{c, allRows(c.Rows)}
			m, lo, hi := pts.bounds()
			if m <= scatterPoints {
				t.Fatalf("%s n=%d: only %d points", sh.name, n, m)
			}
			got, want := pts.ranksByPrompt(m, lo, hi), pts.ranksBySort(m)
			if !slices.Equal(got, want) {
				t.Fatalf("%s n=%d: counting sort and full sort differ", sh.name, n)
			}
			sc, ok := ttftByPrompt(c, "server", allRows(c.Rows))
			if !ok || !slices.Equal(sc.Points, want) {
				t.Fatalf("%s n=%d: ttftByPrompt differs from the full sort", sh.name, n)
			}
		}
	}
}
