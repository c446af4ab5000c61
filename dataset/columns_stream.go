package dataset

import (
	"errors"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// columnsStreamed reports whether column k is appended to the Columns page
// by page rather than decoded whole first: the chunk lists, which hold
// hundreds of values per client request, so a row group's decoded chunk
// would take more memory than its rows do once appended.
func columnsStreamed(k int) bool { return k == colChunkOffsets || k == colChunkTokens }

// streamList appends the n rows of a list column chunk to l, page by page:
// repetition level 0 starts a row, definition level 1 marks an element.
// finish ends row r (counted within the chunk) whose elements start at start.
func streamList[T any](cc parquet.ColumnChunk, l *ColumnsList[T], n int, values func(encoding.Values) []T, finish func(r, start int)) error {
	pages := cc.Pages()
	defer pages.Close()
	rows, start := 0, 0
	for {
		pg, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		err = streamPage(pg, l, &rows, &start, values, finish)
		parquet.Release(pg)
		if err != nil {
			return err
		}
	}
	if rows > 0 {
		finish(rows-1, start)
	}
	if rows != n {
		return errColumnsLayout
	}
	return nil
}

// streamPage appends one page's elements, closing each row a new one starts.
func streamPage[T any](pg parquet.Page, l *ColumnsList[T], rows, start *int, values func(encoding.Values) []T, finish func(r, start int)) error {
	rep, def := pg.RepetitionLevels(), pg.DefinitionLevels()
	if len(rep) != int(pg.NumValues()) || len(def) != len(rep) || pg.Dictionary() != nil {
		return errColumnsLayout
	}
	vals := values(pg.Data())
	k := 0
	for i := range rep {
		if rep[i] == 0 {
			if *rows > 0 {
				finish(*rows-1, *start)
			}
			*rows++
			*start = len(l.Values)
		} else if *rows == 0 {
			return errColumnsLayout
		}
		if def[i] == 1 {
			if k >= len(vals) {
				return errColumnsLayout
			}
			l.Values = append(l.Values, vals[k])
			k++
		}
	}
	if k != len(vals) {
		return errColumnsLayout
	}
	return nil
}
