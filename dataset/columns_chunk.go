package dataset

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// columnsChunk is one column chunk of a row group as decoded: its levels
// and present values, reused from one row group to the next. String
// columns kept as dictionary codes hold codes; other byte-array columns
// hold their bytes back to back, value k being bytes[offs[k]:offs[k+1]].
type columnsChunk struct {
	rep, def []byte // nil when the column has no such levels
	levels   int
	codes    []uint32
	pageNumbers
	bytes []byte
	offs  []int
	words map[parquet.Dictionary][]uint32 // dictionary index → code
	at    []int32                         // rowIndex's result, reused
}

// read decodes every page of cc; k is the column's index in columnsNeeded,
// which says how its strings are coded into c.
func (ch *columnsChunk) read(cc parquet.ColumnChunk, c *Columns, k int) error {
	ch.rep, ch.def, ch.levels = ch.rep[:0], ch.def[:0], 0
	ch.i64, ch.i32, ch.codes, ch.bools = ch.i64[:0], ch.i32[:0], ch.codes[:0], ch.bools[:0]
	ch.bytes, ch.offs = ch.bytes[:0], append(ch.offs[:0], 0)
	clear(ch.words)
	pages := cc.Pages()
	defer pages.Close()
	for {
		pg, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		err = ch.addPage(pg, c, k)
		parquet.Release(pg)
		if err != nil {
			return err
		}
	}
}

// addPage appends one page's levels and values.
func (ch *columnsChunk) addPage(pg parquet.Page, c *Columns, k int) error {
	n := int(pg.NumValues())
	rep, def := pg.RepetitionLevels(), pg.DefinitionLevels()
	if (len(rep) != 0 && len(rep) != n) || (len(def) != 0 && len(def) != n) {
		return errColumnsLayout
	}
	ch.rep, ch.def = append(ch.rep, rep...), append(ch.def, def...)
	if (len(ch.rep) != 0 && len(ch.rep) != ch.levels+n) || (len(ch.def) != 0 && len(ch.def) != ch.levels+n) {
		return errColumnsLayout // a page without levels in a column that has them
	}
	ch.levels += n
	data := pg.Data()
	if d := pg.Dictionary(); d != nil {
		return ch.addIndexed(data.Int32(), d, c, k, n-int(pg.NumNulls()))
	}
	if pg.Type().Kind() == parquet.ByteArray {
		b, off := data.ByteArray()
		return ch.addStrings(b, off, c, k)
	}
	if ok, err := ch.addNumbers(pg, data); ok || err != nil {
		return err
	}
	return errColumnsLayout
}

// addStrings appends byte-array values: as codes for the dictionary and
// attribute columns, else as bytes.
func (ch *columnsChunk) addStrings(b []byte, off []uint32, c *Columns, k int) error {
	for i := 0; i+1 < len(off); i++ {
		v := b[off[i]:off[i+1]]
		if !columnsCoded(k) {
			ch.bytes = append(ch.bytes, v...)
			ch.offs = append(ch.offs, len(ch.bytes))
			continue
		}
		code, err := c.codeOf(k, unsafe.String(unsafe.SliceData(v), len(v)))
		if err != nil {
			return err
		}
		ch.codes = append(ch.codes, code)
	}
	return nil
}

// columnsCoded reports whether column k is kept as codes.
func columnsCoded(k int) bool { return k < colStatus || k == colAttrKey || k == colAttrValue }

// codeOf returns the code of s in column k's dictionary (the attribute
// strings for attrs), adding it. s may point into a page: a new entry is
// copied.
func (c *Columns) codeOf(k int, s string) (uint32, error) {
	switch {
	case k < colFirstDict32:
		d := c.dict8(k)
		if code, ok := d.index[s]; ok {
			return uint32(code), nil
		}
		code, err := d.code(strings.Clone(s))
		return uint32(code), err
	case k < colStatus:
		d := c.dict32(k)
		if code, ok := d.index[s]; ok {
			return code, nil
		}
		return d.code(strings.Clone(s))
	}
	if code, ok := c.attrCodes[s]; ok {
		return code, nil
	}
	return c.attr(strings.Clone(s)), nil
}

// dict8 and dict32 return the dictionary of column k.
func (c *Columns) dict8(k int) *ColumnsDict[uint8] {
	return [...]*ColumnsDict[uint8]{&c.Source, &c.Clock, &c.Format, &c.Error}[k-colFirstDict8]
}

func (c *Columns) dict32(k int) *ColumnsDict[uint32] {
	return [...]*ColumnsDict[uint32]{&c.Host, &c.Model, &c.Endpoint, &c.InputFile}[k-colFirstDict32]
}

// addIndexed appends a dictionary-encoded page's values, translating each
// Parquet dictionary to codes once.
func (ch *columnsChunk) addIndexed(idx []int32, d parquet.Dictionary, c *Columns, k int, present int) error {
	if len(idx) != present || d.Type().Kind() != parquet.ByteArray {
		return errColumnsLayout
	}
	if !columnsCoded(k) {
		dp := d.Page().Data()
		b, off := dp.ByteArray()
		for _, i := range idx {
			if i < 0 || int(i)+1 >= len(off) {
				return fmt.Errorf("dictionary index %d out of range", i)
			}
			ch.bytes = append(ch.bytes, b[off[i]:off[i+1]]...)
			ch.offs = append(ch.offs, len(ch.bytes))
		}
		return nil
	}
	words, ok := ch.words[d]
	if !ok {
		dp := d.Page().Data()
		b, off := dp.ByteArray()
		for i := 0; i+1 < len(off); i++ {
			v := b[off[i]:off[i+1]]
			code, err := c.codeOf(k, unsafe.String(unsafe.SliceData(v), len(v)))
			if err != nil {
				return err
			}
			words = append(words, code)
		}
		if ch.words == nil {
			ch.words = map[parquet.Dictionary][]uint32{}
		}
		ch.words[d] = words
	}
	for _, i := range idx {
		if i < 0 || int(i) >= len(words) {
			return fmt.Errorf("dictionary index %d out of range", i)
		}
		ch.codes = append(ch.codes, words[i])
	}
	return nil
}

// str returns byte-array value k, pointing into ch.bytes (valid until the
// next read).
func (ch *columnsChunk) str(k int) string {
	b := ch.bytes[ch.offs[k]:ch.offs[k+1]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// values returns the number of present values.
func (ch *columnsChunk) values() int {
	return len(ch.i64) + len(ch.i32) + len(ch.codes) + len(ch.bools) + len(ch.offs) - 1
}
