package nginx

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// This file reads the fields of a matched line into the event (see the
// Format type's comment for what each variable marks).

// status sets the status, error class and completion from $status; it
// returns a reject reason and detail for a value that is not a code up to
// 999 ("-" and absent are no status).
func (d *nginxReader) status() (string, string) {
	s := d.raw(ngStatus)
	if len(s) == 0 || len(s) == 1 && s[0] == '-' {
		return "", ""
	}
	code, ok := textscan.Digits(s)
	if !ok { // more than 18 digits, or not digits: as strconv reads it
		c, err := strconv.Atoi(string(s))
		code, ok = int64(c), err == nil && c >= 0
	}
	if !ok || code > 999 {
		return "bad status", decode.TruncateDetail(string(s))
	}
	d.ev.Status = d.arena.Int32(int32(code))
	d.ev.Error = decode.ErrorClass(int(code))
	d.ev.Completed = d.arena.Bool(code >= 200 && code < 300)
	return "", ""
}

// instants sets the end, start, headers and connect time; it returns a
// reject reason and detail for a time it cannot read.
func (d *nginxReader) instants() (string, string) {
	end, coarse, reason, detail := d.end()
	if reason != "" {
		return reason, detail
	}
	ev := &d.ev
	ev.EndNs = d.arena.Int64(end)
	if coarse {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "time_resolution", Val: "1s"})
	}
	v := d.raw(ngRequestTime)
	rt, set, err := nginxSeconds(v)
	if err != nil {
		return "bad duration", "request_time " + decode.TruncateDetail(string(v))
	}
	if set {
		ev.StartNs = d.arena.Int64(end - rt)
	}
	var lists [3]nginxAttemptSum
	for i := range lists {
		k := ngUpConnect + i
		var ok bool
		if lists[i], ok = nginxSumAttempts(d.raw(k)); !ok {
			return "bad duration", nginxPlanNames[k] + " " + decode.TruncateDetail(string(d.raw(k)))
		}
	}
	if lists[0].lastSet {
		ev.ConnectNs = d.arena.Int64(lists[0].last)
	}
	if at, ok := nginxHeadersAt(ev.StartNs, end, lists[1], lists[2]); ok {
		ev.HeadersNs = d.arena.Int64(at)
	}
	return "", ""
}

// end returns the end instant in Unix ns from $msec, else from $time_local
// or $time_iso8601 (coarse: one-second resolution), or a reject reason.
func (d *nginxReader) end() (end int64, coarse bool, reason, detail string) {
	if v := d.raw(ngMsec); len(v) > 0 && !(len(v) == 1 && v[0] == '-') {
		ns, _, err := nginxSeconds(v)
		if err != nil {
			return 0, false, "bad timestamp", "msec " + decode.TruncateDetail(string(v))
		}
		return ns, false, "", ""
	}
	if d.plan.at[ngTimeLocal] >= 0 {
		v := d.raw(ngTimeLocal)
		if ns, ok := textscan.TimeLocalNs(v); ok {
			return ns, true, "", ""
		}
		return nginxParseEnd("time_local", nginxTimeLocal, v)
	}
	if d.plan.at[ngTimeISO] >= 0 {
		v := d.raw(ngTimeISO)
		if ns, ok := textscan.RFC3339Ns(v); ok {
			return ns, true, "", ""
		}
		return nginxParseEnd("time_iso8601", time.RFC3339, v)
	}
	return 0, false, "missing timestamp", "no $msec, $time_local or $time_iso8601 value"
}

// nginxParseEnd reads the value v of the clock variable name by
// time.Parse's layout (what textscan's readers do not take: a month
// in other case, years out of their range), or returns the reject reason.
func nginxParseEnd(name, layout string, v []byte) (int64, bool, string, string) {
	ns, err := textscan.ParseNs(layout, string(v), time.UTC)
	if err != nil {
		return 0, false, textscan.TimeReason(err, "bad timestamp"), name + " " + decode.TruncateDetail(string(v))
	}
	return ns, true, "", ""
}

// request sets the endpoint and method from $request ("GET /p HTTP/1.1"),
// else $request_uri or $uri, and $request_method.
func (d *nginxReader) request() {
	var method, endpoint []byte
	if req := d.value(ngRequest); len(req) > 0 {
		m, target := nginxRequestFields(req)
		if len(target) > 0 && target[0] == '/' {
			endpoint = decode.EndpointPathBytes(target)
		} else if bytes.HasPrefix(target, []byte("http://")) || bytes.HasPrefix(target, []byte("https://")) {
			endpoint = []byte(nginxTargetPath(string(target)))
		}
		if len(endpoint) > 0 {
			method = m
		}
	}
	for _, k := range []int{ngRequestURI, ngURI} {
		if v := d.value(k); len(endpoint) == 0 && len(v) > 0 && v[0] == '/' {
			endpoint = decode.EndpointPathBytes(v)
		}
	}
	if m := d.value(ngRequestMethod); len(m) > 0 {
		method = m
	}
	if len(endpoint) > 0 {
		d.ev.Endpoint = d.strs.Get(endpoint)
	}
	if len(method) > 0 {
		d.attrs = append(d.attrs, decode.AttrKV{Key: "method", Val: d.strs.Get(method)})
	}
}

// nginxRequestFields returns the first two fields of a request line as
// strings.Fields splits it (nil when there are fewer than two). Fields of
// printable ASCII separated by spaces are read in place; other white space
// and non-ASCII bytes, which strings.Fields may treat as separators, go to
// strings.Fields. What follows the second field is not looked at.
func nginxRequestFields(req []byte) (method, target []byte) {
	var fields [2][]byte
	n := 0
	for i := 0; i < len(req); {
		if req[i] == ' ' {
			i++
			continue
		}
		j := i
		for ; j < len(req) && req[j] != ' '; j++ {
			if !decode.ASCIIGraphic(req[j]) {
				if f := strings.Fields(string(req)); len(f) >= 2 {
					return []byte(f[0]), []byte(f[1])
				}
				return nil, nil
			}
		}
		fields[n] = req[i:j]
		if n, i = n+1, j; n == 2 {
			return fields[0], fields[1]
		}
	}
	return nil, nil
}

// ids sets RequestID, OtherIDs and TraceID from the id variables: the
// first non-empty one that is not an upstream's gives RequestID, the other
// distinct ones OtherIDs, $http_traceparent the TraceID. RequestID and
// TraceID share one allocation.
func (d *nginxReader) ids() {
	ev := &d.ev
	var rid []byte
	for _, id := range d.plan.ids {
		v := d.valueAt(id.at)
		switch {
		case len(v) == 0:
		case rid == nil && !id.upstream:
			rid = v
		case !bytes.Equal(v, rid) && !slices.Contains(ev.OtherIDs, string(v)):
			ev.OtherIDs = append(ev.OtherIDs, string(v))
		}
	}
	tp := d.value(ngTraceparent)
	buf := append(d.scratch[:0], rid...)
	if len(tp) > 0 {
		var ok bool
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
}
