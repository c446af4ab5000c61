package analyze

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortFloatsMatchesSlicesSort compares sortFloats with slices.Sort bit
// for bit on shapes analysis sees (latencies in ms, wide ranges, negatives,
// repeats, infinities) and on the NaN and −0 inputs it hands to slices.Sort.
func TestSortFloatsMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	gens := map[string]func() float64{
		"latency ms": func() float64 { return 20 + rng.ExpFloat64()*200 },
		"wide":       func() float64 { return math.Ldexp(rng.Float64(), rng.IntN(200)-100) },
		"signed":     func() float64 { return rng.NormFloat64() * 1e3 },
		"repeats":    func() float64 { return float64(rng.IntN(5)) },
		"inf":        func() float64 { return []float64{math.Inf(1), math.Inf(-1), 1, -1, 0}[rng.IntN(5)] },
		"nan":        func() float64 { return []float64{math.NaN(), 2, -3}[rng.IntN(3)] },
		"neg zero":   func() float64 { return []float64{math.Copysign(0, -1), 0, 1}[rng.IntN(3)] },
		// Whole milliseconds, as gateways log them: up to fewMax distinct
		// values (sortFew), and a few more (sortFew gives up midway).
		"whole ms":       func() float64 { return float64(rng.IntN(fewMax)) },
		"whole ms, more": func() float64 { return float64(rng.IntN(fewMax + 50)) },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, radixMin - 1, radixMin, 5000, msdMin, 200_000} {
			got := make([]float64, n)
			for i := range got {
				got[i] = gen()
			}
			want := slices.Clone(got)
			slices.Sort(want)
			sortFloats(got)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s n=%d: [%d] = %v, slices.Sort gives %v", name, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSortFloatsPackedBucket sorts 2.5M latencies packed into one of the
// top-digit buckets (20–21 ms, as a client's inter-token gaps are), with
// every key repeated a few times, and 2.5M of which 2M are one value: the
// order equals slices.Sort's bit for bit, and the LSD scratch stays within
// msdMin keys.
func TestSortFloatsPackedBucket(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, equal := range []bool{false, true} {
		got := make([]float64, 5*msdMin/2)
		for i := range got {
			got[i] = 20 + float64(rng.IntN(len(got)/3))/float64(len(got))
			if equal && i%5 != 0 {
				got[i] = 20
			}
		}
		sortPacked(t, got)
	}
}

func sortPacked(t *testing.T, got []float64) {
	want := slices.Clone(got)
	slices.Sort(want)
	var s floatSorter
	s.sort(got)
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("[%d] = %v, slices.Sort gives %v", i, got[i], want[i])
		}
	}
	if len(s.tmp) > msdMin || len(s.counts) < 2 {
		t.Errorf("scratch %d keys (at most %d), %d MSD depths (want 2 or more)", len(s.tmp), msdMin, len(s.counts))
	}
}
