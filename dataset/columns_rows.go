package dataset

import (
	"fmt"
	"slices"
)

// addRowGroup appends the n rows of a row group whose needed columns are
// decoded in chunks (in columnsNeeded order).
func (c *Columns) addRowGroup(n int, set *columnsSet, opts *ColumnsOptions) error {
	chunks := &set.chunks
	var at [columnsCount][]int32 // per column: each row's first value index, −1 when null
	for k := range chunks {
		if columnsSkipped(k, opts) || columnsStreamed(k) {
			continue
		}
		if columnsCoded(k) { // the others were indexed by the decoding goroutine
			if err := chunks[k].index(n, k); err != nil {
				return err
			}
		}
		at[k] = chunks[k].at
	}
	for k := colFirstDict8; k < colFirstDict32; k++ {
		addCodes(c.dict8(k), &chunks[k], at[k])
	}
	for k := colFirstDict32; k < colStatus; k++ {
		addCodes(c.dict32(k), &chunks[k], at[k])
	}
	addValues(&c.Status, chunks[colStatus].i32, at[colStatus])
	for _, k := range at[colCompleted] {
		if k < 0 {
			c.Completed.add(false, false)
		} else {
			c.Completed.add(chunks[colCompleted].bools[k], true)
		}
	}
	for k, col := range c.int64Columns() {
		addValues(col, chunks[colFirstInt64+k].i64, at[colFirstInt64+k])
	}
	if err := c.addAttrRows(n, chunks, at[colAttrKey], opts); err != nil {
		return err
	}
	c.addIDRows(n, set, &at, opts)
	c.Rows += n
	return nil
}

// columnsSkipped reports whether column k is not read: the attributes when
// opts names none.
func columnsSkipped(k int, opts *ColumnsOptions) bool {
	return (k == colAttrKey || k == colAttrValue) && len(opts.Attrs) == 0
}

// addAttrRows appends the rows of the attributes opts names.
func (c *Columns) addAttrRows(n int, chunks *[columnsCount]columnsChunk, bounds []int32, opts *ColumnsOptions) error {
	keys, vals := &chunks[colAttrKey], &chunks[colAttrValue]
	if len(opts.Attrs) > 0 && len(keys.codes) != len(vals.codes) {
		return errColumnsLayout
	}
	for r := range n {
		start := len(c.Attrs.Values)
		if len(opts.Attrs) > 0 {
			for j := bounds[r]; j < bounds[r+1]; j++ {
				c.markAttrKey(keys.codes[j])
				if slices.Contains(opts.Attrs, c.AttrStrings[keys.codes[j]]) {
					c.Attrs.Values = append(c.Attrs.Values, ColumnsAttr{keys.codes[j], vals.codes[j]})
				}
			}
		}
		c.Attrs.addRow(start)
	}
	return nil
}

// rowIndex returns, for a scalar column, each row's value index or −1 when
// null; for a list column, n+1 bounds: row r's values are [b[r], b[r+1]).
func (ch *columnsChunk) rowIndex(n int, list bool) ([]int32, error) {
	if list {
		return ch.listBounds(n)
	}
	if len(ch.rep) != 0 || ch.levels != n {
		return nil, errColumnsLayout
	}
	out := slices.Grow(ch.at[:0], n)[:n]
	k := int32(0)
	for r := range out {
		if len(ch.def) != 0 && ch.def[r] == 0 {
			out[r] = -1
			continue
		}
		out[r] = k
		k++
	}
	if int(k) != ch.values() {
		return nil, errColumnsLayout
	}
	return out, nil
}

// index sets ch.at to the rowIndex of column k's n rows.
func (ch *columnsChunk) index(n, k int) (err error) {
	if ch.at, err = ch.rowIndex(n, k >= colChunkOffsets && k <= colAttrValue); err != nil {
		return fmt.Errorf("column %s: %w", columnsNeeded[k][0], err)
	}
	return nil
}

// listBounds returns the n+1 bounds of a list column's rows: repetition
// level 0 starts a row, definition level 1 marks a present element.
func (ch *columnsChunk) listBounds(n int) ([]int32, error) {
	if len(ch.rep) != ch.levels || len(ch.def) != ch.levels {
		return nil, errColumnsLayout
	}
	out := slices.Grow(ch.at[:0], n+1)
	k := int32(0)
	for i := range ch.levels {
		if ch.rep[i] == 0 {
			out = append(out, k)
		}
		if ch.def[i] == 1 {
			k++
		}
	}
	if len(out) != n || int(k) != ch.values() {
		return nil, errColumnsLayout
	}
	return append(out, k), nil
}

