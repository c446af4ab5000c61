package analyze

import (
	"slices"
	"strconv"

	"github.com/ttftrace/ttftrace/dataset"

	"github.com/ttftrace/ttftrace/schema"
)

// slowExamples returns up to k timelines of the successful requests with the
// largest client TTFT among those seen by client, proxy and server, slowest
// first. Their bars are in ms after the earliest start shown, on the
// reference clock.
func slowExamples(c *dataset.Columns, reqs []ReconciledRequest, k int) []Timeline {
	var top []*ReconciledRequest // the k slowest so far, slowest first
	for i := range reqs {
		q := &reqs[i]
		if q.ClientTTFTNs == nil || q.ProxyStartNs == nil || q.ServerStartNs == nil || !reqSucceeded(q) {
			continue
		}
		if len(top) == k && byClientTTFT(q, top[k-1]) <= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, q, func(x, y *ReconciledRequest) int { return byClientTTFT(y, x) })
		top = slices.Insert(top, at, q)
		top = top[:min(len(top), k)]
	}
	out := []Timeline{}
	for _, q := range top {
		out = append(out, exampleTimeline(c, q))
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
	key := timelineKey(event{c, int(*q.ClientEvent)}, *q.ClientEvent)
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
func timelineKey(ev event, index int64) string {
	for _, col := range []*dataset.ColumnsList[byte]{&ev.c.TraceText, &ev.c.RequestText, &ev.c.ResponseText} {
		if id := ev.text(col); id != "" {
			return id
		}
	}
	return "event " + strconv.FormatInt(index, 10)
}
