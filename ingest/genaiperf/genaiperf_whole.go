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

// gpWhole is a request object's fields as wholeRequest reads them from b.
type gpWhole struct {
	b        []byte // the buffer holding the request
	at, end  int    // the request is b[at:end]
	hasStart bool
	start    int64 // the request's timestamp
	payload  []byte
	times    []int64
	outs     []gpWholeOut
	seen     int    // bits of the keys read: gpRequestKeys, then payload
	wrong    bool   // a value of the wrong type
	repeated string // a key named twice
	stack    []byte // scratch for jsonwalk
}

// gpWholeOut is one response_outputs entry: where its response and
// text_output strings start in b (-1: absent or null) and its output_ids.
type gpWholeOut struct {
	resp, text int
	ids        int32
	hasIDs     bool
}

// wholeRequest reads the request value at b[i] in full and returns its
// event, or its reject reason and detail, and the index past it; end is
// gpMore when b ends first and gpBail when the value is not JSON. Its
// OpenAI responses are read as the one-pass reading reads them (escaped);
// when that reading stops, the request is read again with every response
// unescaped and accounted for by gpStream.output.
func (q *gpQuick) wholeRequest(b []byte, i int) (ev *schema.Event, reason, detail string, end int) {
	w := &gpWhole{b: b, at: i, stack: q.stack}
	if end = w.read(i); end < 0 {
		return nil, "", "", end
	}
	w.end = end
	ev, reason, detail, ok := w.event(q, true)
	if !ok {
		ev, reason, detail, _ = w.event(q, false)
	}
	return ev, reason, detail, end
}

// read reads the request value at b[i] and returns the index past it, or
// gpMore or gpBail.
func (w *gpWhole) read(i int) int {
	end := -1
	if w.b[i] == '{' {
		end = jsonwalk.WalkObject(w.b, i, w.member)
	}
	if end >= 0 {
		return end
	}
	end, st, stack := jsonwalk.ValueEnd(w.b, i, w.stack)
	w.stack = stack
	switch st {
	case jsonwalk.More:
		return gpMore
	case jsonwalk.Bad:
		return gpBail
	}
	w.wrong = w.b[i] != 'n' // null is a request without a timestamp
	return end
}

// event builds the request's event from its fields, or returns why it is
// rejected; escaped reads the OpenAI responses in their
// escaped form, and ok is false when that reading stopped.
func (w *gpWhole) event(q *gpQuick, escaped bool) (ev *schema.Event, reason, detail string, ok bool) {
	if reason, detail := w.reject(); reason != "" {
		return nil, reason, detail, true
	}
	q.reset(w.b)
	s := &q.s
	s.start = w.start
	for i, ts := range w.times[:min(len(w.times), len(w.outs))] {
		o := w.outs[i]
		if escaped && o.resp >= 0 && o.text < 0 && !o.hasIDs {
			if q.response(w.b, o.resp, ts) < 0 {
				return nil, "", "", false
			}
		} else if reason := s.output(w.out(o), ts); reason != "" {
			return nil, reason, "response " + strconv.Itoa(i), true
		}
	}
	if why := s.unreadableLayout(); why != "" {
		return nil, "unknown response layout", why, true
	}
	return q.finish(w.start, w.times, string(w.payload)), "", "", true
}

// reject returns why the request is rejected before its responses are
// read, or "".
func (w *gpWhole) reject() (string, string) {
	switch {
	case w.wrong:
		return "bad request", gpRefuse(w.b[w.at:w.end])
	case w.repeated != "":
		return "repeated key", w.repeated
	case !w.hasStart:
		return "missing timestamp", ""
	case w.start <= 0:
		return "bad timestamp", strconv.FormatInt(w.start, 10)
	}
	return gpCheckTimes(len(w.outs), w.times, w.start)
}

// out decodes the output entry o.
func (w *gpWhole) out(o gpWholeOut) gpOut {
	g := gpOut{ids: o.ids, hasIDs: o.hasIDs}
	if o.resp >= 0 {
		g.resp, _, g.hasResp = jsonwalk.Text(w.b, o.resp)
	}
	if o.text >= 0 {
		g.text, _, g.hasText = jsonwalk.Text(w.b, o.text)
	}
	return g
}

// key notes that key bit k was read, and its name when it was before.
func (w *gpWhole) key(seen *int, k int, name string) {
	if *seen&(1<<k) != 0 {
		w.repeated = name
	}
	*seen |= 1 << k
}

// member reads the request member whose raw key is key and value b[j]; -1
// when the value is not JSON or b ends inside it.
func (w *gpWhole) member(key []byte, j int) int {
	k, _ := jsonwalk.FieldIndex(key, gpRequestKeys)
	if k == 3 && w.b[j] == '[' { // the outputs, walked (and validated) once
		w.key(&w.seen, k, gpRequestKeys[k])
		w.outs = w.outs[:0]
		return jsonwalk.WalkArray(w.b, j, w.output)
	}
	end, st, stack := jsonwalk.ValueEnd(w.b, j, w.stack)
	if w.stack = stack; st != jsonwalk.OK {
		return -1
	}
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
	ok := false
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

// output reads and validates one response_outputs entry at b[j] (null is
// an entry without fields); -1 when it is not JSON or b ends inside it.
func (w *gpWhole) output(j int) int {
	o := gpWholeOut{resp: -1, text: -1}
	end := -1
	switch w.b[j] {
	case 'n':
		var st int
		if end, st = jsonwalk.LiteralEnd(w.b, j); st != jsonwalk.OK {
			return -1
		}
	case '{':
		seen := 0
		end = jsonwalk.WalkObject(w.b, j, func(key []byte, v int) int { return w.outputMember(&o, &seen, key, v) })
	default:
		return w.wrongValue(j)
	}
	w.outs = append(w.outs, o)
	return end
}

// wrongValue validates the value at b[j], of a type the request may not
// hold there, and returns the index past it (-1 when it is not JSON).
func (w *gpWhole) wrongValue(j int) int {
	end, st, stack := jsonwalk.ValueEnd(w.b, j, w.stack)
	if w.stack = stack; st != jsonwalk.OK {
		return -1
	}
	w.wrong = true
	return end
}

// outputMember reads and validates the member of an output entry o whose
// raw key is key and value b[j].
func (w *gpWhole) outputMember(o *gpWholeOut, seen *int, key []byte, j int) int {
	end, st, stack := jsonwalk.ValueEnd(w.b, j, w.stack)
	if w.stack = stack; st != jsonwalk.OK {
		return -1
	}
	k, _ := jsonwalk.FieldIndex(key, gpOutputKeys)
	if k < 0 {
		return end
	}
	w.key(seen, k, gpOutputKeys[k])
	if k == 2 {
		o.ids, o.hasIDs = gpCountIDs(w.b[j:end]), true
		return end
	}
	at := -1
	switch w.b[j] {
	case 'n':
	case '"':
		at = j
	default:
		w.wrong = true
	}
	if k == 0 {
		o.resp = at
	} else {
		o.text = at
	}
	return end
}
