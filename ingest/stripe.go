package ingest

import (
	"slices"
	"time"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// maxOpenParts is the most part files a stripe keeps open at once. An open
// part file holds a row group of up to dataset.RowGroupBytes and its zstd and
// page buffers (~10 MB), so a log spanning months must not keep one open per
// day: logs run forward in time, so when a stripe needs another partition it
// closes the one written least recently, and an event of a closed partition
// arriving later opens another part file for it. Two leave room for the
// requests that started before midnight and were logged after it.
const maxOpenParts = 2

// stripeQueue is how many batches a stripe may hold waiting. The
// collector hands a unit's batches to one stripe, then the next unit's to
// the other: with room for only 2, it waited on one stripe while the other
// sat idle (the trace of a 1 GB OTLP ingest showed the collector blocked
// 1.8 s sending to a full stripe and the stripes 3.0 s waiting for work).
// 8 holds a whole unit (a 4 MiB block: ~4,000 OTLP or ~16,000 nginx
// events, 2–8 batches) so the collector moves on to the other stripe.
const stripeQueue = 8

// stripe is one goroutine writing kept events to part files, one open part
// file per partition it is writing (see maxOpenParts).
type stripe struct {
	in     chan stripeBatch
	done   chan struct{}
	dir    string
	open   []*openPart // most recently written first
	staged []dataset.StagedPart
	inputs []int // the inputs whose events it wrote, ascending
	err    error // the first write error; the stripe's parts are then removed
}

// stripeBatch is a batch of kept events of input number input.
type stripeBatch struct {
	b     *batch
	input int
}

// openPart is the open part file of one partition.
type openPart struct {
	key      string // dataset.PartitionOf its events
	w        *dataset.PartWriter
	source   string
	wall     bool  // a dated partition (events on the wall clock with a start)
	dayStart int64 // [dayStart, dayEnd): the partition's UTC day in ns, when wall
	dayEnd   int64
}

// startStripe starts a stripe writing part files under dir, the dataset.
func startStripe(dir string, pool *batchPool) *stripe {
	s := &stripe{in: make(chan stripeBatch, stripeQueue), done: make(chan struct{}), dir: dir}
	go s.run(pool)
	return s
}

func (s *stripe) run(pool *batchPool) {
	defer close(s.done)
	for sb := range s.in {
		if s.err == nil {
			s.err = s.write(sb.b.events)
		}
		if n := len(s.inputs); n == 0 || s.inputs[n-1] != sb.input {
			s.inputs = append(s.inputs, sb.input)
		}
		pool.put(sb.b)
	}
	for len(s.open) > 0 && s.err == nil {
		s.err = s.closeOldest()
	}
	if s.err != nil {
		for _, p := range s.open {
			p.w.Abort()
		}
		dataset.RemoveParts(s.staged)
		s.open, s.staged = nil, nil
	}
}

// write appends evs to the part files of their partitions, each run of
// events of one partition in one call.
func (s *stripe) write(evs []schema.Event) error {
	for len(evs) > 0 {
		if len(s.open) == 0 || !s.open[0].holds(&evs[0]) {
			if err := s.openFor(&evs[0]); err != nil {
				return err
			}
		}
		n := 1
		for n < len(evs) && s.open[0].holds(&evs[n]) {
			n++
		}
		if err := s.open[0].w.WriteEvents(evs[:n]); err != nil {
			return err
		}
		evs = evs[n:]
	}
	return nil
}

// holds reports whether ev belongs to p's partition (see dataset.PartitionOf).
func (p *openPart) holds(ev *schema.Event) bool {
	wall := ev.StartNs != nil && ev.Clock == schema.ClockWall
	return ev.Source == p.source && wall == p.wall && (!wall || *ev.StartNs >= p.dayStart && *ev.StartNs < p.dayEnd)
}

// openFor makes the part file of ev's partition the first open one,
// opening it (and closing the oldest when maxOpenParts are open) if needed.
func (s *stripe) openFor(ev *schema.Event) error {
	key := dataset.PartitionOf(ev)
	if i := slices.IndexFunc(s.open, func(p *openPart) bool { return p.key == key }); i >= 0 {
		p := s.open[i]
		copy(s.open[1:i+1], s.open[:i])
		s.open[0] = p
		return nil
	}
	if len(s.open) == maxOpenParts {
		if err := s.closeOldest(); err != nil {
			return err
		}
	}
	p := &openPart{key: key, w: dataset.NewPartWriter(s.dir), source: ev.Source}
	if p.wall = ev.StartNs != nil && ev.Clock == schema.ClockWall; p.wall {
		day := time.Unix(0, *ev.StartNs).UTC().Truncate(24 * time.Hour)
		p.dayStart, p.dayEnd = day.UnixNano(), day.Add(24*time.Hour).UnixNano()
	}
	s.open = append([]*openPart{p}, s.open...)
	return nil
}

// closeOldest ends the part file written least recently and stages it.
func (s *stripe) closeOldest() error {
	p := s.open[len(s.open)-1]
	s.open = s.open[:len(s.open)-1]
	staged, err := p.w.Close()
	s.staged = append(s.staged, staged...)
	return err
}
