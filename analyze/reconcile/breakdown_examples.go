package reconcile

import (
	"slices"
	"strconv"

	"github.com/ttftrace/ttftrace/dataset"

	"github.com/ttftrace/ttftrace/schema"
)

// maxExamples is how many slow requests the examples show.
const maxExamples = 5

// example is one slow request's timeline and its place in the order.
type example struct {
	key clientTTFTKey
	tl  Timeline
}

// addExample keeps successful request q among the k requests with the
// largest client TTFT among those seen by client, proxy and server, slowest
// first. Their bars are in ms after the earliest start shown, on the
// reference clock.
func (s *requestSummary) addExample(c *dataset.Columns, q *ReconciledRequest, k int) {
	if q.ClientTTFTNs == nil || q.ProxyStartNs == nil || q.ServerStartNs == nil {
		return
	}
	key := clientTTFTKey{*q.ClientTTFTNs, eventIndexOr(q.ClientEvent)}
	if len(s.top) == k && key.compare(s.top[k-1].key) <= 0 {
		return
	}
	at, _ := slices.BinarySearchFunc(s.top, key, func(x example, y clientTTFTKey) int { return y.compare(x.key) })
	s.top = slices.Insert(s.top, at, example{key, exampleTimeline(c, q)})
	s.top = s.top[:min(len(s.top), k)]
}

// examples returns the slow requests' timelines, slowest first.
func (s *requestSummary) examples() []Timeline {
	out := []Timeline{}
	for _, e := range s.top {
		out = append(out, e.tl)
	}
	return out
}

func exampleTimeline(c *dataset.Columns, q *ReconciledRequest) Timeline {
	t0 := min(*q.ClientStartNs, *q.ProxyStartNs, *q.ServerStartNs)
	ms := func(t *int64) *float64 {
		if t == nil {
			return nil
		}
		return reconPtr(float64(*t-t0) / 1e6)
	}
	span := func(src, host string, start, first, end *int64) TimelineSpan {
		return TimelineSpan{Source: src, Host: host, StartMs: *ms(start), FirstTokenMs: ms(first), EndMs: ms(end)}
	}
	key := timelineKey(c, *q.ClientEvent)
	if q.ProxyJoin == JoinTime || q.ServerJoin == JoinTime {
		key = "time-joined " + key
	}
	return Timeline{Key: key, Bars: []TimelineSpan{
		span(schema.SourceClient, q.ClientHost, q.ClientStartNs, q.ClientFirstTokenNs, q.ClientEndNs),
		span(schema.SourceProxy, q.ProxyHost, q.ProxyStartNs, q.ProxyFirstTokenNs, q.ProxyEndNs),
		span(schema.SourceServer, q.ServerHost, q.ServerStartNs, q.ServerFirstTokenNs, q.ServerEndNs),
	}}
}

// timelineKey names a request by the client's trace id, request id or
// response id, or else by its event index ("event 12"). The caller marks
// requests that a time join (not that id) linked.
func timelineKey(c *dataset.Columns, index int64) string {
	for _, col := range []*dataset.ColumnsList[byte]{&c.TraceText, &c.RequestText, &c.ResponseText} {
		if id := string(col.At(int(index))); id != "" {
			return id
		}
	}
	return "event " + strconv.FormatInt(index, 10)
}
