package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"

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
	if err := c.readFiles(files, &opts); err != nil {
		return nil, err
	}
	return c, nil
}

// withFile opens a Parquet file of the dataset's schema version and calls
// fn with it.
func withFile(path string, fn func(pf *parquet.File) error) error {
	f, pf, err := openColumnsFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return recovered(path, func() error { return fn(pf) })
}

// openColumnsFile opens a Parquet file of the dataset's schema version.
func openColumnsFile(path string) (f *os.File, pf *parquet.File, err error) {
	f, err = os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	err = recovered(path, func() error {
		info, err := f.Stat()
		if err != nil {
			return err
		}
		if pf, err = parquet.OpenFile(f, info.Size()); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if v, ok := pf.Lookup(schema.MetadataVersionKey); !ok || v != strconv.Itoa(schema.Version) {
			if !ok {
				v = "none"
			}
			return fmt.Errorf("%s: schema version %s is not supported (this ttftrace reads version %d)", path, v, schema.Version)
		}
		return nil
	})
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, pf, nil
}

// recovered calls fn; parquet-go panics on some malformed files, and such a
// panic becomes an error naming path.
func recovered(path string, fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: unreadable parquet: %v", path, p)
		}
	}()
	return fn()
}

// rowGroupJob is one step of readFiles, in file order: a row group to
// decode and append, the end of a file without row groups, a file read row
// by row, or the error opening a file.
type rowGroupJob struct {
	path   string
	f      *os.File
	pf     *parquet.File
	leaves []int // nil: read pf row by row
	rg     parquet.RowGroup
	index  int  // of rg in its file
	last   bool // the file's last step: close it after
	set    int  // the columnsSet rg is decoded into
	ready  chan struct{}
	err    error // decoding rg, set before ready closes
	open   error // opening the file: the step holds nothing else
}

// readFiles appends the rows of files, in order.
//
// Decoders, one per core, decode the columns kept as numbers and ids of
// the next row groups (most of the pages) and compute their id keys, each
// into its own columnsSet, running on across the ends of files (a
// dataset's part files hold one or two row groups each); this goroutine
// takes the row groups in order, decodes their dictionary-coded columns
// (they add to c's dictionaries) and appends them. Every row group in
// flight holds a columnsSet: one more than the decoders.
func (c *Columns) readFiles(files []string, opts *ColumnsOptions) (err error) {
	decoders := runtime.GOMAXPROCS(0)
	sets := make([]columnsSet, decoders+1)
	free := make(chan int, len(sets))
	for k := range sets {
		free <- k
	}
	work, order, done := make(chan *rowGroupJob, len(sets)), make(chan *rowGroupJob, len(sets)), make(chan struct{})
	var opened []*os.File // by the producer; closed here after the last step, or all on return
	var wg sync.WaitGroup
	for range decoders {
		wg.Go(func() {
			for j := range work {
				j.err = sets[j.set].decode(j.rg, j.leaves, opts)
				close(j.ready)
			}
		})
	}
	wg.Go(func() {
		defer close(work)
		defer close(order)
		send := func(ch chan *rowGroupJob, j *rowGroupJob) bool {
			select {
			case ch <- j:
				return true
			case <-done:
				return false
			}
		}
		for _, path := range files {
			f, pf, err := openColumnsFile(path)
			if err != nil {
				send(order, &rowGroupJob{open: err})
				return
			}
			opened = append(opened, f)
			leaves, ok := columnsLeaves(pf.Schema())
			rgs := pf.RowGroups()
			if !ok || len(rgs) == 0 {
				if !send(order, &rowGroupJob{path: path, f: f, pf: pf, last: true}) {
					return
				}
				continue
			}
			for i, rg := range rgs {
				j := &rowGroupJob{path: path, f: f, pf: pf, leaves: leaves, rg: rg, index: i, last: i == len(rgs)-1,
					ready: make(chan struct{})}
				select {
				case j.set = <-free:
				case <-done:
					return
				}
				if !send(work, j) || !send(order, j) {
					return
				}
			}
		}
	})
	defer func() {
		close(done)
		for range order { // unblock the producer
		}
		wg.Wait()
		for _, f := range opened {
			f.Close() // those closed already say so; nothing is lost
		}
	}()
	for j := range order {
		if j.open != nil {
			return j.open
		}
		if err := c.readStep(j, sets, opts); err != nil {
			return err
		}
		if j.rg != nil {
			free <- j.set
		}
		if j.last {
			j.f.Close()
		}
	}
	return nil
}

