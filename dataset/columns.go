package dataset

import (
	"fmt"
	"math/bits"
	"slices"
)

// Columns holds a dataset's events as a struct of arrays: row i of every
// column is event i, in the order the files were given. It keeps only the
// columns analysis reads, in pointer-free arrays (the garbage collector
// never scans them): strings as dictionary codes, nullable numbers as a
// presence bitmap plus their present values, lists as one flat array with
// bounds, ids as 128-bit values. A proxy or server event takes about 100
// bytes; a client event adds 12 bytes per chunk.
type Columns struct {
	Rows int

	Source, Clock, Format, Error ColumnsDict[uint8]
	Host, Model, Endpoint        ColumnsDict[uint32]
	InputFile                    ColumnsDict[uint32] // path of the input as given

	Status                     ColumnsNullable[int32]
	Completed                  ColumnsBools
	PromptTokens, OutputTokens ColumnsNullable[int64]

	// Instants and phases, nanoseconds on the event's host clock.
	StartNs, HeadersNs, FirstTokenNs, LastTokenNs, EndNs ColumnsNullable[int64]
	QueueNs, PrefillNs, DecodeNs                         ColumnsNullable[int64]

	ChunkOffsetsNs ColumnsOffsets // nanoseconds after StartNs
	// ChunkTokens holds the chunks' token counts, except for rows with one
	// count per chunk, every one 1 (most streams): those keep a bit in
	// unitTokens instead, and ChunkTokensAt gives their ones.
	ChunkTokens ColumnsList[int32]
	unitTokens  []uint64
	ones        []int32

	// Attrs are the attributes ColumnsOptions.Attrs names, as (key, value)
	// codes into AttrStrings.
	Attrs       ColumnsList[ColumnsAttr]
	AttrStrings []string
	attrKeys    []uint64 // bit per AttrStrings code: a key of some row (read only when Attrs are)

	// TraceID is the W3C trace id as a ColumnsID; IDKeys are the distinct
	// join keys of the request id, response id and other ids, in that
	// order, as ColumnsOptions.IDKey gives them.
	TraceID ColumnsNullable[ColumnsID]
	IDKeys  ColumnsList[ColumnsID]

	// TraceText, RequestText and ResponseText keep the ids as text for the
	// rows of the sources ColumnsOptions.TextSources names; empty elsewhere.
	TraceText, RequestText, ResponseText ColumnsList[byte]

	attrCodes map[string]uint32
}

// ColumnsAttr is one attribute: key and value as codes into
// Columns.AttrStrings.
type ColumnsAttr struct{ Key, Value uint32 }

// ColumnsOptions say what ReadColumns and ColumnsOf keep beyond the
// figures' columns.
type ColumnsOptions struct {
	// IDKey returns the join key of a request, response or other id as a
	// ColumnsID, and false for none (analysis normalizes known id forms).
	// Nil keeps no id keys.
	IDKey func(id string) (ColumnsID, bool)
	// TextSources lists the sources whose ids are also kept as text.
	TextSources []string
	// Attrs lists the attribute keys kept; nil keeps no attribute.
	Attrs []string
}

// ColumnsDict is a string column as one code per row into Values; code 0
// is always "".
type ColumnsDict[C uint8 | uint32] struct {
	Codes  []C
	Values []string
	index  map[string]C
}

// At returns row i's string.
func (d *ColumnsDict[C]) At(i int) string { return d.Values[d.Codes[i]] }

// code returns the code of s, adding it to the dictionary.
func (d *ColumnsDict[C]) code(s string) (C, error) {
	if d.index == nil {
		d.index = map[string]C{"": 0}
		d.Values = []string{""}
	}
	if c, ok := d.index[s]; ok {
		return c, nil
	}
	c := C(len(d.Values))
	if int(c) != len(d.Values) {
		return 0, fmt.Errorf("more than %d distinct values", len(d.Values))
	}
	d.index[s] = c
	d.Values = append(d.Values, s)
	return c, nil
}

// add appends s to the column.
func (d *ColumnsDict[C]) add(s string) error {
	c, err := d.code(s)
	d.Codes = append(d.Codes, c)
	return err
}

// ColumnsNullable is a nullable column: a bit per row says whether the row
// has a value, and only present values are stored, so an absent value costs
// one bit and a little over one more for the rank index.
type ColumnsNullable[T any] struct {
	present []uint64
	rank    []int // present values before each word of present
	Values  []T   // the present values, in row order
	rows    int
}

// Get returns row i's value, and false when it is null.
func (c *ColumnsNullable[T]) Get(i int) (T, bool) {
	w := c.present[i>>6]
	bit := uint64(1) << (i & 63)
	if w&bit == 0 {
		var zero T
		return zero, false
	}
	return c.Values[c.rank[i>>6]+bits.OnesCount64(w&(bit-1))], true
}

// Has reports whether row i has a value.
func (c *ColumnsNullable[T]) Has(i int) bool { return c.present[i>>6]&(1<<(i&63)) != 0 }

// add appends one row.
func (c *ColumnsNullable[T]) add(v T, ok bool) {
	if c.rows&63 == 0 {
		c.present = append(c.present, 0)
		c.rank = append(c.rank, len(c.Values))
	}
	if ok {
		c.present[c.rows>>6] |= 1 << (c.rows & 63)
		c.Values = append(c.Values, v)
	}
	c.rows++
}

