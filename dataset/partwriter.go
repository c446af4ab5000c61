package dataset

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// RowGroupBytes bounds a row group by size as RowsPerRowGroup bounds it by
// rows: a part file ends its row group once the events written into it since
// the last one add up to about this many bytes of column values (see
// eventBytes). A writer holds one row group in memory, so this keeps
// streaming ingest's memory bounded however many chunks requests carry
// (16 MiB rather than 32: a third less peak memory for the 20k-request
// benchmark's run, 2 workers each holding a client row group, and the same
// dataset size).
const RowGroupBytes = 16 << 20

// StagedPart is a part file written to a temporary name beside its final
// place and not yet visible to readers (its name starts with ".").
type StagedPart struct {
	Partition string // partition folder, "source=…/date=…" (see PartitionOf)
	Temp      string // path of the temporary file
	Rows      int    // events written into it
}

// PartWriter streams events into temporary part files under a dataset
// folder, one per partition, so that ingest never holds a whole input in
// memory. Events keep their order within a partition. Close ends the files;
// CommitParts then gives them their final names.
type PartWriter struct {
	dir   string
	parts []*partFile // in the order their partitions were first seen
	byKey map[string]int
	last  partCache
}

// partFile is one open temporary part file.
type partFile struct {
	StagedPart
	f       *os.File
	w       *parquet.GenericWriter[schema.Event]
	pending int // estimated bytes written since the last row group ended
	batch   rowBatch
}

// writeBatch is the number of events a part file gathers before handing
// them to parquet-go in one call: a call per event costs parquet-go ~2 µs of
// setup (pooled bitmaps, map key sorting per call), more than the row.
const writeBatch = 256

// rowBatch holds copies of the events waiting to be written. Their slices
// and maps point into storage the batch owns and reuses once written, so the
// caller's may be reused at once and copying allocates nothing in the steady
// state. parquet-go copies every value into its column buffers.
type rowBatch struct {
	rows    []schema.Event
	offsets []int64
	tokens  []int32
	ids     []string
	attrs   []map[string]string // one per row slot, cleared and refilled
}

// add appends a copy of ev to the batch.
func (b *rowBatch) add(ev *schema.Event) {
	e := *ev
	e.ChunkOffsetsNs = AppendOwned(&b.offsets, ev.ChunkOffsetsNs)
	e.ChunkTokens = AppendOwned(&b.tokens, ev.ChunkTokens)
	e.OtherIDs = AppendOwned(&b.ids, ev.OtherIDs)
	e.Attrs = nil
	if len(ev.Attrs) > 0 {
		slot := len(b.rows) // rows before it may have had no attributes
		for len(b.attrs) <= slot {
			b.attrs = append(b.attrs, nil)
		}
		if b.attrs[slot] == nil {
			b.attrs[slot] = make(map[string]string, len(ev.Attrs))
		}
		clear(b.attrs[slot])
		maps.Copy(b.attrs[slot], ev.Attrs)
		e.Attrs = b.attrs[slot]
	}
	b.rows = append(b.rows, e)
}

// AppendOwned copies src to the end of *store and returns the copy (nil for
// an empty src); ingest's sink batches its events' lists the same way. A store that grows moves, but the copies made before keep
// the old array alive, so they stay valid.
func AppendOwned[T any](store *[]T, src []T) []T {
	if len(src) == 0 {
		return nil
	}
	n := len(*store)
	*store = append(*store, src...)
	return (*store)[n : n+len(src) : n+len(src)]
}

// reset empties the batch once it was written.
func (b *rowBatch) reset() {
	clear(b.rows) // drop references to strings of written events
	b.rows, b.offsets, b.tokens, b.ids = b.rows[:0], b.offsets[:0], b.tokens[:0], b.ids[:0]
}

// write hands rows to parquet-go in one call, and ends the row group when
// the events since the last one add up to RowGroupBytes.
func (p *partFile) write(rows []schema.Event) error {
	_, err := p.w.Write(rows)
	if err == nil && p.pending >= RowGroupBytes {
		p.pending = 0
		err = p.w.Flush()
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", p.Temp, err)
	}
	return nil
}

// flushBatch writes the batched events.
func (p *partFile) flushBatch() error {
	if len(p.batch.rows) == 0 {
		return nil
	}
	err := p.write(p.batch.rows)
	p.batch.reset()
	return err
}

// add copies ev into the batch and writes the batch when it is full or
// its events fill the row group.
func (p *partFile) add(ev *schema.Event) error {
	p.batch.add(ev)
	p.Rows++
	p.pending += eventBytes(ev)
	if len(p.batch.rows) == writeBatch || p.pending >= RowGroupBytes {
		return p.flushBatch()
	}
	return nil
}

// writeRun writes run, events of this part's partition. While the batch is
// empty, the events a full batch would hold (writeBatch of them, or fewer
// when they fill the row group) are handed to parquet-go as they are: the
// same rows in the same call as through the batch, so the file is the same
// byte for byte, without the copy (0.19 s of CPU per GB of OTLP). The rest
// goes through the batch.
func (p *partFile) writeRun(run []schema.Event) error {
	for len(run) > 0 {
		n, pending := 0, p.pending
		for len(p.batch.rows) == 0 && n < len(run) && n < writeBatch && pending < RowGroupBytes {
			pending += eventBytes(&run[n])
			n++
		}
		if n == writeBatch || pending >= RowGroupBytes {
			p.Rows += n
			p.pending = pending
			if err := p.write(run[:n]); err != nil {
				return err
			}
			run = run[n:]
			continue
		}
		if err := p.add(&run[0]); err != nil {
			return err
		}
		run = run[1:]
	}
	return nil
}

