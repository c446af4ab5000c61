package genaiperf

import (
	"strconv"

	gojson "github.com/goccy/go-json"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// A request object read whole. What the one-pass reading of
// genaiperf_read.go does not take (the layouts other than OpenAI
// responses, keys in another order, case-folded or escaped keys, values it
// does not expect, a request it rejects) is read here once the object is in
// the buffer, as encoding/json decodes it into gpRequest: keys matched by
// jsonwalk.FieldIndex, strings decoded by jsonwalk.Text, null as no value,
// each response accounted for by gpStream.output. A key named twice in a
// request, its request_inputs or an output entry is rejected ("repeated
// key"): which of the two counts would be a guess.

// gpRequest is what encoding/json decodes a request object into; it only
// words the reject of a request whose values have the wrong types.
type gpRequest struct {
	Timestamp     *int64 `json:"timestamp"`
	RequestInputs struct {
		Payload string `json:"payload"`
	} `json:"request_inputs"`
	ResponseTimestamps []int64    `json:"response_timestamps"`
	ResponseOutputs    []gpOutput `json:"response_outputs"`
}

// gpOutput is what encoding/json decodes a response_outputs entry into.
type gpOutput struct {
	Response   *string           `json:"response"`
	TextOutput *string           `json:"text_output"`
	OutputIDs  gojson.RawMessage `json:"output_ids"`
}

// gpRefuse words why raw, a request object with a value of the wrong type,
// cannot be read, as encoding/json says it.
func gpRefuse(raw []byte) string {
	if err := gojson.Unmarshal(raw, &gpRequest{}); err != nil {
		return err.Error()
	}
	return "unexpected value"
}

// gpWhole is a request object's fields as wholeRequest reads them.
type gpWhole struct {
	b        []byte // the request value
	hasStart bool
	start    int64 // the request's timestamp
	payload  []byte
	times    []int64
	outs     []gpOut
	seen     int    // bits of the keys read: gpRequestKeys, then payload
	wrong    bool   // a value of the wrong type
	repeated string // a key named twice
	stack    []byte // scratch for jsonwalk.Skip
}

// wholeRequest reads the request value at b[i] in full and returns its
// event, or its reject reason and detail, and the index past it; end is
// gpMore when b ends first and gpBail when the value is not JSON.
func (q *gpQuick) wholeRequest(b []byte, i int) (ev *schema.Event, reason, detail string, end int) {
	end, st, stack := jsonwalk.ValueEnd(b, i, q.stack)
	q.stack = stack
	switch st {
	case jsonwalk.More:
		return nil, "", "", gpMore
	case jsonwalk.Bad:
		return nil, "", "", gpBail
	}
	w := &gpWhole{b: b[i:end], stack: q.stack}
	switch w.b[0] {
	case 'n': // null: a request without a timestamp
	case '{':
		jsonwalk.WalkObject(w.b, 0, w.member)
	default:
		w.wrong = true
	}
	ev, reason, detail = w.event()
	return ev, reason, detail, end
}

// event builds the request's event, or returns why it is rejected.
func (w *gpWhole) event() (*schema.Event, string, string) {
	switch {
	case w.wrong:
		return nil, "bad request", gpRefuse(w.b)
	case w.repeated != "":
		return nil, "repeated key", w.repeated
	case !w.hasStart:
		return nil, "missing timestamp", ""
	case w.start <= 0:
		return nil, "bad timestamp", strconv.FormatInt(w.start, 10)
	}
	if reason, detail := gpCheckTimes(len(w.outs), w.times, w.start); reason != "" {
		return nil, reason, detail
	}
	s := &gpStream{start: w.start, stack: w.stack}
	for i, ts := range w.times {
		if i < len(w.outs) {
			if reason := s.output(w.outs[i], ts); reason != "" {
				return nil, reason, "response " + strconv.Itoa(i)
			}
		}
		s.lastNs = ts
	}
	if why := s.unreadableLayout(); why != "" {
		return nil, "unknown response layout", why
	}
	return s.result(len(w.times), string(w.payload)), "", ""
}

// key notes that key bit k was read, and its name when it was before.
func (w *gpWhole) key(seen *int, k int, name string) {
	if *seen&(1<<k) != 0 {
		w.repeated = name
	}
	*seen |= 1 << k
}

// member reads the request member whose raw key is key and value b[j].
func (w *gpWhole) member(key []byte, j int) int {
	end := jsonwalk.Skip(w.b, j, &w.stack)
	k, _ := jsonwalk.FieldIndex(key, gpRequestKeys)
	if k < 0 {
		return end
	}
	w.key(&w.seen, k, gpRequestKeys[k])
	if w.b[j] == 'n' { // null: no timestamp, no lists; request_inputs unchanged
		switch k {
		case 0:
			w.hasStart = false
		case 2:
			w.times = nil
		case 3:
			w.outs = nil
		}
		return end
	}
	var ok bool
	switch k {
	case 0:
		var err error
		w.start, err = strconv.ParseInt(string(w.b[j:end]), 10, 64)
		w.hasStart, ok = err == nil, err == nil
	case 1:
		ok = jsonwalk.WalkObject(w.b, j, w.input) >= 0
	case 2:
		w.times = w.times[:0]
		ok = jsonwalk.WalkArray(w.b, j, w.time) >= 0
	case 3:
		w.outs = w.outs[:0]
		ok = jsonwalk.WalkArray(w.b, j, w.output) >= 0
	}
	w.wrong = w.wrong || !ok
	return end
}

// input reads a member of request_inputs; -1 for a payload that is not a
// string.
func (w *gpWhole) input(key []byte, j int) int {
	end := jsonwalk.Skip(w.b, j, &w.stack)
	if k, _ := jsonwalk.FieldIndex(key, gpInputKeys); k != 0 {
		return end
	}
	w.key(&w.seen, len(gpRequestKeys), "payload")
	switch w.b[j] {
	case 'n':
	case '"':
		w.payload, _, _ = jsonwalk.Text(w.b, j)
	default:
		return -1
	}
	return end
}

// time reads one response timestamp (null is 0, as encoding/json leaves
// it); -1 for a value that is not an int64.
func (w *gpWhole) time(j int) int {
	end := jsonwalk.Skip(w.b, j, &w.stack)
	var t int64
	if w.b[j] != 'n' {
		var err error
		if t, err = strconv.ParseInt(string(w.b[j:end]), 10, 64); err != nil {
			return -1
		}
	}
	w.times = append(w.times, t)
	return end
}

// output reads one response_outputs entry (null is an entry without
// fields); -1 for an entry that is not an object of the expected types.
func (w *gpWhole) output(j int) int {
	end := jsonwalk.Skip(w.b, j, &w.stack)
	var o gpOut
	if w.b[j] != 'n' {
		seen := 0
		if jsonwalk.WalkObject(w.b, j, func(key []byte, v int) int { return w.outputMember(&o, &seen, key, v) }) < 0 {
			return -1
		}
	}
	w.outs = append(w.outs, o)
	return end
}

// outputMember reads the member of an output entry o whose raw key is key
// and value b[j].
func (w *gpWhole) outputMember(o *gpOut, seen *int, key []byte, j int) int {
	end := jsonwalk.Skip(w.b, j, &w.stack)
	k, _ := jsonwalk.FieldIndex(key, gpOutputKeys)
	if k < 0 {
		return end
	}
	w.key(seen, k, gpOutputKeys[k])
	if k == 2 {
		o.ids, o.hasIDs = gpCountIDs(w.b[j:end]), true
		return end
	}
	var s []byte
	switch w.b[j] {
	case 'n':
	case '"':
		s, _, _ = jsonwalk.Text(w.b, j)
	default:
		return -1
	}
	if k == 0 {
		o.resp, o.hasResp = s, w.b[j] == '"'
	} else {
		o.text, o.hasText = s, w.b[j] == '"'
	}
	return end
}
