package analyze

import (
	"cmp"
	"math"
	"slices"
	"unsafe"
)

// radixMin is the sample count below which sortFloats uses slices.Sort.
const radixMin = 512

// sortFloats sorts samples ascending, giving exactly the slice slices.Sort
// gives. Large slices are sorted by radix sort on the IEEE-754 bits (see
// sortKeys), which profiling showed is several times faster than pdqsort on
// millions of latencies. A
// slice holding NaN or −0 goes to slices.Sort, whose order for those values
// (NaN first, ±0 as equals) a bit-order sort would not reproduce.
func sortFloats(samples []float64) {
	var s floatSorter
	s.sort(samples)
}

// floatSorter sorts float64 slices as sortFloats does, reusing its scratch
// buffers across calls (so sorting many groups' samples allocates once).
type floatSorter struct {
	tmp    []uint64 // LSD scratch, at most msdMin keys long
	counts [][]int  // bucket sizes and ends of the MSD passes, by depth
	// few is sortFew's table of distinct values: bits+1 (0 empty), and
	// their counts.
	few      []uint64
	fewCount []int32
}

// sort sorts samples ascending, exactly as slices.Sort would.
func (s *floatSorter) sort(samples []float64) {
	if len(samples) < radixMin {
		slices.Sort(samples)
		return
	}
	for _, v := range samples {
		if v != v || math.Float64bits(v) == 1<<63 {
			slices.Sort(samples)
			return
		}
	}
	if len(samples) >= fewMin && len(samples) <= math.MaxInt32 && s.sortFew(samples) { // its counts are int32
		return
	}
	// The keys overwrite the samples in place (same size).
	keys := unsafe.Slice((*uint64)(unsafe.Pointer(&samples[0])), len(samples))
	for i, k := range keys {
		// Negative floats: flip all bits; positive: flip the sign bit. The
		// unsigned order of the keys is then the numeric order.
		keys[i] = k ^ (uint64(int64(k)>>63) | 1<<63)
	}
	s.sortKeys(keys)
	for i, k := range keys {
		keys[i] = k ^ (uint64(int64(^k)>>63) | 1<<63)
	}
}

// fewMin is the sample count from which sort first tries sortFew, fewMax
// the most distinct values sortFew takes, and fewBits the width of its
// table's index (twice fewMax slots: at most half full).
const (
	fewMin  = 1 << 15
	fewMax  = 1 << 16
	fewBits = 17
)

// sortFew sorts samples that hold at most fewMax distinct values (no NaN
// nor −0), and reports whether it did; otherwise it has only read them,
// and stops at the (fewMax+1)-th distinct value. Gateways log latencies in
// whole milliseconds (nginx's $request_time, Envoy's %DURATION%): a week's
// millions of samples take a few thousand values, which are counted in a
// table that stays in the caches, sorted, and written back each as many
// times as it came: a pass over the samples and one over the output, where
// the radix sort makes seven.
func (s *floatSorter) sortFew(samples []float64) bool {
	const slots = 1 << fewBits
	if s.few == nil {
		s.few, s.fewCount = make([]uint64, slots), make([]int32, slots)
	}
	clear(s.few)
	distinct := 0
	for _, v := range samples {
		b := math.Float64bits(v) + 1
		i := int(b * 0x9e3779b97f4a7c15 >> (64 - fewBits))
		for s.few[i] != b && s.few[i] != 0 {
			i = (i + 1) & (slots - 1)
		}
		if s.few[i] == 0 {
			if distinct == fewMax {
				return false
			}
			s.few[i], s.fewCount[i] = b, 0
			distinct++
		}
		s.fewCount[i]++
	}
	type value struct {
		v float64
		n int32
	}
	values := make([]value, 0, distinct)
	for i, b := range s.few {
		if b != 0 {
			values = append(values, value{math.Float64frombits(b - 1), s.fewCount[i]})
		}
	}
	slices.SortFunc(values, func(a, b value) int { return cmp.Compare(a.v, b.v) })
	out := samples[:0]
	for _, x := range values {
		for range x.n {
			out = append(out, x.v)
		}
	}
	return true
}

