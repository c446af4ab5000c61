package dataset

import "math/bits"

// ColumnsOffsets holds each row's chunk offsets (ns after StartNs) in 4
// bytes a chunk where it can: a row whose offsets never step back nor
// forward by 2³² ns (4.29 s) or more keeps its first and last offsets in 8
// bytes each and every chunk's gap from the one before in 4; any other row
// keeps its offsets whole. Chunk offsets are most of a client's columns
// (~312 chunks a request): on 6.24M chunks, analysis peaked at 162–166 MB
// with 8 bytes an offset and at 135 MB with this.
type ColumnsOffsets struct {
	gaps        ColumnsList[uint32] // per packed row: 0, then off[j] − off[j−1]
	first, last []int64             // per packed row, in row order
	wide        ColumnsList[int64]  // the other rows' offsets
	staged      ColumnsList[int64]  // the row being read, before it is packed
}

// ChunkOffsets is one row's chunk offsets as ColumnsOffsets holds them: a
// view into its arrays, to be read, not changed.
type ChunkOffsets struct {
	First, Last int64    // the first and last offset (0 without chunks)
	gaps        []uint32 // when packed: gaps[j] = off[j] − off[j−1], j ≥ 1
	wide        []int64  // else: the offsets
}

// Len is the number of chunks.
func (o ChunkOffsets) Len() int { return len(o.gaps) + len(o.wide) }

// Gap returns off[j] − off[j−1], for 1 ≤ j < Len().
func (o ChunkOffsets) Gap(j int) int64 {
	if o.gaps != nil {
		return int64(o.gaps[j])
	}
	return o.wide[j] - o.wide[j-1]
}

// Append appends the offsets to dst.
func (o ChunkOffsets) Append(dst []int64) []int64 {
	if o.gaps == nil {
		return append(dst, o.wide...)
	}
	t := o.First
	for j := range o.gaps {
		if j > 0 {
			t += int64(o.gaps[j])
		}
		dst = append(dst, t)
	}
	return dst
}

// At returns row i's chunk offsets.
func (c *ColumnsOffsets) At(i int) ChunkOffsets {
	if k, ok := c.gaps.index(i); ok {
		return ChunkOffsets{First: c.first[k], Last: c.last[k], gaps: c.gaps.at(k)}
	}
	if len(c.wide.Values) == 0 { // the usual case: no row kept whole
		return ChunkOffsets{}
	}
	w := c.wide.At(i)
	if len(w) == 0 {
		return ChunkOffsets{}
	}
	return ChunkOffsets{First: w[0], Last: w[len(w)-1], wide: w}
}

// Has reports whether row i has chunk offsets (cheaper than At: most
// rows of a proxy+server week have none).
func (c *ColumnsOffsets) Has(i int) bool {
	return c.gaps.rows.Has(i) || len(c.wide.Values) > 0 && c.wide.rows.Has(i)
}

// Len returns the number of row i's chunks.
func (c *ColumnsOffsets) Len(i int) int {
	if k, ok := c.gaps.index(i); ok {
		return len(c.gaps.at(k))
	}
	if len(c.wide.Values) == 0 {
		return 0
	}
	return len(c.wide.At(i))
}

// add appends one row whose offsets are vs.
func (c *ColumnsOffsets) add(vs []int64) {
	if !packable(vs) {
		c.gaps.addRow(len(c.gaps.Values))
		c.wide.add(vs...)
		return
	}
	start := len(c.gaps.Values)
	c.gaps.Values = append(c.gaps.Values, 0)
	for j := 1; j < len(vs); j++ {
		c.gaps.Values = append(c.gaps.Values, uint32(vs[j]-vs[j-1]))
	}
	c.gaps.addRow(start)
	c.wide.addRow(len(c.wide.Values))
	c.first, c.last = append(c.first, vs[0]), append(c.last, vs[len(vs)-1])
}

// finishStaged appends the row read into staged from position start on,
// and empties staged.
func (c *ColumnsOffsets) finishStaged(start int) {
	c.add(c.staged.Values[start:])
	c.staged.Values = c.staged.Values[:0]
}

// packable reports whether vs has offsets and every step between them lies
// in [0, 2³²).
func packable(vs []int64) bool {
	if len(vs) == 0 {
		return false
	}
	for j := 1; j < len(vs); j++ {
		// From vs[j−1] ≤ vs[j] on, the step is exact as a uint64, even
		// where the int64 difference overflows.
		if vs[j] < vs[j-1] || uint64(vs[j]-vs[j-1]) >= 1<<32 {
			return false
		}
	}
	return true
}

// reserve allocates the arrays for rows rows holding chunks chunks.
func (c *ColumnsOffsets) reserve(words, rows, chunks int) {
	reserveList(&c.gaps, words, rows, chunks)
	c.first, c.last = make([]int64, 0, min(rows, chunks)), make([]int64, 0, min(rows, chunks))
	reserveList(&c.wide, words, 0, 0)
}

// index returns the position among l's non-empty rows of row i, and false
// when row i is empty.
func (l *ColumnsList[T]) index(i int) (int, bool) {
	w := l.rows.present[i>>6]
	bit := uint64(1) << (i & 63)
	if w&bit == 0 {
		return 0, false
	}
	return l.rows.rank[i>>6] + bits.OnesCount64(w&(bit-1)), true
}

// at returns the elements of the k-th non-empty row.
func (l *ColumnsList[T]) at(k int) []T {
	end := int64(len(l.Values))
	if k+1 < len(l.rows.Values) {
		end = l.rows.Values[k+1]
	}
	return l.Values[l.rows.Values[k]:end:end]
}