// partCache remembers the partition of the previous event: consecutive
// events of a log nearly always share source, clock and UTC day.
type partCache struct {
	source, clock string
	dayStart      int64 // [dayStart, dayEnd) in ns, the UTC day of the partition
	dayEnd        int64
	index         int
	ok            bool
}

// NewPartWriter returns a writer of part files under dir; nothing is
// created before the first event.
func NewPartWriter(dir string) *PartWriter {
	return &PartWriter{dir: dir, byKey: map[string]int{}}
}

// Write appends ev to the part file of its partition and returns that
// part's index in the slice Close returns. The writer keeps no reference to
// ev or its slices: the caller may reuse them.
func (pw *PartWriter) Write(ev *schema.Event) (int, error) {
	i, err := pw.partIndex(ev)
	if err != nil {
		return 0, err
	}
	return i, pw.parts[i].add(ev)
}

// WriteEvents appends evs, each to the part file of its partition, as
// Write would one by one (the files are the same), but writes runs of
// events as they are where it can (see writeRun): evs must not change
// until it returns; the writer keeps no reference to them after.
func (pw *PartWriter) WriteEvents(evs []schema.Event) error {
	for len(evs) > 0 {
		i, err := pw.partIndex(&evs[0])
		if err != nil {
			return err
		}
		n := 1
		for ; n < len(evs); n++ {
			j, err := pw.partIndex(&evs[n])
			if err != nil {
				return err
			}
			if j != i {
				break
			}
		}
		if err := pw.parts[i].writeRun(evs[:n]); err != nil {
			return err
		}
		evs = evs[n:]
	}
	return nil
}

// eventBytes estimates the bytes of column values an event adds to a row
// group: a fixed share for its scalar columns plus its lists.
func eventBytes(ev *schema.Event) int {
	return 256 + 8*len(ev.ChunkOffsetsNs) + 4*len(ev.ChunkTokens) + 32*len(ev.OtherIDs) + 64*len(ev.Attrs)
}

// partIndex returns the index of ev's part file, opening it on first use.
func (pw *PartWriter) partIndex(ev *schema.Event) (int, error) {
	c := &pw.last
	wall := ev.StartNs != nil && ev.Clock == schema.ClockWall
	if c.ok && ev.Source == c.source && ev.Clock == c.clock && wall == (c.dayEnd > c.dayStart) &&
		(!wall || *ev.StartNs >= c.dayStart && *ev.StartNs < c.dayEnd) {
		return c.index, nil
	}
	key := PartitionOf(ev)
	i, ok := pw.byKey[key]
	if !ok {
		p, err := openPart(pw.dir, key)
		if err != nil {
			pw.Abort()
			return 0, err
		}
		i = len(pw.parts)
		pw.parts = append(pw.parts, p)
		pw.byKey[key] = i
	}
	*c = partCache{source: ev.Source, clock: ev.Clock, index: i, ok: true}
	if wall {
		day := time.Unix(0, *ev.StartNs).UTC().Truncate(24 * time.Hour)
		c.dayStart, c.dayEnd = day.UnixNano(), day.Add(24*time.Hour).UnixNano()
	}
	return i, nil
}

// openPart creates the partition folder and a temporary part file in it.
func openPart(dir, key string) (*partFile, error) {
	pdir := filepath.Join(dir, filepath.FromSlash(key))
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(pdir, ".part-*.tmp")
	if err != nil {
		return nil, err
	}
	return &partFile{StagedPart: StagedPart{Partition: key, Temp: f.Name()}, f: f, w: newParquetWriter(f)}, nil
}

// Close ends every part file (footer, sync, close) and returns them in the
// order their partitions were first seen. On error it removes them all.
func (pw *PartWriter) Close() ([]StagedPart, error) {
	staged := make([]StagedPart, len(pw.parts))
	for i, p := range pw.parts {
		err := p.flushBatch()
		if err == nil {
			err = finishFile(p.f, p.w)
		}
		if err != nil {
			pw.Abort()
			return nil, fmt.Errorf("write %s: %w", p.Temp, err)
		}
		staged[i] = p.StagedPart
	}
	pw.parts = nil
	return staged, nil
}

// Abort closes and removes every part file of the writer.
func (pw *PartWriter) Abort() {
	for _, p := range pw.parts {
		p.f.Close()
		os.Remove(p.Temp)
	}
	pw.parts = nil
}

// RemoveParts deletes staged parts that will not be committed.
func RemoveParts(parts []StagedPart) {
	for _, p := range parts {
		os.Remove(p.Temp)
	}
}

// finishFile writes the footer of a part file, syncs and closes it, and
// makes it readable by all (CreateTemp makes files 0600).
func finishFile(f *os.File, w *parquet.GenericWriter[schema.Event]) error {
	err := w.Close()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	return err
}