// addAt appends one row: vals[k], or null when k < 0.
func (c *ColumnsNullable[T]) addAt(vals []T, k int32) {
	if k < 0 {
		var zero T
		c.add(zero, false)
	} else {
		c.add(vals[k], true)
	}
}

// ColumnsBools is a nullable boolean column as two bitmaps.
type ColumnsBools struct {
	valid, value []uint64
	rows         int
}

// Get returns row i's value, and false when it is null.
func (b *ColumnsBools) Get(i int) (bool, bool) {
	bit := uint64(1) << (i & 63)
	return b.value[i>>6]&bit != 0, b.valid[i>>6]&bit != 0
}

func (b *ColumnsBools) add(v, ok bool) {
	if b.rows&63 == 0 {
		b.valid, b.value = append(b.valid, 0), append(b.value, 0)
	}
	bit := uint64(1) << (b.rows & 63)
	if ok {
		b.valid[b.rows>>6] |= bit
		if v {
			b.value[b.rows>>6] |= bit
		}
	}
	b.rows++
}

// ColumnsList is a list column: the elements of every row back to back in
// Values; a row with an empty list costs a bit and a little over one more.
type ColumnsList[T any] struct {
	rows   ColumnsNullable[int64] // start in Values of each non-empty row
	Values []T
}

// At returns row i's elements, a window of Values (empty for none).
func (l *ColumnsList[T]) At(i int) []T {
	k, ok := l.index(i)
	if !ok {
		return nil
	}
	return l.at(k)
}

// add appends one row whose elements are vs.
func (l *ColumnsList[T]) add(vs ...T) {
	l.rows.add(int64(len(l.Values)), len(vs) > 0)
	l.Values = append(l.Values, vs...)
}

// addRow appends one row whose elements were already appended to Values
// from position start on.
func (l *ColumnsList[T]) addRow(start int) {
	l.rows.add(int64(start), len(l.Values) > start)
}

// attr returns the code of an attribute string.
func (c *Columns) attr(s string) uint32 {
	if c.attrCodes == nil {
		c.attrCodes = map[string]uint32{}
	}
	k, ok := c.attrCodes[s]
	if !ok {
		k = uint32(len(c.AttrStrings))
		c.attrCodes[s] = k
		c.AttrStrings = append(c.AttrStrings, s)
	}
	return k
}

// ChunkTokensAt returns row i's chunk token counts, empty when unknown.
func (c *Columns) ChunkTokensAt(i int) []int32 {
	if i>>6 < len(c.unitTokens) && c.unitTokens[i>>6]&(1<<(i&63)) != 0 {
		return c.ones[:c.ChunkOffsetsNs.Len(i)]
	}
	return c.ChunkTokens.At(i)
}

// finishTokens ends row r of ChunkTokens, whose values start at start:
// one count per chunk, all 1, becomes a unitTokens bit.
func (c *Columns) finishTokens(r, start int) {
	vals := c.ChunkTokens.Values[start:]
	unit := len(vals) > 0 && len(vals) == c.ChunkOffsetsNs.Len(r)
	for _, v := range vals {
		unit = unit && v == 1
	}
	if unit {
		c.ChunkTokens.Values = c.ChunkTokens.Values[:start]
		for len(c.unitTokens) <= r>>6 {
			c.unitTokens = append(c.unitTokens, 0)
		}
		c.unitTokens[r>>6] |= 1 << (r & 63)
		for len(c.ones) < len(vals) {
			c.ones = append(c.ones, 1)
		}
	}
	c.ChunkTokens.addRow(start)
}

// AttrOf returns row i's value of attribute key, "" when it has none.
func (c *Columns) AttrOf(i int, key string) string {
	for _, a := range c.Attrs.At(i) {
		if c.AttrStrings[a.Key] == key {
			return c.AttrStrings[a.Value]
		}
	}
	return ""
}

// markAttrKey records that attribute string code k is some row's key.
func (c *Columns) markAttrKey(k uint32) {
	for int(k>>6) >= len(c.attrKeys) {
		c.attrKeys = append(c.attrKeys, 0)
	}
	c.attrKeys[k>>6] |= 1 << (k & 63)
}

// AttrKeys returns the attribute keys of all rows, kept or not, sorted; it
// is empty when ColumnsOptions named no attribute (none were read).
func (c *Columns) AttrKeys() []string {
	var keys []string
	for w, word := range c.attrKeys {
		for ; word != 0; word &= word - 1 {
			keys = append(keys, c.AttrStrings[w<<6+bits.TrailingZeros64(word)])
		}
	}
	slices.Sort(keys)
	return keys
}

// HostsByInput returns, per input path, the hosts its rows carry, sorted:
// the hosts analysis uses, which records may name themselves (OTLP
// host.name) instead of the input's default.
func (c *Columns) HostsByInput() map[string][]string {
	seen := map[[2]uint32]bool{}
	m := map[string][]string{}
	for i := range c.Rows {
		k := [2]uint32{c.InputFile.Codes[i], c.Host.Codes[i]}
		if !seen[k] {
			seen[k] = true
			p := c.InputFile.At(i)
			m[p] = append(m[p], c.Host.At(i))
		}
	}
	for _, hs := range m {
		slices.Sort(hs)
	}
	return m
}
