package genaiperf

import (
	"bytes"
	"strconv"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the genai-perf decoder. Profiling the json.Decoder walk
// on a generated export showed its time in encoding/json's scanner (the
// request read as json.RawMessage), then in unmarshalling every request and
// every SSE event into structs; here a request is validated once by
// jsonValueEnd and then read in place: only timestamp, request_inputs.payload,
// response_timestamps and response_outputs are looked at, and in each SSE
// event only id, object, model, usage, error and each choice's
// delta/message/text/finish_reason. Whatever the fast path does not
// reproduce exactly (escaped or case-folded keys, duplicate keys, null or
// mistyped values, escaped ids, UTF-16 surrogates, error objects) sends the
// request or event to the struct decoding (gpEvent, gpChunk), so the events
// are the same either way; TestGenaiPerfFastMatchesSlow checks it on fuzzed
// input.

// gpFastRequest is one request object read in place by parse; its slices
// point into the object's bytes and are reused by the next request.
type gpFastRequest struct {
	timestamp int64
	payload   []byte // request_inputs.payload, a JSON string literal; nil when absent
	times     []int64
	outs      []gpRawOut
	unescaped []byte // scratch for one response's text
	stack     []byte // scratch for the JSON scanner
}

// gpRawOut is one response_outputs entry: its string literals, quotes included.
type gpRawOut struct{ resp, text []byte }

// gpFastKey reports whether key, a raw object key, is one of want (returning
// its index) and ok=false when it is escaped or only a case-folded match,
// which the struct decoding would read differently.
func gpFastKey(key []byte, want ...string) (int, bool) {
	if bytes.IndexByte(key, '\\') >= 0 {
		return -1, false
	}
	for i, w := range want {
		if string(key) == w {
			return i, true
		}
		if bytes.EqualFold(key, []byte(w)) {
			return -1, false
		}
	}
	return -1, true
}

// parse reads the request object raw (already validated); it reports false
// when the object needs the struct decoding.
func (r *gpFastRequest) parse(raw []byte) bool {
	*r = gpFastRequest{times: r.times[:0], outs: r.outs[:0], unescaped: r.unescaped, stack: r.stack}
	seen := 0
	end := jsonwalk.Object(raw, 0, func(key []byte, j int) int {
		k, ok := gpFastKey(key, "timestamp", "request_inputs", "response_timestamps", "response_outputs")
		switch {
		case !ok || (k >= 0 && seen&(1<<k) != 0):
			return -1
		case k < 0:
			return jsonwalk.Skip(raw, j, &r.stack)
		}
		seen |= 1 << k
		switch k {
		case 0:
			v, end, ok := jsonwalk.Int(raw, j)
			if !ok {
				return -1
			}
			r.timestamp = v
			return end
		case 1:
			return r.inputs(raw, j)
		case 2:
			return jsonwalk.Array(raw, j, func(e int) int {
				v, end, ok := jsonwalk.Int(raw, e)
				if !ok {
					return -1
				}
				r.times = append(r.times, v)
				return end
			})
		}
		return jsonwalk.Array(raw, j, func(e int) int { return r.output(raw, e) })
	})
	return end >= 0 && seen&1 != 0
}

// inputs reads request_inputs at raw[j], keeping only its payload string.
func (r *gpFastRequest) inputs(raw []byte, j int) int {
	return jsonwalk.Object(raw, j, func(key []byte, v int) int {
		k, ok := gpFastKey(key, "payload")
		switch {
		case !ok || (k == 0 && (r.payload != nil || raw[v] != '"')):
			return -1
		case k == 0:
			end, _ := jsonwalk.StringEnd(raw, v)
			r.payload = raw[v:end]
			return end
		}
		return jsonwalk.Skip(raw, v, &r.stack)
	})
}

// output reads one response_outputs entry at raw[j].
func (r *gpFastRequest) output(raw []byte, j int) int {
	var o gpRawOut
	end := jsonwalk.Object(raw, j, func(key []byte, v int) int {
		k, ok := gpFastKey(key, "response", "text_output")
		if !ok || (k >= 0 && raw[v] != '"') || (k == 0 && o.resp != nil) || (k == 1 && o.text != nil) {
			return -1
		}
		if k < 0 {
			return jsonwalk.Skip(raw, v, &r.stack)
		}
		end, _ := jsonwalk.StringEnd(raw, v)
		if k == 0 {
			o.resp = raw[v:end]
		} else {
			o.text = raw[v:end]
		}
		return end
	})
	r.outs = append(r.outs, o)
	return end
}

// event builds the request's event as gpEvent does; raw is the request
// object, decoded by gpEvent when a string needs the full decoder.
func (r *gpFastRequest) event(raw []byte, endpoint string) (*schema.Event, string, string) {
	start := r.timestamp
	if start <= 0 {
		return nil, "bad timestamp", strconv.FormatInt(start, 10)
	}
	if reason, detail := gpCheckTimes(len(r.outs), r.times, start); reason != "" {
		return nil, reason, detail
	}
	var payload string
	if r.payload != nil {
		p, ok := jsonwalk.AppendUnescaped(r.unescaped[:0], r.payload)
		if !ok {
			return gpEvent(raw, endpoint)
		}
		payload, r.unescaped = string(p), p
	}
	s := &gpStream{start: start}
	for i, ts := range r.times {
		if i < len(r.outs) {
			o, ok := r.unescape(r.outs[i])
			if !ok {
				return gpEvent(raw, endpoint)
			}
			if reason := s.output(o, ts); reason != "" {
				return nil, reason, "response " + strconv.Itoa(i)
			}
		}
		s.lastNs = ts
	}
	return s.result(len(r.times), payload, endpoint), "", ""
}

// unescape decodes one output's strings into the scratch buffer; ok is
// false when one needs the full decoder.
func (r *gpFastRequest) unescape(o gpRawOut) (gpOut, bool) {
	g := gpOut{hasResp: o.resp != nil, hasText: o.text != nil}
	buf, ok := r.unescaped[:0], true
	if g.hasResp {
		buf, ok = jsonwalk.AppendUnescaped(buf, o.resp)
	}
	n := len(buf)
	if ok && g.hasText {
		buf, ok = jsonwalk.AppendUnescaped(buf, o.text)
	}
	r.unescaped = buf
	g.resp, g.text = buf[:n], buf[n:]
	return g, ok
}