// readStep appends the rows of one step of readFiles.
func (c *Columns) readStep(j *rowGroupJob, sets []columnsSet, opts *ColumnsOptions) error {
	if j.rg == nil {
		if j.leaves != nil {
			return nil // a file without row groups
		}
		return recovered(j.path, func() error { return c.readRows(j.pf, j.path, opts) })
	}
	<-j.ready
	if j.err != nil {
		return fmt.Errorf("%s: row group %d: %w", j.path, j.index, j.err)
	}
	set := &sets[j.set]
	return recovered(j.path, func() error {
		cc := j.rg.ColumnChunks()
		for k, leaf := range j.leaves {
			if columnsCoded(k) && !columnsSkipped(k, opts) {
				if err := set.chunks[k].read(cc[leaf], c, k); err != nil {
					return fmt.Errorf("%s: row group %d: column %s: %w", j.path, j.index, columnsNeeded[k][0], err)
				}
			}
		}
		if err := c.addRowGroup(int(j.rg.NumRows()), set, opts); err != nil {
			return fmt.Errorf("%s: row group %d: %w", j.path, j.index, err)
		}
		if err := c.streamLists(cc, j.leaves, int(j.rg.NumRows())); err != nil {
			return fmt.Errorf("%s: row group %d: %w", j.path, j.index, err)
		}
		return nil
	})
}

// streamLists appends the row group's chunk lists (columnsStreamed).
// n rows were already added to the other columns.
func (c *Columns) streamLists(cc []parquet.ColumnChunk, leaves []int, n int) error {
	first := c.Rows - n
	if err := streamList(cc[leaves[colChunkOffsets]], &c.ChunkOffsetsNs.staged, n, func(v encoding.Values) []int64 { return v.Int64() },
		func(_, start int) { c.ChunkOffsetsNs.finishStaged(start) }); err != nil {
		return fmt.Errorf("column chunk_offsets_ns: %w", err)
	}
	if err := streamList(cc[leaves[colChunkTokens]], &c.ChunkTokens, n, func(v encoding.Values) []int32 { return v.Int32() },
		func(r, start int) { c.finishTokens(first+r, start) }); err != nil {
		return fmt.Errorf("column chunk_tokens: %w", err)
	}
	return nil
}

// columnsSet is one row group's decoded columns and id keys.
type columnsSet struct {
	chunks [columnsCount]columnsChunk
	ids    columnsIDs
}

// decode decodes rg's uncoded columns and computes its id keys. A panic
// of parquet-go on a malformed page becomes an error.
func (s *columnsSet) decode(rg parquet.RowGroup, leaves []int, opts *ColumnsOptions) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("unreadable parquet: %v", p)
		}
	}()
	cc := rg.ColumnChunks()
	n := int(rg.NumRows())
	for k, leaf := range leaves {
		if !columnsCoded(k) && !columnsSkipped(k, opts) && !columnsStreamed(k) {
			if err := s.chunks[k].read(cc[leaf], nil, k); err != nil {
				return fmt.Errorf("column %s: %w", columnsNeeded[k][0], err)
			}
			if k < colTraceID { // the id columns are indexed by compute
				if err := s.chunks[k].index(n, k); err != nil {
					return err
				}
			}
		}
	}
	return s.ids.compute(&s.chunks, n, opts)
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
	c.ChunkOffsetsNs.reserve(words, s.rows, s.present[colChunkOffsets])
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
