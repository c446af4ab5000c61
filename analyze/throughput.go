package analyze

import (
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Throughput is one source's whole-span throughput: the requests it saw
// start, the output tokens they carried and, with SLOs, the requests that
// met every one, over the span from the earliest start to the latest
// instant of its wall-clock events (First → Last, RFC 3339 UTC).
//
// The rates' variances follow from treating requests as a compound Poisson
// process: the variance of a count over the span is the sum of the squares
// of what each request adds, so OutputTokensSq (Σ tokens² over requests)
// gives the standard error of OutputTPS as √OutputTokensSq / Seconds, and
// that of RequestRate is √Requests / Seconds.
type Throughput struct {
	Source         string  `json:"source"`
	First          string  `json:"first"`
	Last           string  `json:"last"`
	Seconds        float64 `json:"seconds"`
	Requests       int64   `json:"requests"`         // wall-clock requests with a start
	Succeeded      int64   `json:"succeeded"`        // of Requests
	OutputTokens   float64 `json:"output_tokens"`    // output tokens of Requests (as output_tps counts them)
	OutputTokensSq float64 `json:"output_tokens_sq"` // Σ over Requests of tokens²
	RequestRate    float64 `json:"request_rate"`     // Requests / Seconds, requests/s
	OutputTPS      float64 `json:"output_tps"`       // OutputTokens / Seconds, tokens/s
	// Good counts the successful requests meeting every SLO; Goodput is
	// Good / Seconds (requests/s) and GoodShare Good / Requests. All three
	// are null when the analysis ran without SLOs.
	Good      *int64   `json:"good"`
	Goodput   *float64 `json:"goodput"`
	GoodShare *float64 `json:"good_share"`
}

// throughputOf returns the throughput of one source's wall-clock events
// (rows of c), and false when none has a start or their span is empty.
func throughputOf(c *dataset.Columns, src string, rows []int32, slo map[string]float64, defs []metricDef) (Throughput, bool) {
	t := Throughput{Source: src}
	var first, last instant
	var good int64
	var r request // one for the loop: meetsSLO takes its address
	// The totals read start, end and output tokens; the objectives may
	// read any field.
	reads := fStart | fEnd | fTokens
	if len(slo) > 0 {
		reads = allFields
	}
	for _, i := range rows {
		e := event{c, int(i)}
		if e.clock() != schema.ClockWall || !c.StartNs.Has(e.i) {
			continue
		}
		r.resolve(e, reads)
		t.Requests++
		tokens := float64(r.tokens)
		t.OutputTokens += tokens
		t.OutputTokensSq += tokens * tokens
		if succeeded(e) {
			t.Succeeded++
			if len(slo) > 0 && meetsSLO(&r, slo, defs) {
				good++
			}
		}
		first, last = earliest(first, r.start), latest(last, r.start, r.end)
	}
	if t.Requests == 0 || last.ns <= first.ns {
		return t, false
	}
	t.First, t.Last = rfc3339(first.ns), rfc3339(last.ns)
	t.Seconds = float64(last.ns-first.ns) / 1e9
	t.RequestRate = float64(t.Requests) / t.Seconds
	t.OutputTPS = t.OutputTokens / t.Seconds
	if len(slo) > 0 {
		t.Good = &good
		t.Goodput = ptr(float64(good) / t.Seconds)
		t.GoodShare = ptr(float64(good) / float64(t.Requests))
	}
	return t, true
}

// earliest returns the earlier of two known instants (either may be unknown).
func earliest(a, b instant) instant {
	if !a.ok || b.ok && b.ns < a.ns {
		return b
	}
	return a
}

// latest returns the latest of cur and the known instants of xs.
func latest(cur instant, xs ...instant) instant {
	for _, x := range xs {
		if x.ok && (!cur.ok || x.ns > cur.ns) {
			cur = x
		}
	}
	return cur
}
