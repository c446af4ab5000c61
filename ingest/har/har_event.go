package har

import (
	"bytes"
	"net/url"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// event builds the event of the entry in r.e, or a skip or reject reason.
func (r *reader) event() (ev *schema.Event, skip, reason, detail string) {
	e := &r.e
	u, err := url.Parse(string(e.url))
	if err != nil {
		return nil, "", "bad url", string(e.url)
	}
	if !harLLMPath(u.Path, r.endpoints) {
		return nil, "not an LLM endpoint", "", ""
	}
	start, err := textscan.ParseNs(time.RFC3339Nano, string(e.started), time.UTC)
	if err != nil {
		return nil, "", textscan.TimeReason(err, "bad timestamp"), string(e.started)
	}
	ev = &r.ev // the sink copies it
	*ev = schema.Event{StartNs: r.arena.Int64(start), Endpoint: u.Path}
	if reason, detail := r.instants(ev, start); reason != "" {
		return nil, "", reason, detail
	}
	r.ids(ev)
	r.requestBody(ev)
	if e.status > 0 {
		ev.Status = r.arena.Int32(int32(e.status))
		ev.Error = decode.ErrorClass(int(e.status))
	} else {
		ev.Error, ev.Completed = schema.ErrorInterrupted, r.arena.Bool(false)
	}
	r.responseBody(ev)
	return ev, "", "", ""
}

// harLLMPath reports whether path ends in one of the endpoints.
func harLLMPath(path string, endpoints []string) bool {
	for _, p := range endpoints {
		if p != "" && strings.HasSuffix(path, p) {
			return true
		}
	}
	return false
}

// instants sets headers and end from the timings (ms): headers is start
// plus the phases before receive that apply (-1: does not apply), when
// wait applies and there was a response; end is start plus time, else
// plus all the phases.
func (r *reader) instants(ev *schema.Event, start int64) (string, string) {
	var sum, beforeHeaders int64
	for k, v := range r.e.timings {
		if v == nil {
			continue
		}
		ns, ok := textscan.DecimalScaledBytes(v, 6)
		if !ok || ns < -1e6 {
			return "bad timing", timingNames[k] + "=" + string(v)
		}
		if ns < 0 {
			continue
		}
		sum += ns
		if timingNames[k] != "receive" {
			beforeHeaders += ns
		}
	}
	if w, ok := textscan.DecimalScaledBytes(r.e.timings[4], 6); ok && w >= 0 && r.e.status > 0 { // wait
		ev.HeadersNs = r.arena.Int64(start + beforeHeaders)
	}
	if r.e.time != nil {
		total, ok := textscan.DecimalScaledBytes(r.e.time, 6)
		if !ok || total < 0 {
			return "bad timing", "time=" + string(r.e.time)
		}
		sum = total
	}
	ev.EndNs = r.arena.Int64(start + sum)
	return "", ""
}

// ids reads the id headers of request and response: request x-request-id
// and traceparent, response x-request-id, request-id and
// x-litellm-call-id, names matched as strings.ToLower lowers them.
func (r *reader) ids(ev *schema.Event) {
	for _, h := range r.e.headers[0] {
		switch idHeader(h.name) {
		case "x-request-id":
			ev.RequestID = string(h.value)
		case "traceparent":
			ev.TraceID = decode.TraceIDFromTraceparent(string(h.value))
		}
	}
	for _, h := range r.e.headers[1] {
		switch idHeader(h.name) {
		case "x-request-id", "request-id", "x-litellm-call-id":
			if ev.RequestID == "" {
				ev.RequestID = string(h.value)
			} else if string(h.value) != ev.RequestID {
				ev.OtherIDs = append(ev.OtherIDs, string(h.value))
			}
		}
	}
}

// idHeaderNames are the header names ids reads.
var idHeaderNames = []string{"x-request-id", "traceparent", "request-id", "x-litellm-call-id"}

// idHeader returns the one of idHeaderNames that strings.ToLower lowers
// name to, or "".
func idHeader(name []byte) string {
	for _, c := range name {
		if c >= 0x80 {
			lower := strings.ToLower(string(name))
			for _, n := range idHeaderNames {
				if lower == n {
					return n
				}
			}
			return ""
		}
	}
	for _, n := range idHeaderNames { // ASCII: folding is lowering
		if bytes.EqualFold(name, []byte(n)) {
			return n
		}
	}
	return ""
}
