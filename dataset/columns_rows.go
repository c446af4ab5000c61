package dataset

import "slices"

// addRowGroup appends the n rows of a row group whose needed columns are
// decoded in chunks (in columnsNeeded order).
func (c *Columns) addRowGroup(n int, chunks *[columnsCount]columnsChunk, opts *ColumnsOptions) error {
	var at [columnsCount][]int32 // per column: each row's first value index, −1 when null
	for k := range chunks {
		if columnsSkipped(k, opts) {
			continue
		}
		var err error
		if at[k], err = chunks[k].rowIndex(n, k >= colChunkOffsets && k <= colAttrValue || k == colOtherIDs); err != nil {
			return err
		}
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
	addList(&c.ChunkOffsetsNs, chunks[colChunkOffsets].i64, at[colChunkOffsets])
	addList(&c.ChunkTokens, chunks[colChunkTokens].i32, at[colChunkTokens])
	if err := c.addAttrRows(n, chunks, at[colAttrKey], opts); err != nil {
		return err
	}
	c.addIDRows(n, chunks, &at, opts)
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
	out := make([]int32, n)
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

// listBounds returns the n+1 bounds of a list column's rows: repetition
// level 0 starts a row, definition level 1 marks a present element.
func (ch *columnsChunk) listBounds(n int) ([]int32, error) {
	if len(ch.rep) != ch.levels || len(ch.def) != ch.levels {
		return nil, errColumnsLayout
	}
	out := make([]int32, 0, n+1)
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

// addValues appends a nullable column's rows.
func addValues[T any](col *ColumnsNullable[T], vals []T, at []int32) {
	var zero T
	for _, k := range at {
		if k < 0 {
			col.add(zero, false)
		} else {
			col.add(vals[k], true)
		}
	}
}

// addList appends a list column's rows given their bounds.
func addList[T any](l *ColumnsList[T], vals []T, bounds []int32) {
	for r := 0; r+1 < len(bounds); r++ {
		l.add(vals[bounds[r]:bounds[r+1]]...)
	}
}

// addIDRows appends the id columns' rows.
func (c *Columns) addIDRows(n int, chunks *[columnsCount]columnsChunk, at *[columnsCount][]int32, opts *ColumnsOptions) {
	str := func(k, r int) string {
		if i := at[k][r]; i >= 0 {
			return chunks[k].str(int(i))
		}
		return ""
	}
	var others []string
	src := at[colFirstDict8+0]
	for r := range n {
		others = others[:0]
		for j := at[colOtherIDs][r]; j < at[colOtherIDs][r+1]; j++ {
			others = append(others, chunks[colOtherIDs].str(int(j)))
		}
		source := c.Source.Values[chunks[colFirstDict8].codes[src[r]]]
		c.addIDs(source, str(colTraceID, r), str(colRequestID, r), str(colResponseID, r), others, opts)
	}
}