// msdBits is the width of the most significant digit sortKeys partitions by
// first: sign, exponent and the top 4 mantissa bits of a float64.
const msdBits = 16

// msdMin is the key count from which sortKeys partitions by the top digit
// first; below it the LSD sort alone is faster (100k latencies: 1.45 ms
// against 1.68) and its scratch at most 8 MB.
const msdMin = 1 << 20

// sortKeys sorts keys ascending by an LSD radix sort (one pass per 11-bit
// digit, skipping digits all keys share). From msdMin keys, an in-place MSD
// pass (American flag sort) first puts them in buckets by their top 16 bits
// (sign, exponent and the top 4 mantissa bits of a float64), and a bucket
// of msdMin keys or more is partitioned again by its next 16 bits, and so
// on down to the last bit; the LSD sort then sorts each smaller bucket on
// its remaining bits. Its scratch is so never longer than msdMin keys (8
// MB): latencies packed into one of the 16 buckets of their power of two,
// or equal (a client's inter-token gaps: 4.1M of 6.2M are one value), needed
// one as long as that bucket.
func (s *floatSorter) sortKeys(keys []uint64) { s.sortBits(keys, 64, 0) }

// sortBits sorts keys that share all but their low bits, partitioning them
// at the given depth of sortKeys' MSD passes.
func (s *floatSorter) sortBits(keys []uint64, bits, depth int) {
	if len(keys) < msdMin {
		s.lsd(keys, bits)
		return
	}
	width := min(bits, msdBits) // the last digit may be narrower: a bucket then holds equal keys
	shift, mask := uint(bits-width), uint64(1)<<width-1
	for len(s.counts) <= depth {
		s.counts = append(s.counts, make([]int, 2<<msdBits)) // sizes, then bucket ends
	}
	count, next := s.counts[depth][:1<<width], s.counts[depth][1<<msdBits:][:1<<width]
	clear(count)
	for _, k := range keys {
		count[k>>shift&mask]++
	}
	sum := 0
	for b, n := range count {
		next[b] = sum
		sum += n
		count[b] = sum // count now holds each bucket's end
	}
	for b := range next {
		end := count[b]
		for i := next[b]; i < end; i = next[b] {
			k := keys[i]
			for d := k >> shift & mask; d != uint64(b); d = k >> shift & mask {
				j := next[d]
				next[d] = j + 1
				k, keys[j] = keys[j], k
			}
			keys[i] = k
			next[b] = i + 1
		}
	}
	lo := 0
	for _, hi := range count {
		if bucket := keys[lo:hi]; len(bucket) > 1 && shift > 0 {
			if len(bucket) < radixMin {
				slices.Sort(bucket)
			} else {
				s.sortBits(bucket, int(shift), depth+1)
			}
		}
		lo = hi
	}
}

// lsd radix-sorts keys by their low bits with the sorter's scratch.
func (s *floatSorter) lsd(keys []uint64, bits int) {
	if cap(s.tmp) < len(keys) {
		s.tmp = make([]uint64, len(keys))
	}
	radixSort(keys, s.tmp[:len(keys)], bits)
}

// digitBits is the width of radixSort's digits: 11-bit digits sort 48 bits
// in 5 passes where bytes took 6, and 4.8M latencies in 125 ms against 150
// (their counts, 96 KB, still fit the L2 cache).
const digitBits = 11

// radixSort sorts keys ascending by their low bits (digit by digit, least
// significant first), using tmp (as long as keys) as scratch.
func radixSort(keys, tmp []uint64, bits int) {
	const mask = 1<<digitBits - 1
	passes := (bits + digitBits - 1) / digitBits
	var counts [(64 + digitBits - 1) / digitBits][1 << digitBits]int
	for _, k := range keys {
		for p := range passes {
			counts[p][(k>>(digitBits*p))&mask]++
		}
	}
	src, dst := keys, tmp
	for p := range passes {
		c := &counts[p]
		shift := digitBits * uint(p)
		if c[(src[0]>>shift)&mask] == len(src) {
			continue // every key has the same digit here
		}
		sum := 0
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		for _, k := range src {
			d := (k >> shift) & mask
			dst[c[d]] = k
			c[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
