package analyze

import (
	"cmp"
	"slices"

	"github.com/ttftrace/ttftrace/dataset"
)

// maxExactInt is the largest magnitude up to which every int64 converts to
// a distinct float64 (2⁵³).
const maxExactInt = 1 << 53

// ttftByPrompt returns (prompt tokens, ttft ms) of the successful requests
// that have both, sorted; above 2000 points it keeps the points at ranks
// ⌊j·n/2000⌋, j = 0…1999, so the sample is deterministic and spans the
// range.
func ttftByPrompt(c *dataset.Columns, src string, rows []int32) (Scatter, bool) {
	pts := promptPoints{c, rows}
	n, lo, hi := pts.bounds()
	if n == 0 {
		return Scatter{}, false
	}
	var kept [][2]float64
	if n > scatterPoints && lo >= -maxExactInt && hi <= maxExactInt && hi-lo < int64(n)+1<<16 {
		kept = pts.ranksByPrompt(n, lo, hi)
	} else {
		kept = pts.ranksBySort(n)
	}
	return Scatter{Source: src, X: "prompt_tokens", Y: "ttft_ms", Points: kept}, true
}

// promptPoints are the (prompt tokens, ttft ms) points of the rows of c.
type promptPoints struct {
	c    *dataset.Columns
	rows []int32
}

// all yields the points, in row order: the successful requests with a
// prompt token count and a ttft.
func (p promptPoints) all(yield func(prompt int64, ttft float64) bool) {
	var r request
	for _, row := range p.rows {
		e := event{p.c, int(row)}
		prompt, ok := e.promptTokens()
		if !ok || !succeeded(e) {
			continue
		}
		r.resolve(e, fFirst)
		if t, ok := msBetween(r.start, r.first); ok && !yield(prompt, t) {
			return
		}
	}
}

// bounds returns how many points there are and their least and greatest
// prompt token count.
func (p promptPoints) bounds() (n int, lo, hi int64) {
	for prompt := range p.all {
		if n == 0 || prompt < lo {
			lo = prompt
		}
		if n == 0 || prompt > hi {
			hi = prompt
		}
		n++
	}
	return n, lo, hi
}

// ranksBySort returns the points ttftByPrompt keeps by sorting all n of
// them by prompt, then ttft.
func (p promptPoints) ranksBySort(n int) [][2]float64 {
	pts := make([][2]float64, 0, n)
	for prompt, t := range p.all {
		pts = append(pts, [2]float64{float64(prompt), t})
	}
	slices.SortFunc(pts, func(a, b [2]float64) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	if n <= scatterPoints {
		return pts
	}
	kept := make([][2]float64, scatterPoints)
	for j := range kept {
		kept[j] = pts[j*n/scatterPoints]
	}
	return kept
}

// ranksByPrompt returns the points ttftByPrompt keeps (n > scatterPoints,
// prompts lo…hi within ±2⁵³, so that distinct counts stay distinct as
// float64) without sorting them all: a counting sort by prompt places the
// ttfts of each prompt count together, in prompt order, and only the
// prompts holding a kept rank have their ttfts sorted. ttfts come from
// integer nanoseconds, so they are never NaN or −0 and sort as slices.Sort
// would.
func (p promptPoints) ranksByPrompt(n int, lo, hi int64) [][2]float64 {
	next := make([]int32, hi-lo+2) // per prompt, the start of its ttfts in ys
	for prompt := range p.all {
		next[prompt-lo+1]++
	}
	for b := 1; b < len(next); b++ {
		next[b] += next[b-1]
	}
	ys := make([]float64, n)
	for prompt, t := range p.all {
		b := prompt - lo
		ys[next[b]] = t
		next[b]++ // next[b] ends as the end of prompt b's ttfts
	}
	kept := make([][2]float64, scatterPoints)
	var sorter floatSorter
	b, start, sorted := 0, 0, -1
	for j := range kept {
		rank := j * n / scatterPoints
		for int(next[b]) <= rank {
			start = int(next[b])
			b++
		}
		if b != sorted {
			sorter.sort(ys[start:next[b]])
			sorted = b
		}
		kept[j] = [2]float64{float64(lo + int64(b)), ys[rank]}
	}
	return kept
}
