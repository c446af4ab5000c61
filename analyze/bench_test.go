package analyze

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

// TestBinomialCDFAgainstDirectSum checks the O(√n) table against the plain
// O(n) sum of C(n,k)·qᵏ·(1−q)ⁿ⁻ᵏ, each term from log-gamma on its own.
func TestBinomialCDFAgainstDirectSum(t *testing.T) {
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	for _, n := range []int{1, 2, 7, 40, 199, 1000} {
		for _, pk := range percentileKeys {
			q, fn := pk.q, float64(n)
			table := binomialCDF(n, q)
			sum := 0.0
			for k := 0; k <= n; k++ {
				fk := float64(k)
				sum += math.Exp(lg(fn+1) - lg(fk+1) - lg(fn-fk+1) + fk*math.Log(q) + (fn-fk)*math.Log1p(-q))
				if got := table.at(k); math.Abs(got-sum) > 1e-9 {
					t.Fatalf("n=%d q=%g: P(B≤%d) = %g, direct sum %g", n, q, k, got, sum)
				}
			}
		}
	}
}

// syntheticEvents returns n client events one second apart on the wall
// clock, each with 50 chunks, a few failing.
func syntheticEvents(n int) []schema.Event {
	rng := rand.New(rand.NewPCG(1, 2))
	evs := make([]schema.Event, n)
	for i := range evs {
		e := wallEvent(schema.SourceClient, float64(i)*1000)
		e.Model = []string{"a", "b", "c"}[i%3]
		ttft := int64((50 + rng.ExpFloat64()*200) * 1e6)
		e.ChunkOffsetsNs = make([]int64, 50)
		for c := range e.ChunkOffsetsNs {
			e.ChunkOffsetsNs[c] = ttft + int64(c)*int64((20+rng.Float64()*10)*1e6)
		}
		e.EndNs = ptr(*e.StartNs + e.ChunkOffsetsNs[49] + 1e6)
		e.PromptTokens, e.OutputTokens = ptr(int64(rng.IntN(4000))), ptr(int64(50))
		if i%50 == 0 {
			e.Status, e.Error = ptr(int32(429)), schema.ErrorRateLimited
		}
		evs[i] = e
	}
	return evs
}

func BenchmarkSummarize1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]float64, 1_000_000)
	for i := range src {
		src[i] = rng.ExpFloat64()
	}
	buf := make([]float64, len(src))
	for b.Loop() {
		copy(buf, src)
		summarize(buf)
	}
}

func BenchmarkQuantileCIRanks1M(b *testing.B) {
	for b.Loop() {
		for _, pk := range percentileKeys {
			QuantileCIRanks(1_000_000, pk.q)
		}
	}
}

func BenchmarkRun100k(b *testing.B) {
	evs := syntheticEvents(100_000)
	opts := Options{By: [][]string{{"model"}}, Window: time.Hour, SLO: map[string]float64{"ttft": 200}}
	for b.Loop() {
		Run(evs, nil, opts)
	}
}

// BenchmarkSortLatencies5M sorts 4.8M latencies in ms with ns resolution,
// as many as week5000000's largest metric (the MSD and LSD passes).
func BenchmarkSortLatencies5M(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]float64, 4_800_000)
	for i := range src {
		src[i] = float64(int64((10+rng.ExpFloat64()*300)*1e6)) / 1e6
	}
	buf := make([]float64, len(src))
	var s floatSorter
	for b.Loop() {
		copy(buf, src)
		s.sort(buf)
	}
}
