package ingest

import (
	"cmp"
	"errors"
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// collector takes the units of a call in order (see pipeline.go): it counts
// every record of every input, drops duplicates with one dupWindow for the
// whole call, keeps the rejects and, when asked, the events in order, and
// hands the kept events to the stripe writers.
type collector struct {
	res     *Result
	window  *dupWindow
	keep    bool      // keep the events in res.Events
	spans   bool      // fingerprint the inputs (a dataset is written)
	stripes []*stripe // nil when no dataset is written
	pool    *batchPool
}

func newCollector(res *Result, opts DriverOptions, pool *batchPool, keep bool) *collector {
	c := &collector{res: res, window: newDupWindow(cmp.Or(opts.DupWindow, DupWindow)), keep: keep, pool: pool,
		spans: opts.Dataset != ""}
	if opts.Dataset != "" {
		for range writeStripes {
			c.stripes = append(c.stripes, startStripe(opts.Dataset, pool))
		}
	}
	return c
}

// run collects every unit of units, in order, until the channel is closed.
func (c *collector) run(units <-chan *unit) {
	for u := range units {
		for b := range u.out {
			c.take(u, b)
		}
		in := u.input
		if u.err != nil && in.err == nil {
			in.err = u.err
		}
		if u.decode == nil { // the input's end
			c.finish(in)
		}
	}
}

// take counts the records of batch b of unit u, drops its duplicates and
// passes its kept events on.
func (c *collector) take(u *unit, b *batch) {
	st := &u.input.stats
	st.Read += b.read()
	st.Skipped += b.skipped
	st.Rejected += int64(len(b.rejects))
	for _, r := range b.rejects {
		if st.RejectsByReason == nil {
			st.RejectsByReason = map[string]int64{}
		}
		st.RejectsByReason[r.Reason]++
	}
	c.res.Rejects = append(c.res.Rejects, b.rejects...)
	kept := b.events[:0]
	format, lastClock := formatKey(st.Format), ""
	for i := range b.events {
		if b.hasSum[i] && c.window.seen(format.key(b.sums[i])) {
			st.Duplicates++
			continue
		}
		if clock := b.events[i].Clock; clock != lastClock { // nearly always the previous event's
			if lastClock = clock; clock != "" && !u.input.clocks[clock] {
				u.input.clocks[clock] = true
			}
		}
		kept = append(kept, b.events[i])
	}
	clear(b.events[len(kept):])
	b.events = kept
	st.Records += int64(len(kept))
	c.res.Records += int64(len(kept))
	if c.keep {
		c.res.Events = append(c.res.Events, kept...)
	}
	if c.stripes == nil || len(kept) == 0 {
		c.pool.put(b)
		return
	}
	c.stripes[u.seq%len(c.stripes)].in <- stripeBatch{b: b, input: u.input.index}
}

// finish stores an input's figures once all its units are collected.
func (c *collector) finish(in *inputState) {
	in.stats.Truncated = in.truncated
	in.stats.Clock = clockOf(in.clocks)
	if in.err != nil {
		msg := in.err.Error()
		var at *decode.Error
		if errors.As(in.err, &at) { // the stats name the file: "line:col: reason"
			msg = at.Pos.String() + ": " + at.Err.Error()
		}
		in.stats.Error = &msg
	} else if c.spans && in.span != nil {
		in.stats.Span = in.span.result()
	}
	c.res.Inputs[in.index] = in.stats
}

// close waits for the stripe writers, stages their parts (stripe by stripe,
// each in the order its partitions were first seen) and fails every input
// that wrote to a stripe that could not be written.
func (c *collector) close() {
	for _, s := range c.stripes {
		close(s.in)
	}
	for _, s := range c.stripes {
		<-s.done
		c.res.staged = append(c.res.staged, s.staged...)
		if s.err == nil {
			continue
		}
		msg := s.err.Error()
		for _, i := range s.inputs {
			if c.res.Inputs[i].Error == nil {
				c.res.Inputs[i].Error, c.res.Inputs[i].Span = &msg, nil
			}
		}
	}
}

// clockOf returns the clocks of an input's events, sorted and joined by ","
// (usually exactly one).
func clockOf(clocks map[string]bool) string {
	cs := make([]string, 0, len(clocks))
	for c := range clocks {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}
