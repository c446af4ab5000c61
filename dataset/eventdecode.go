package dataset

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/ttftrace/ttftrace/schema"
)

// Reading a file column by column. parquet-go's GenericReader rebuilds every
// row through reflection (about 0.6M rows/s here, most of `ttftrace
// analyze`'s time); the pages themselves decode at hundreds of millions of
// values per second. decodeEvents takes each page's decoded values and its
// repetition and definition levels (Page.Data, RepetitionLevels,
// DefinitionLevels) and fills the Events directly: 0.18 s of CPU instead of
// 0.87 s for the 20k-request benchmark dataset. It handles exactly the
// layout Event's schema gives; a file laid out otherwise returns errEventLayout
// and is read row by row.

// errEventLayout reports a file whose columns are not laid out as Event's schema
// lays them out.
var errEventLayout = errors.New("column layout differs from the event schema")

// decodeSchema is Event's Parquet schema and its leaf columns.
var (
	decodeSchema = parquet.SchemaOf(schema.Event{})
	decodeLeaves = decodeSchema.Columns()
)

// sameEventLayout reports whether the file's leaf columns are Event's, in order,
// with the same physical types and levels.
func sameEventLayout(s *parquet.Schema) bool {
	cols := s.Columns()
	if len(cols) != len(decodeLeaves) {
		return false
	}
	for i, path := range decodeLeaves {
		if !slices.Equal(cols[i], path) {
			return false
		}
		a, _ := s.Lookup(path...)
		b, _ := decodeSchema.Lookup(path...)
		if a.MaxRepetitionLevel != b.MaxRepetitionLevel || a.MaxDefinitionLevel != b.MaxDefinitionLevel ||
			a.Node.Type().Kind() != b.Node.Type().Kind() {
			return false
		}
	}
	return true
}

// decodeEvents appends the events of pf to events, column by column.
func decodeEvents(pf *parquet.File, events []schema.Event) ([]schema.Event, error) {
	if !sameEventLayout(pf.Schema()) {
		return events, errEventLayout
	}
	for _, rg := range pf.RowGroups() {
		base := len(events)
		events = slices.Grow(events, int(rg.NumRows()))[:base+int(rg.NumRows())]
		cols := make([]*eventColumn, len(decodeLeaves))
		for c, cc := range rg.ColumnChunks() {
			col, err := readEventColumn(cc)
			if err != nil {
				return events[:base], fmt.Errorf("column %s: %w", decodeLeaves[c][0], err)
			}
			cols[c] = col
		}
		if err := fillEvents(events[base:], cols); err != nil {
			return events[:base], err
		}
	}
	return events, nil
}

// column is one column chunk's levels and present values, concatenated
// over its pages. Only the value slice of the column's kind is set; strings
// are copied out of the pages (dictionary values once per dictionary).
type eventColumn struct {
	rep, def []byte // nil when the column has no such levels
	levels   int    // number of levels (present and absent values)
	str      []string
	pageNumbers
}

// readEventColumn decodes every page of cc.
func readEventColumn(cc parquet.ColumnChunk) (*eventColumn, error) {
	pages := cc.Pages()
	defer pages.Close()
	col := &eventColumn{}
	dicts := map[parquet.Dictionary][]string{}
	for {
		pg, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return col, nil
		}
		if err != nil {
			return nil, err
		}
		err = col.addPage(pg, dicts)
		parquet.Release(pg)
		if err != nil {
			return nil, err
		}
	}
}

// addPage appends one page's levels and values to col.
func (col *eventColumn) addPage(pg parquet.Page, dicts map[parquet.Dictionary][]string) error {
	n := int(pg.NumValues())
	rep, def := pg.RepetitionLevels(), pg.DefinitionLevels()
	if (len(rep) != 0 && len(rep) != n) || (len(def) != 0 && len(def) != n) {
		return errEventLayout
	}
	if len(rep) > 0 {
		col.rep = append(padEventLevels(col.rep, col.levels), rep...)
	}
	if len(def) > 0 {
		col.def = append(padEventLevels(col.def, col.levels), def...)
	}
	col.levels += n
	present := n - int(pg.NumNulls())
	data := pg.Data()
	if d := pg.Dictionary(); d != nil {
		return col.addIndexed(data.Int32(), d, dicts, present)
	}
	if pg.Type().Kind() == parquet.ByteArray {
		col.str = appendEventStrings(col.str, data)
		return nil
	}
	if ok, err := col.addNumbers(pg, data); ok || err != nil {
		return err
	}
	return errEventLayout
}

// padEventLevels pads levels with zeros to n entries: a page without levels of
// a column that has them elsewhere (never written by parquet-go, but legal).
func padEventLevels(levels []byte, n int) []byte {
	for len(levels) < n {
		levels = append(levels, 0)
	}
	return levels
}

// addIndexed appends a dictionary-encoded page's strings.
func (col *eventColumn) addIndexed(idx []int32, d parquet.Dictionary, dicts map[parquet.Dictionary][]string, present int) error {
	words, ok := dicts[d]
	if !ok {
		dp := d.Page()
		if dp.Type().Kind() != parquet.ByteArray {
			return errEventLayout
		}
		words = appendEventStrings(nil, dp.Data())
		dicts[d] = words
	}
	if len(idx) != present {
		return errEventLayout
	}
	for _, i := range idx {
		if i < 0 || int(i) >= len(words) {
			return fmt.Errorf("dictionary index %d out of range", i)
		}
		col.str = append(col.str, words[i])
	}
	return nil
}

// appendEventStrings appends the byte-array values of data as strings sharing
// one copy of the page's bytes.
func appendEventStrings(dst []string, data encoding.Values) []string {
	b, off := data.ByteArray()
	if len(off) == 0 {
		return dst
	}
	all := string(b)
	for i := 0; i+1 < len(off); i++ {
		dst = append(dst, all[off[i]:off[i+1]])
	}
	return dst
}

// pageNumbers are the numbers and booleans a column decoder appends from
// its pages: the event decoder and the column reader share them.
type pageNumbers struct {
	i64   []int64
	i32   []int32
	bools []bool
}

// addNumbers appends the present values of a page of int64, int32 or
// booleans (data is its Data), and reports false for a page of another type.
func (p *pageNumbers) addNumbers(pg parquet.Page, data encoding.Values) (bool, error) {
	switch pg.Type().Kind() {
	case parquet.Int64:
		p.i64 = append(p.i64, data.Int64()...)
	case parquet.Int32:
		p.i32 = append(p.i32, data.Int32()...)
	case parquet.Boolean:
		var err error
		p.bools, err = appendBooleans(p.bools, pg, data)
		return true, err
	default:
		return false, nil
	}
	return true, nil
}

// appendBooleans appends a boolean page's present values to dst, from its
// data (pg.Data(): the present values, bit-packed, least significant bit
// first). Reading them as parquet.Values took a 24-byte value per row.
func appendBooleans(dst []bool, pg parquet.Page, data encoding.Values) ([]bool, error) {
	n, bits := int(pg.NumValues()-pg.NumNulls()), data.Boolean()
	if n < 0 || len(bits) < (n+7)/8 {
		return dst, fmt.Errorf("boolean page of %d values holds %d bytes", n, len(bits))
	}
	for i := range n {
		dst = append(dst, bits[i>>3]>>(i&7)&1 != 0)
	}
	return dst, nil
}
