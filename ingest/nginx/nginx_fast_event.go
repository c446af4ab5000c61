package nginx

import (
	"bytes"
	"slices"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// This file builds the event of the nginx fast path (nginx_fast.go) from a
// line's values, as nginxEvent does from the general route's map.

// instants is nginxInstants for the values the fast path reads.
func (d *nginxFast) instants() bool {
	end, coarse, ok := d.end()
	if !ok {
		return false
	}
	ev := &d.ev
	ev.EndNs = d.arena.Int64(end)
	if coarse {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "time_resolution", Val: "1s"})
	}
	rt, set, err := nginxSeconds(d.raw(ngRequestTime))
	if err != nil {
		return false
	}
	if set {
		ev.StartNs = d.arena.Int64(end - rt)
	}
	conn, ok1 := nginxSumAttempts(d.raw(ngUpConnect))
	hdr, ok2 := nginxSumAttempts(d.raw(ngUpHeader))
	resp, ok3 := nginxSumAttempts(d.raw(ngUpResponse))
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	if conn.lastSet {
		ev.ConnectNs = d.arena.Int64(conn.last)
	}
	if at, ok := nginxHeadersAt(ev.StartNs, end, hdr, resp); ok {
		ev.HeadersNs = d.arena.Int64(at)
	}
	return true
}

// end is nginxEnd: $msec, else $time_local or $time_iso8601 (coarse); ok is
// false when the general route must decide (a reject or an unusual time).
func (d *nginxFast) end() (end int64, coarse, ok bool) {
	if v := d.raw(ngMsec); len(v) > 0 && !(len(v) == 1 && v[0] == '-') {
		ns, set, err := nginxSeconds(v)
		return ns, false, err == nil && set
	}
	if d.plan.at[ngTimeLocal] >= 0 {
		ns, ok := textscan.TimeLocalNs(d.raw(ngTimeLocal))
		return ns, true, ok
	}
	if d.plan.at[ngTimeISO] >= 0 {
		ns, ok := textscan.RFC3339Ns(d.raw(ngTimeISO))
		return ns, true, ok
	}
	return 0, false, false
}

// nginxAttemptSum is what the fast path reads of an upstream time list.
type nginxAttemptSum struct {
	n       int   // attempts listed
	last    int64 // the last attempt's time in ns, when lastSet (not "-")
	lastSet bool
	before  int64 // the earlier attempts' times added up ("-" adds nothing)
}

// nginxSumAttempts reads a list that matched as nginxList (items joined by
// ", " or " : "); ok is false for an item that is not a time or "-".
func nginxSumAttempts(v []byte) (a nginxAttemptSum, ok bool) {
	for len(v) > 0 {
		n := 0
		for n < len(v) && v[n] != ',' && v[n] != ' ' {
			n++
		}
		ns, set, err := nginxSeconds(v[:n])
		if err != nil {
			return a, false
		}
		if a.lastSet {
			a.before += a.last
		}
		a.n, a.last, a.lastSet = a.n+1, ns, set
		switch v = v[n:]; {
		case len(v) == 0:
		case len(v) >= 2 && v[0] == ',' && v[1] == ' ':
			v = v[2:]
		case len(v) >= 3 && v[0] == ' ' && v[1] == ':' && v[2] == ' ':
			v = v[3:]
		default:
			return a, false
		}
	}
	return a, true
}

// nginxHeadersAt is nginxHeaders over attempt summaries.
func nginxHeadersAt(start *int64, end int64, hdr, resp nginxAttemptSum) (int64, bool) {
	if !hdr.lastSet {
		return 0, false
	}
	var at int64
	switch {
	case resp.lastSet && resp.n == hdr.n:
		at = end - resp.last + hdr.last
	case start != nil:
		at = *start + hdr.last + resp.before
	default:
		return 0, false
	}
	if start != nil && at < *start {
		at = *start
	}
	return min(at, end), true
}

// request is nginxRequest: the endpoint and method from $request, else
// $request_uri or $uri, and $request_method.
func (d *nginxFast) request() bool {
	req, ok := d.value(ngRequest)
	if !ok {
		return false
	}
	var method, endpoint []byte
	if len(req) > 0 {
		m, target, ok := nginxRequestFields(req)
		if !ok {
			return false
		}
		if len(target) > 0 && target[0] == '/' {
			endpoint = decode.EndpointPathBytes(target)
		} else if bytes.HasPrefix(target, []byte("http://")) || bytes.HasPrefix(target, []byte("https://")) {
			return false // the general route parses the URL
		}
		if len(endpoint) > 0 {
			method = m
		}
	}
	for _, k := range []int{ngRequestURI, ngURI} {
		v, ok := d.value(k)
		if !ok {
			return false
		}
		if len(endpoint) == 0 && len(v) > 0 && v[0] == '/' {
			endpoint = decode.EndpointPathBytes(v)
		}
	}
	m, ok := d.value(ngRequestMethod)
	if !ok {
		return false
	}
	if len(m) > 0 {
		method = m
	}
	if len(endpoint) > 0 {
		d.ev.Endpoint = d.strs.Get(endpoint)
	}
	if len(method) > 0 {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "method", Val: d.strs.Get(method)})
	}
	return true
}

// nginxRequestFields returns the first two space-separated fields of a
// request line (nil when there are fewer than two), as strings.Fields
// splits it; ok is false when they hold other white space or non-ASCII
// bytes, which strings.Fields may treat as separators. What follows the
// second field does not change them and is not looked at.
func nginxRequestFields(req []byte) (method, target []byte, ok bool) {
	var fields [2][]byte
	n := 0
	for i := 0; i < len(req); {
		c := req[i]
		if c == ' ' {
			i++
			continue
		}
		j := i
		for ; j < len(req) && req[j] != ' '; j++ {
			if !decode.ASCIIGraphic(req[j]) {
				return nil, nil, false
			}
		}
		fields[n] = req[i:j]
		if n, i = n+1, j; n == 2 {
			return fields[0], fields[1], true
		}
	}
	return nil, nil, true
}

// ids is nginxIDs over the plan's id variables. RequestID and TraceID
// share one allocation.
func (d *nginxFast) ids() bool {
	ev := &d.ev
	var rid []byte
	for _, id := range d.plan.ids {
		v, ok := d.valueAt(id.at)
		switch {
		case !ok:
			return false
		case len(v) == 0:
		case rid == nil && !id.upstream:
			rid = v
		case !bytes.Equal(v, rid) && !slices.Contains(ev.OtherIDs, string(v)):
			ev.OtherIDs = append(ev.OtherIDs, string(v))
		}
	}
	tp, ok := d.value(ngTraceparent)
	if !ok {
		return false
	}
	buf := append(d.scratch[:0], rid...)
	if len(tp) > 0 {
		if buf, ok = decode.AppendTraceparentID(buf, tp); !ok {
			ev.TraceID = decode.TraceIDFromTraceparent(string(tp))
		}
	}
	d.scratch = buf
	if s := string(buf); len(s) > 0 {
		ev.RequestID = s[:len(rid)]
		if len(s) > len(rid) {
			ev.TraceID = s[len(rid):]
		}
	}
	return true
}
