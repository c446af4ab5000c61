package ingest

import (
	"hash/maphash"
	"maps"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// maxDetail caps the length of a reject detail kept in the dataset.
const maxDetail = 200

// rawSum is a 128-bit hash of a record's raw bytes; the driver uses it to
// recognize exact repeats. It is two 64-bit hash/maphash sums under two
// seeds drawn once per process (maphash hashes ~10 GB/s with the CPU's AES
// instructions; SHA-256 did 2 GB/s and was a tenth of ingest's CPU time).
// The seeds change from run to run, but which records repeat does not: two
// different records collide with probability 2^-128, so the same inputs give
// the same dataset every time.
type rawSum [2]uint64

var rawSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func sumOf(raw []byte) rawSum {
	return rawSum{maphash.Bytes(rawSeeds[0], raw), maphash.Bytes(rawSeeds[1], raw)}
}

// batchEvents is the number of events a unitSink gathers before handing
// them on: large enough that channel hand-offs cost nothing per event, small
// enough that the batches in flight stay a few MB.
const batchEvents = 2048

// batch is a run of consecutive records of one unit: its events (copies
// the batch owns) with the raw sums of their records, the rejects, and how
// many records were skipped. Events and rejects carry their absolute line.
type batch struct {
	events  []schema.Event
	sums    []rawSum
	hasSum  []bool // false for an empty raw record, never a duplicate
	rejects []schema.Reject
	skipped int64
	// Storage of the events' lists (see dataset.AppendOwned): reused when
	// the batch is recycled, so copying allocates little.
	offsets []int64
	tokens  []int32
	ids     []string
}

// read returns the number of records in the batch, as read from the input.
func (b *batch) read() int64 {
	return int64(len(b.events)+len(b.rejects)) + b.skipped
}

// reset empties b for reuse.
func (b *batch) reset() {
	clear(b.events) // drop references to strings and maps of written events
	b.events, b.sums, b.hasSum, b.rejects = b.events[:0], b.sums[:0], b.hasSum[:0], b.rejects[:0]
	b.offsets, b.tokens, b.ids = b.offsets[:0], b.tokens[:0], b.ids[:0]
	b.skipped = 0
}

// unitSink is the Sink the driver gives a format for one unit of work (a
// block of lines or a whole input). It completes each event's provenance,
// makes line numbers absolute (the unit's first line is base+1), copies the
// events into batches and sends each full batch to out, in order.
type unitSink struct {
	name, host string
	format     Format
	base       int64 // lines of the input before the unit
	cur        *batch
	out        chan<- *batch
	pool       *batchPool
	attrs      attrCache // the events' Attrs maps, shared when equal
}

// Event records a request record: it sets InputFile and InputLine, fills
// Host, Format and Source when the format left them empty, copies the event
// (slices and map too, which the format may reuse) and hashes raw for the
// duplicate check.
func (s *unitSink) Event(line int64, raw []byte, ev *schema.Event) {
	b := s.batch()
	b.events = append(b.events, *ev) // copied once, then completed in place
	e := &b.events[len(b.events)-1]
	e.InputFile, e.InputLine = s.name, s.base+line
	if e.Host == "" {
		e.Host = s.host
	}
	if e.Format == "" {
		e.Format = s.format.Name()
	}
	if e.Source == "" {
		e.Source = s.format.Source()
	}
	e.OtherIDs = dataset.AppendOwned(&b.ids, e.OtherIDs)
	e.ChunkOffsetsNs = dataset.AppendOwned(&b.offsets, e.ChunkOffsetsNs)
	e.ChunkTokens = dataset.AppendOwned(&b.tokens, e.ChunkTokens)
	e.Attrs = s.attrs.keep(e.Attrs)
	decode.ReplaceInvalidUTF8(e)
	b.hasSum = append(b.hasSum, len(raw) > 0)
	var sum rawSum
	if len(raw) > 0 {
		sum = sumOf(raw)
	}
	b.sums = append(b.sums, sum)
	if len(b.events) == batchEvents {
		s.flush()
	}
}

// Skip counts a record that is not a request record.
func (s *unitSink) Skip(line int64, reason string) {
	s.batch().skipped++
}

// Reject keeps a record that could not be decoded with its
// file:line:column, reason and detail (cut to maxDetail bytes).
func (s *unitSink) Reject(at decode.Pos, reason, detail string) {
	if len(detail) > maxDetail {
		detail = detail[:maxDetail-3] + "..."
	}
	b := s.batch()
	b.rejects = append(b.rejects, schema.Reject{File: s.name, Line: s.base + at.Line, Column: at.Col, Reason: reason, Detail: detail})
}

// batch returns the batch being filled.
func (s *unitSink) batch() *batch {
	if s.cur == nil {
		s.cur = s.pool.get()
	}
	return s.cur
}

// flush sends the batch being filled, if any.
func (s *unitSink) flush() {
	if s.cur != nil {
		s.out <- s.cur
		s.cur = nil
	}
}

// batchPool recycles batches once written, unless their events are kept
// for the caller (DriverOptions.KeepEvents, or no dataset).
type batchPool struct {
	free chan *batch
	keep bool
}

func newBatchPool(size int, keep bool) *batchPool {
	return &batchPool{free: make(chan *batch, size), keep: keep}
}

func (p *batchPool) get() *batch {
	select {
	case b := <-p.free:
		return b
	default:
		return &batch{events: make([]schema.Event, 0, batchEvents)}
	}
}

// put gives b back for reuse; a batch whose events are kept is left alone.
func (p *batchPool) put(b *batch) {
	if p.keep {
		return
	}
	b.reset()
	select {
	case p.free <- b:
	default:
	}
}

// attrCacheSize is how many recent attribute maps attrCache compares with.
const attrCacheSize = 8

// attrCacheRest is how many maps attrCache clones without comparing after
// that many in a row matched none (a format whose maps all differ, such as
// one carrying a request index, would pay for 8 comparisons per event).
const attrCacheRest = 64

// attrCache shares the Attrs maps of kept events: a map equal to one of the
// last few kept is replaced by that one instead of being copied. Logs
// repeat a handful of attribute sets (region, app, upstream…), so the 20k
// benchmark's kept events need 17 MB less. The kept events' maps are
// therefore shared: Result.Events must be treated as read-only.
type attrCache struct {
	recent [attrCacheSize]map[string]string
	next   int
	misses int // maps in a row that matched none of recent
}

// keep returns a map equal to m (invalid UTF-8 replaced, decode.ValidAttrs)
// that the format does not own.
func (c *attrCache) keep(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	if c.misses < attrCacheRest || c.misses%attrCacheRest == 0 {
		for _, r := range c.recent {
			if r != nil && maps.Equal(r, m) {
				c.misses = 0
				return r
			}
		}
	}
	c.misses++
	m = decode.ValidAttrs(maps.Clone(m))
	c.recent[c.next] = m
	c.next = (c.next + 1) % attrCacheSize
	return m
}
