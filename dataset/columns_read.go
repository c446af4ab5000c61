package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/ttftrace/ttftrace/schema"
)

// Reading Parquet files into Columns. Each needed column chunk of a row
// group is decoded page by page (Page.Data and the repetition and
// definition levels, no per-row reflection) into a reused columnsChunk,
// then the row group's rows are appended to the Columns column by column.
// A file laid out otherwise than schema.Event's schema is read row by row.

// columnsNeeded are the leaf columns ReadColumns reads, by path.
var columnsNeeded = [][]string{
	{"source"}, {"clock"}, {"format"}, {"error_class"}, {"host"}, {"model"}, {"endpoint"}, {"input_file"},
	{"status"}, {"completed"}, {"prompt_tokens"}, {"output_tokens"},
	{"start_ns"}, {"headers_ns"}, {"first_token_ns"}, {"last_token_ns"}, {"end_ns"},
	{"queue_ns"}, {"prefill_ns"}, {"decode_ns"},
	{"chunk_offsets_ns", "list", "element"}, {"chunk_tokens", "list", "element"},
	{"attrs", "key_value", "key"}, {"attrs", "key_value", "value"},
	{"trace_id"}, {"request_id"}, {"response_id"}, {"other_ids", "list", "element"},
}

// Indices into columnsNeeded of the columns read as a group.
const (
	colFirstDict8   = 0  // source … error_class
	colFirstDict32  = 4  // host, model, endpoint, input_file
	colStatus       = 8  //
	colCompleted    = 9  //
	colFirstInt64   = 10 // prompt_tokens … decode_ns
	colChunkOffsets = 20 //
	colChunkTokens  = 21 //
	colAttrKey      = 22 //
	colAttrValue    = 23 //
	colTraceID      = 24 //
	colRequestID    = 25 //
	colResponseID   = 26 //
	colOtherIDs     = 27 //
	columnsCount    = 28 // len(columnsNeeded)
)

var columnsEventSchema = parquet.SchemaOf(schema.Event{})

// errColumnsLayout reports a file whose needed columns differ from
// schema.Event's in type or levels.
var errColumnsLayout = errors.New("column layout differs from the event schema")

