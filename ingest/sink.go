package ingest

import (
	"hash/maphash"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/dataset"
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

// kept is what the driver remembers of each event an input produced, for
// the duplicate check once all inputs are read.
type kept struct {
	sum    rawSum
	hasSum bool // false for an empty raw record, never a duplicate
	part   int  // index of the staged part the event went to
}

// inputSink is the Sink the driver gives a format for one input. It counts
// every record, streams the events to part files (when the driver writes a
// dataset) or keeps them, keeps the rejects in order, and completes each
// event's provenance.
type inputSink struct {
	name, host string
	format     Format
	stats      schema.InputStats
	writer     *dataset.PartWriter // nil: no dataset is written
	keepEvents bool
	events     eventBlocks // kept events, when keepEvents
	kept       []kept      // one per event, in order
	staged     []dataset.StagedPart
	rejects    []schema.Reject
	clocks     map[string]bool
	attrs      attrCache // kept events' Attrs maps, shared when equal
	err        error     // the first write error; it ends the input
	lineBase   int64     // lines before the first one read (a resumed input)
}

func newInputSink(name, host string, f Format) *inputSink {
	s := &inputSink{name: name, host: host, format: f, clocks: map[string]bool{}, keepEvents: true}
	s.stats = schema.InputStats{Path: name, Format: f.Name(), Host: host}
	return s
}

// Event records a request record: it sets InputFile and InputLine, fills
// Host, Format and Source when the format left them empty, writes the event
// to its part file and/or keeps a copy (slices and map too, which the
// format may reuse), and hashes raw for the duplicate check (an empty raw is
// never a duplicate).
func (s *inputSink) Event(line int64, raw []byte, ev *schema.Event) {
	if s.err != nil {
		return
	}
	e := *ev
	e.InputFile, e.InputLine = s.name, s.lineBase+line
	if e.Host == "" {
		e.Host = s.host
	}
	if e.Format == "" {
		e.Format = s.format.Name()
	}
	if e.Source == "" {
		e.Source = s.format.Source()
	}
	if e.Clock != "" && !s.clocks[e.Clock] {
		s.clocks[e.Clock] = true
	}
	k := kept{hasSum: len(raw) > 0}
	if k.hasSum {
		k.sum = sumOf(raw)
	}
	if s.writer != nil {
		var err error
		if k.part, err = s.writer.Write(&e); err != nil {
			s.err = err
			return
		}
	}
	if s.keepEvents {
		e.OtherIDs = slices.Clone(e.OtherIDs)
		e.ChunkOffsetsNs = slices.Clone(e.ChunkOffsetsNs)
		e.ChunkTokens = slices.Clone(e.ChunkTokens)
		e.Attrs = s.attrs.keep(e.Attrs)
		s.events.add(&e)
	}
	s.kept = append(s.kept, k)
	s.stats.Read++
	s.stats.Records++
}

// Skip counts a record that is not a request record.
func (s *inputSink) Skip(line int64, reason string) {
	s.stats.Read++
	s.stats.Skipped++
}

// Reject counts a record that could not be decoded and keeps its file:line,
// reason and detail.
func (s *inputSink) Reject(line int64, reason, detail string) {
	s.stats.Read++
	s.stats.Rejected++
	if s.stats.RejectsByReason == nil {
		s.stats.RejectsByReason = map[string]int64{}
	}
	s.stats.RejectsByReason[reason]++
	if len(detail) > maxDetail {
		detail = detail[:maxDetail-3] + "..."
	}
	s.rejects = append(s.rejects, schema.Reject{File: s.name, Line: s.lineBase + line, Reason: reason, Detail: detail})
}

// clock returns the clocks of the input's events, sorted and joined by ","
// (usually exactly one).
func (s *inputSink) clock() string {
	cs := make([]string, 0, len(s.clocks))
	for c := range s.clocks {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
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

// keep returns a map equal to m that the format does not own.
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
	m = maps.Clone(m)
	c.recent[c.next] = m
	c.next = (c.next + 1) % attrCacheSize
	return m
}

// eventBlockSize is the number of events in each block of eventBlocks.
const eventBlockSize = 1024

// eventBlocks stores events in fixed blocks: appending never copies the
// events already stored (a growing slice of ~450-byte events copied them
// and left the old arrays to the collector: a third of keeping's cost).
type eventBlocks struct {
	blocks [][]schema.Event
	n      int
}

func (b *eventBlocks) add(e *schema.Event) {
	if b.n%eventBlockSize == 0 {
		b.blocks = append(b.blocks, make([]schema.Event, 0, eventBlockSize))
	}
	last := &b.blocks[len(b.blocks)-1]
	*last = append(*last, *e)
	b.n++
}

// at returns the i-th event stored.
func (b *eventBlocks) at(i int) *schema.Event {
	return &b.blocks[i/eventBlockSize][i%eventBlockSize]
}
