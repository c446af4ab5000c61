package dataset

import (
	"fmt"
	"slices"

	"github.com/ttftrace/ttftrace/schema"
)

// ColumnsOf returns events as Columns, row i being events[i]: the route for
// events already in memory (ttftrace run, tests) and for Parquet files whose
// layout the column reader does not take.
func ColumnsOf(events []schema.Event, opts ColumnsOptions) (*Columns, error) {
	c := &Columns{}
	for i := range events {
		if err := c.addEvent(&events[i], &opts); err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
	}
	return c, nil
}

// addEvent appends one event as a row.
func (c *Columns) addEvent(e *schema.Event, opts *ColumnsOptions) error {
	for _, s := range []struct {
		d *ColumnsDict[uint8]
		v string
	}{{&c.Source, e.Source}, {&c.Clock, e.Clock}, {&c.Format, e.Format}, {&c.Error, e.Error}} {
		if err := s.d.add(s.v); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		d *ColumnsDict[uint32]
		v string
	}{{&c.Host, e.Host}, {&c.Model, e.Model}, {&c.Endpoint, e.Endpoint}, {&c.InputFile, e.InputFile}} {
		if err := s.d.add(s.v); err != nil {
			return err
		}
	}
	addPtr(&c.Status, e.Status)
	if e.Completed != nil {
		c.Completed.add(*e.Completed, true)
	} else {
		c.Completed.add(false, false)
	}
	for _, s := range []struct {
		col *ColumnsNullable[int64]
		p   *int64
	}{{&c.PromptTokens, e.PromptTokens}, {&c.OutputTokens, e.OutputTokens},
		{&c.StartNs, e.StartNs}, {&c.HeadersNs, e.HeadersNs}, {&c.FirstTokenNs, e.FirstTokenNs},
		{&c.LastTokenNs, e.LastTokenNs}, {&c.EndNs, e.EndNs},
		{&c.QueueNs, e.QueueNs}, {&c.PrefillNs, e.PrefillNs}, {&c.DecodeNs, e.DecodeNs}} {
		addPtr(s.col, s.p)
	}
	c.ChunkOffsetsNs.add(e.ChunkOffsetsNs)
	start := len(c.ChunkTokens.Values)
	c.ChunkTokens.Values = append(c.ChunkTokens.Values, e.ChunkTokens...)
	c.finishTokens(c.Rows, start)
	start = len(c.Attrs.Values)
	for _, k := range sortedKeys(e.Attrs) {
		if len(opts.Attrs) > 0 {
			c.markAttrKey(c.attr(k))
		}
		if slices.Contains(opts.Attrs, k) {
			c.Attrs.Values = append(c.Attrs.Values, ColumnsAttr{c.attr(k), c.attr(e.Attrs[k])})
		}
	}
	c.Attrs.addRow(start)
	c.addIDs(e.Source, e.TraceID, e.RequestID, e.ResponseID, e.OtherIDs, opts)
	c.Rows++
	return nil
}

func addPtr[T any](c *ColumnsNullable[T], p *T) {
	if p == nil {
		var zero T
		c.add(zero, false)
		return
	}
	c.add(*p, true)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// addIDs appends one row of the id columns: the trace id, the distinct join
// keys of the other ids (at most 255; after four distinct keys a repeat is
// no longer recognized, as reconciliation always counted them), and the ids'
// text for the sources opts.TextSources names.
func (c *Columns) addIDs(source, trace, request, response string, others []string, opts *ColumnsOptions) {
	c.TraceID.add(ColumnsIDOf(trace), trace != "")
	start := len(c.IDKeys.Values)
	c.IDKeys.Values = appendIDKeys(c.IDKeys.Values, request, response, others, opts)
	c.IDKeys.addRow(start)
	c.addIDText(source, trace, request, response, opts)
}

// appendIDKeys appends the distinct join keys of one row's ids to dst (at
// most 255; after four distinct keys a repeat is no longer recognized, as
// reconciliation always counted them).
func appendIDKeys(dst []ColumnsID, request, response string, others []string, opts *ColumnsOptions) []ColumnsID {
	if opts.IDKey == nil {
		return dst
	}
	start := len(dst)
	var seen [4]ColumnsID
	n := 0
	emit := func(raw string) {
		key, ok := opts.IDKey(raw)
		if !ok || slices.Contains(seen[:n], key) || len(dst)-start >= 255 {
			return
		}
		if n < len(seen) {
			seen[n] = key
			n++
		}
		dst = append(dst, key)
	}
	emit(request)
	emit(response)
	for _, id := range others {
		emit(id)
	}
	return dst
}

// addIDText appends one row of the text id columns: the ids for the
// sources opts.TextSources names, else empty.
func (c *Columns) addIDText(source, trace, request, response string, opts *ColumnsOptions) {
	text := slices.Contains(opts.TextSources, source)
	for _, t := range []struct {
		l *ColumnsList[byte]
		s string
	}{{&c.TraceText, trace}, {&c.RequestText, request}, {&c.ResponseText, response}} {
		if text {
			t.l.add([]byte(t.s)...)
		} else {
			t.l.add()
		}
	}
}