// addCodes appends the codes of a dictionary column; a null is "" (code 0).
func addCodes[C uint8 | uint32](d *ColumnsDict[C], ch *columnsChunk, at []int32) {
	if d.index == nil {
		d.code("")
	}
	for _, k := range at {
		if k < 0 {
			d.Codes = append(d.Codes, 0)
		} else {
			d.Codes = append(d.Codes, C(ch.codes[k]))
		}
	}
}

// addValues appends a nullable column's rows: row r's value is vals[at[r]],
// null where at[r] < 0 (at's other entries count up by one, as rowIndex
// makes them). Whole words of 64 rows are appended at once: a word whose
// rows are all present copies its values in one go.
func addValues[T any](col *ColumnsNullable[T], vals []T, at []int32) {
	r := 0
	for ; r < len(at) && col.rows&63 != 0; r++ {
		col.addAt(vals, at[r])
	}
	for ; r+64 <= len(at); r += 64 {
		word := at[r : r+64]
		col.rank = append(col.rank, len(col.Values))
		if word[0] >= 0 && word[63]-word[0] == 63 {
			col.present = append(col.present, ^uint64(0))
			col.Values = append(col.Values, vals[word[0]:word[63]+1]...)
		} else {
			var bits uint64
			for j, k := range word {
				if k >= 0 {
					bits |= 1 << j
					col.Values = append(col.Values, vals[k])
				}
			}
			col.present = append(col.present, bits)
		}
		col.rows += 64
	}
	for ; r < len(at); r++ {
		col.addAt(vals, at[r])
	}
}

// addIDRows appends the id columns' rows from the keys the decoding
// goroutine computed.
func (c *Columns) addIDRows(n int, set *columnsSet, at *[columnsCount][]int32, opts *ColumnsOptions) {
	chunks, ids := &set.chunks, &set.ids
	str := func(k, r int) string {
		if i := at[k][r]; i >= 0 {
			return chunks[k].str(int(i))
		}
		return ""
	}
	src := at[colFirstDict8]
	for r := range n {
		c.TraceID.add(ids.trace[r], ids.traceOK[r])
		c.IDKeys.add(ids.keys[ids.bounds[r]:ids.bounds[r+1]]...)
		source := c.Source.Values[chunks[colFirstDict8].codes[src[r]]]
		c.addIDText(source, str(colTraceID, r), str(colRequestID, r), str(colResponseID, r), opts)
	}
}

// columnsIDs are one row group's trace ids and id keys, computed by the
// decoding goroutine.
type columnsIDs struct {
	trace   []ColumnsID
	traceOK []bool
	keys    []ColumnsID
	bounds  []int32 // row r's keys are keys[bounds[r]:bounds[r+1]]
}

// compute fills ids from the decoded id columns of n rows.
func (ids *columnsIDs) compute(chunks *[columnsCount]columnsChunk, n int, opts *ColumnsOptions) error {
	var at [4][]int32
	for j, k := range []int{colTraceID, colRequestID, colResponseID, colOtherIDs} {
		var err error
		if at[j], err = chunks[k].rowIndex(n, k == colOtherIDs); err != nil {
			return fmt.Errorf("column %s: %w", columnsNeeded[k][0], err)
		}
		chunks[k].at = at[j]
	}
	str := func(k int, i int32) string {
		if i < 0 {
			return ""
		}
		return chunks[k].str(int(i))
	}
	ids.trace, ids.traceOK, ids.keys = ids.trace[:0], ids.traceOK[:0], ids.keys[:0]
	ids.bounds = append(ids.bounds[:0], 0)
	var others []string
	for r := range n {
		trace := str(colTraceID, at[0][r])
		ids.trace, ids.traceOK = append(ids.trace, ColumnsIDOf(trace)), append(ids.traceOK, trace != "")
		others = others[:0]
		for j := at[3][r]; j < at[3][r+1]; j++ {
			others = append(others, chunks[colOtherIDs].str(int(j)))
		}
		ids.keys = appendIDKeys(ids.keys, str(colRequestID, at[1][r]), str(colResponseID, at[2][r]), others, opts)
		ids.bounds = append(ids.bounds, int32(len(ids.keys)))
	}
	return nil
}
