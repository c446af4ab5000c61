package nginx

import (
	"errors"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// nginxTimeLocal is the layout of $time_local.
const nginxTimeLocal = "02/Jan/2006:15:04:05 -0700"

// nginxHasClock reports whether a log_format logs the end instant at all.
func nginxHasClock(f *nginxLogFormat) bool {
	for _, v := range f.vars {
		switch v.name {
		case "msec", "time_local", "time_iso8601":
			return true
		}
	}
	return false
}

// nginxInstants sets the end, start, headers and connect time of ev from the
// timing variables (see the nginx type's comment for what each one marks).
func nginxInstants(ev *schema.Event, vals map[string]string) (string, string) {
	end, coarse, reason, detail := nginxEnd(vals)
	if reason != "" {
		return reason, detail
	}
	ev.EndNs = decode.Ptr(end)
	if coarse {
		ev.Attrs["time_resolution"] = "1s"
	}
	if rt, ok, err := nginxSeconds(vals["request_time"]); err != nil {
		return "bad duration", "request_time " + decode.TruncateDetail(vals["request_time"])
	} else if ok {
		ev.StartNs = decode.Ptr(end - rt)
	}
	var lists [3][]*int64
	for i, name := range []string{"upstream_connect_time", "upstream_header_time", "upstream_response_time"} {
		l, err := nginxAttempts(vals[name])
		if err != nil {
			return "bad duration", name + " " + decode.TruncateDetail(vals[name])
		}
		lists[i] = l
	}
	ev.ConnectNs = nginxLastAttempt(lists[0])
	ev.HeadersNs = nginxHeaders(ev.StartNs, end, lists[1], lists[2])
	return "", ""
}

// nginxEnd returns the end instant in Unix ns from $msec, else from
// $time_local or $time_iso8601 (coarse: one-second resolution).
func nginxEnd(vals map[string]string) (end int64, coarse bool, reason, detail string) {
	if v := vals["msec"]; v != "" && v != "-" {
		ns, ok, err := nginxSeconds(v)
		if err != nil || !ok {
			return 0, false, "bad timestamp", "msec " + decode.TruncateDetail(v)
		}
		return ns, false, "", ""
	}
	for _, k := range []struct{ name, layout string }{{"time_local", nginxTimeLocal}, {"time_iso8601", time.RFC3339}} {
		v, ok := vals[k.name]
		if !ok {
			continue
		}
		ns, err := textscan.ParseNs(k.layout, v, time.UTC)
		if err != nil {
			return 0, false, textscan.TimeReason(err, "bad timestamp"), k.name + " " + decode.TruncateDetail(v)
		}
		return ns, true, "", ""
	}
	return 0, false, "missing timestamp", "no $msec, $time_local or $time_iso8601 value"
}

// nginxHeaders estimates the instant the answering upstream's response
// headers arrived: end − its response time + its header time, or, without
// its response time, start + the earlier attempts' response times + its
// header time (a lower bound). The result is clamped to [start, end].
func nginxHeaders(start *int64, end int64, hdr, resp []*int64) *int64 {
	h := nginxLastAttempt(hdr)
	if h == nil {
		return nil
	}
	var at int64
	switch r := nginxLastAttempt(resp); {
	case r != nil && len(resp) == len(hdr):
		at = end - *r + *h
	case start != nil:
		at = *start + *h
		for _, d := range resp[:max(0, len(resp)-1)] {
			if d != nil {
				at += *d
			}
		}
	default:
		return nil
	}
	if start != nil && at < *start {
		at = *start
	}
	return decode.Ptr(min(at, end))
}

// nginxLastAttempt returns the answering (last) attempt's value, or nil.
func nginxLastAttempt(l []*int64) *int64 {
	if len(l) == 0 {
		return nil
	}
	return l[len(l)-1]
}

// nginxAttempts parses an upstream time list ("0.010, 0.020 : 0.030") into
// one duration in ns per attempt, nil where nginx wrote "-". An absent
// variable gives an empty list.
func nginxAttempts(v string) ([]*int64, error) {
	if v == "" {
		return nil, nil
	}
	var out []*int64
	for _, group := range strings.Split(v, " : ") {
		for _, item := range strings.Split(group, ", ") {
			ns, ok, err := nginxSeconds(item)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, decode.Ptr(ns))
			} else {
				out = append(out, nil)
			}
		}
	}
	return out, nil
}

var errNginxSeconds = errors.New("bad seconds value")

// nginxSeconds parses nginx's "seconds with a milliseconds resolution"
// ("12.345") exactly into nanoseconds; "-" and "" give ok=false. It reads
// strings and line bytes alike.
func nginxSeconds[S ~string | ~[]byte](s S) (ns int64, ok bool, err error) {
	if len(s) == 0 || len(s) == 1 && s[0] == '-' {
		return 0, false, nil
	}
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		ns = ns*10 + int64(s[i]-'0')
	}
	if i == 0 || i > 10 || ns > 9e9 { // 9e9 s is beyond int64 nanoseconds
		return 0, false, errNginxSeconds
	}
	ns *= 1e9
	if i == len(s) {
		return ns, true, nil
	}
	if s[i] != '.' || len(s)-i-1 > 9 {
		return 0, false, errNginxSeconds
	}
	// The fraction's digits as an integer, scaled once (a division per
	// digit was a sixth of nginxSeconds' instructions).
	var frac int64
	digits := len(s) - i - 1
	for i++; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false, errNginxSeconds
		}
		frac = frac*10 + int64(c)
	}
	return ns + frac*nginxFracScale[digits], true, nil
}

// nginxFracScale is the nanoseconds of a unit of the last digit of a
// fraction, by the number of its digits.
var nginxFracScale = [10]int64{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1}
