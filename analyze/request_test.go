package analyze

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// randomRequests returns n events each logging a random subset of the
// fields requests are resolved from: instants before or after start, token
// counts of 0, 1, many or negative, chunks with and without token counts.
func randomRequests(rng *rand.Rand, n int) []schema.Event {
	maybe := func(v int64) *int64 {
		if rng.IntN(3) == 0 {
			return nil
		}
		return ptr(v)
	}
	evs := make([]schema.Event, n)
	for i := range evs {
		e := wallEvent("client", float64(rng.IntN(1000)))
		if rng.IntN(8) == 0 {
			e.StartNs = nil
		}
		ms := func() int64 { return (rng.Int64N(3000) - 100) * 1e6 }
		e.FirstTokenNs, e.LastTokenNs = maybe(t0+ms()), maybe(t0+ms())
		e.EndNs, e.HeadersNs = maybe(t0+ms()), maybe(t0+ms())
		e.QueueNs, e.PrefillNs, e.DecodeNs = maybe(ms()), maybe(ms()), maybe(ms())
		e.OutputTokens = maybe(rng.Int64N(6) - 1)
		if k := rng.IntN(5); k > 0 {
			e.ChunkOffsetsNs = make([]int64, k)
			for c := range e.ChunkOffsetsNs {
				e.ChunkOffsetsNs[c] = ms()
			}
			slices.Sort(e.ChunkOffsetsNs)
			if rng.IntN(2) == 0 {
				e.ChunkTokens = make([]int32, k-rng.IntN(2)) // sometimes one short
				for c := range e.ChunkTokens {
					e.ChunkTokens[c] = int32(rng.IntN(4) - 1)
				}
			}
		}
		evs[i] = e
	}
	return evs
}

// TestMetricReads checks every metric's reads: its samples from a request
// resolved with only those fields equal its samples from newRequest's,
// bit for bit, on random requests.
func TestMetricReads(t *testing.T) {
	_, evs := eventsOf(t, randomRequests(rand.New(rand.NewPCG(5, 6)), 4000)...)
	defs := slices.Clone(coreMetrics)
	for _, m := range compatMetrics {
		defs = append(defs, m...)
	}
	for _, d := range defs {
		drawn := 0
		for _, e := range evs {
			full, part := newRequest(e), newRequest(evs[(e.i+1)%len(evs)])
			part.resolve(e, d.reads) // over another request: every field is reset
			want, got := d.samples(&full, nil), d.samples(&part, nil)
			if !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Fatalf("%s row %d: samples %v with its reads, %v with every field", d.name, e.i, got, want)
			}
			drawn += len(want)
		}
		if drawn == 0 {
			t.Errorf("%s: no samples from %d random requests", d.name, len(evs))
		}
	}
}

// TestSampleNeeds checks that every request giving a metric a sample meets
// the metric's sampleNeeds condition, on random requests.
func TestSampleNeeds(t *testing.T) {
	_, evs := eventsOf(t, randomRequests(rand.New(rand.NewPCG(9, 10)), 4000)...)
	for name, need := range sampleNeeds {
		d := findMetric(coreMetrics, name)
		if d == nil {
			t.Fatalf("sampleNeeds names %q, no core metric", name)
		}
		drawn, unmet := 0, 0
		for _, e := range evs {
			r := newRequest(e)
			n := len(d.samples(&r, nil))
			drawn += n
			if !need(e) {
				unmet++
				if n > 0 {
					t.Fatalf("%s row %d: %d samples, but its need is not met", name, e.i, n)
				}
			}
		}
		if drawn == 0 || unmet == 0 {
			t.Errorf("%s: %d samples, %d requests not meeting its need: the check checked nothing", name, drawn, unmet)
		}
	}
}
