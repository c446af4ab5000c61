package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/ttftrace/ttftrace/schema"
)

// Reading Parquet files into Columns. Each needed column chunk of a row
// group is decoded page by page (Page.Data and the repetition and
// definition levels, no per-row reflection) into a reused columnsChunk,
// then the row group's rows are appended to the Columns column by column.
// A file laid out otherwise than schema.Event's schema is read row by row.

// columnsNeeded are the leaf columns ReadColumns reads, by path.
var columnsNeeded = [][]string{
	{"source"}, {"clock"}, {"format"}, {"error_class"}, {"host"}, {"model"}, {"endpoint"},
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
	colFirstDict32  = 4  // host, model, endpoint
	colStatus       = 7  //
	colCompleted    = 8  //
	colFirstInt64   = 9  // prompt_tokens … decode_ns
	colChunkOffsets = 19 //
	colChunkTokens  = 20 //
	colAttrKey      = 21 //
	colAttrValue    = 22 //
	colTraceID      = 23 //
	colRequestID    = 24 //
	colResponseID   = 25 //
	colOtherIDs     = 26 //
	columnsCount    = 27 // len(columnsNeeded)
)

var columnsEventSchema = parquet.SchemaOf(schema.Event{})

// errColumnsLayout reports a file whose needed columns differ from
// schema.Event's in type or levels.
var errColumnsLayout = errors.New("column layout differs from the event schema")

// ReadColumns reads the events of the given Parquet files, in order, into
// one Columns. A file whose schema version is missing or unknown is refused
// with an error naming it.
func ReadColumns(files []string, opts ColumnsOptions) (*Columns, error) {
	c := &Columns{}
	var chunks [columnsCount]columnsChunk
	for _, path := range files {
		if err := c.readFile(path, &opts, &chunks); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// readFile appends one file's rows. parquet-go panics on some malformed
// files; such a panic becomes an error naming path.
func (c *Columns) readFile(path string, opts *ColumnsOptions, chunks *[columnsCount]columnsChunk) (err error) {
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
	leaves, ok := columnsLeaves(pf.Schema())
	if !ok {
		return c.readRows(pf, path, opts)
	}
	for _, rg := range pf.RowGroups() {
		cc := rg.ColumnChunks()
		for k, leaf := range leaves {
			if err := chunks[k].read(cc[leaf], c, k); err != nil {
				return fmt.Errorf("%s: column %s: %w", path, columnsNeeded[k][0], err)
			}
		}
		if err := c.addRowGroup(int(rg.NumRows()), chunks, opts); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
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