// ReadColumns reads the events of the given Parquet files, in order, into
// one Columns. A file whose schema version is missing or unknown is refused
// with an error naming it.
//
// Before reading, the files' footers give every column's row and value
// counts, and each array is allocated once at its final size: growing them
// by appending would leave a trail of discarded arrays, and a heap goal
// twice the data, on the way.
func ReadColumns(files []string, opts ColumnsOptions) (*Columns, error) {
	var sizes columnsSizes
	for _, path := range files {
		if err := withFile(path, func(pf *parquet.File) error { sizes.add(pf); return nil }); err != nil {
			return nil, err
		}
	}
	c := &Columns{}
	c.reserve(&sizes, &opts)
	var sets [2]columnsSet
	for _, path := range files {
		if err := withFile(path, func(pf *parquet.File) error { return c.readFile(pf, path, &opts, &sets) }); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// withFile opens a Parquet file of the dataset's schema version and calls
// fn with it. parquet-go panics on some malformed files; such a panic
// becomes an error naming path.
func withFile(path string, fn func(pf *parquet.File) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: unreadable parquet: %v", path, p)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if v, ok := pf.Lookup(schema.MetadataVersionKey); !ok || v != strconv.Itoa(schema.Version) {
		if !ok {
			v = "none"
		}
		return fmt.Errorf("%s: schema version %s is not supported (this ttftrace reads version %d)", path, v, schema.Version)
	}
	return fn(pf)
}

// readFile appends one file's rows.
//
// Two goroutines share the work, a row group apart: one decodes the
// columns kept as numbers and ids (most of the pages) and computes the id
// keys; the other decodes the dictionary-coded columns (they add to c's
// dictionaries) and appends the row group to c. Two columnsSets alternate
// between them; row groups are appended in order.
func (c *Columns) readFile(pf *parquet.File, path string, opts *ColumnsOptions, sets *[2]columnsSet) error {
	leaves, ok := columnsLeaves(pf.Schema())
	if !ok {
		return c.readRows(pf, path, opts)
	}
	rgs := pf.RowGroups()
	free, ready, done := make(chan int, 2), make(chan decodedSet, 2), make(chan struct{})
	defer close(done)
	free <- 0
	free <- 1
	go decodeRowGroups(rgs, leaves, opts, sets, free, ready, done)
	for i, rg := range rgs {
		d := <-ready
		if d.err != nil {
			return fmt.Errorf("%s: %w", path, d.err)
		}
		set := &sets[d.set]
		cc := rg.ColumnChunks()
		for k, leaf := range leaves {
			if columnsCoded(k) && !columnsSkipped(k, opts) {
				if err := set.chunks[k].read(cc[leaf], c, k); err != nil {
					return fmt.Errorf("%s: row group %d: column %s: %w", path, i, columnsNeeded[k][0], err)
				}
			}
		}
		if err := c.addRowGroup(int(rg.NumRows()), set, opts); err != nil {
			return fmt.Errorf("%s: row group %d: %w", path, i, err)
		}
		if err := c.streamLists(cc, leaves, int(rg.NumRows())); err != nil {
			return fmt.Errorf("%s: row group %d: %w", path, i, err)
		}
		free <- d.set
	}
	return nil
}

// streamLists appends the row group's chunk lists (columnsStreamed).
// n rows were already added to the other columns.
func (c *Columns) streamLists(cc []parquet.ColumnChunk, leaves []int, n int) error {
	first := c.Rows - n
	if err := streamList(cc[leaves[colChunkOffsets]], &c.ChunkOffsetsNs, n, func(v encoding.Values) []int64 { return v.Int64() },
		func(_, start int) { c.ChunkOffsetsNs.addRow(start) }); err != nil {
		return fmt.Errorf("column chunk_offsets_ns: %w", err)
	}
	if err := streamList(cc[leaves[colChunkTokens]], &c.ChunkTokens, n, func(v encoding.Values) []int32 { return v.Int32() },
		func(r, start int) { c.finishTokens(first+r, start) }); err != nil {
		return fmt.Errorf("column chunk_tokens: %w", err)
	}
	return nil
}

// decodedSet says which columnsSet holds the next row group, or why it
// could not be decoded.
type decodedSet struct {
	set int
	err error
}

// decodeRowGroups decodes the uncoded columns of every row group and its id
// keys into the set free hands out, and hands it on in ready, in order,
// until done is closed. A panic of parquet-go on a malformed page becomes an
// error.
func decodeRowGroups(rgs []parquet.RowGroup, leaves []int, opts *ColumnsOptions, sets *[2]columnsSet,
	free chan int, ready chan decodedSet, done chan struct{}) {
	for _, rg := range rgs {
		var set int
		select {
		case set = <-free:
		case <-done:
			return
		}
		err := sets[set].decode(rg, leaves, opts)
		select {
		case ready <- decodedSet{set, err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// columnsSet is one row group's decoded columns and id keys.
type columnsSet struct {
	chunks [columnsCount]columnsChunk
	ids    columnsIDs
}

// decode decodes rg's uncoded columns and computes its id keys.
func (s *columnsSet) decode(rg parquet.RowGroup, leaves []int, opts *ColumnsOptions) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("unreadable parquet: %v", p)
		}
	}()
	cc := rg.ColumnChunks()
	for k, leaf := range leaves {
		if !columnsCoded(k) && !columnsSkipped(k, opts) && !columnsStreamed(k) {
			if err := s.chunks[k].read(cc[leaf], nil, k); err != nil {
				return fmt.Errorf("column %s: %w", columnsNeeded[k][0], err)
			}
		}
	}
	return s.ids.compute(&s.chunks, int(rg.NumRows()), opts)
}

// columnsLeaves returns the leaf index of each needed column in s, and false
// when one is missing or laid out otherwise than in schema.Event's schema.
func columnsLeaves(s *parquet.Schema) ([]int, bool) {
	leaves := make([]int, len(columnsNeeded))
	for k, path := range columnsNeeded {
		a, ok := s.Lookup(path...)
		b, _ := columnsEventSchema.Lookup(path...)
		if !ok || a.MaxRepetitionLevel != b.MaxRepetitionLevel || a.MaxDefinitionLevel != b.MaxDefinitionLevel ||
			a.Node.Type().Kind() != b.Node.Type().Kind() {
			return nil, false
		}
		leaves[k] = a.ColumnIndex
	}
	return leaves, true
}

// readRows appends the rows of pf through parquet-go's row reader.
func (c *Columns) readRows(pf *parquet.File, path string, opts *ColumnsOptions) error {
	r := parquet.NewGenericReader[schema.Event](pf)
	defer r.Close()
	batch := make([]schema.Event, 1024)
	for {
		clear(batch)
		n, err := r.Read(batch)
		for i := range batch[:n] {
			if err := c.addEvent(&batch[i], opts); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

// columnsSizes are the row count and, per needed column, the number of
// present values, summed over files (an upper bound where a file's footer
// gives no null count).
type columnsSizes struct {
	rows    int
	present [columnsCount]int
}

// add adds the counts of pf's footer.
func (s *columnsSizes) add(pf *parquet.File) {
	s.rows += int(pf.NumRows())
	leaves, ok := columnsLeaves(pf.Schema())
	for _, rg := range pf.RowGroups() {
		cc := rg.ColumnChunks()
		for k := range s.present {
			if !ok {
				continue // read by the row route: not reserved
			}
			n := int(rg.NumRows())
			if fc, isFile := cc[leaves[k]].(*parquet.FileColumnChunk); isFile {
				n = int(fc.NumValues() - fc.NullCount())
			}
			s.present[k] += max(n, 0)
		}
	}
}

// reserve allocates c's arrays at the sizes s gives.
func (c *Columns) reserve(s *columnsSizes, opts *ColumnsOptions) {
	words := s.rows/64 + 1
	for k := colFirstDict8; k < colFirstDict32; k++ {
		c.dict8(k).Codes = make([]uint8, 0, s.rows)
	}
	for k := colFirstDict32; k < colStatus; k++ {
		c.dict32(k).Codes = make([]uint32, 0, s.rows)
	}
	reserveNullable(&c.Status, words, s.present[colStatus])
	c.Completed.valid, c.Completed.value = make([]uint64, 0, words), make([]uint64, 0, words)
	for k, col := range c.int64Columns() {
		reserveNullable(col, words, s.present[colFirstInt64+k])
	}
	reserveList(&c.ChunkOffsetsNs, words, s.rows, s.present[colChunkOffsets])
	reserveList(&c.ChunkTokens, words, s.rows, s.present[colChunkTokens])
	reserveNullable(&c.TraceID, words, s.present[colTraceID])
	ids := 0
	if opts.IDKey != nil {
		ids = s.present[colRequestID] + s.present[colResponseID] + s.present[colOtherIDs]
	}
	reserveList(&c.IDKeys, words, s.rows, ids)
	if len(opts.Attrs) == 0 {
		reserveList(&c.Attrs, words, 0, 0)
	}
}

func reserveNullable[T any](col *ColumnsNullable[T], words, present int) {
	col.present, col.rank = make([]uint64, 0, words), make([]int, 0, words)
	col.Values = make([]T, 0, present)
}

func reserveList[T any](l *ColumnsList[T], words, rows, elements int) {
	reserveNullable(&l.rows, words, min(rows, elements))
	l.Values = make([]T, 0, elements)
}

// int64Columns are the nullable int64 columns, in columnsNeeded order.
func (c *Columns) int64Columns() []*ColumnsNullable[int64] {
	return []*ColumnsNullable[int64]{&c.PromptTokens, &c.OutputTokens,
		&c.StartNs, &c.HeadersNs, &c.FirstTokenNs, &c.LastTokenNs, &c.EndNs, &c.QueueNs, &c.PrefillNs, &c.DecodeNs}
}
