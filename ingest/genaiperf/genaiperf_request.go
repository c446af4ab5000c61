package genaiperf

import (
	"strconv"

	gojson "github.com/goccy/go-json"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// A request object is read in place, once it is in the scanner's buffer,
// as encoding/json decodes it into gpRequest: keys matched by
// jsonwalk.FieldIndex (escaped or case-folded keys, in any order), strings
// decoded by jsonwalk.Text, null as no value, every value checked for its
// type. When its timestamp and response times come before its outputs (as
// perf_analyzer writes them) each output is accounted for as it is read,
// else once the object is read. An OpenAI response is read as SSE lines in
// its escaped form (genaiperf_read_sse.go); when that reading stops, the
// request is read again with every response unescaped and accounted for by
// gpStream.output. A key named twice in a request, its request_inputs or
// an output entry is rejected ("repeated key"): which of the two counts
// would be a guess.

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

// gpReading is one reading of a request object held in b.
type gpReading struct {
	q        *gpQuick
	b        []byte // the buffer holding the request
	at, end  int    // the request is b[at:end]
	escaped  bool   // OpenAI responses are read in their escaped form
	hasStart bool
	start    int64 // the request's timestamp
	payload  []byte
	times    []int64
	outs     []gpEntry // the entries read but not accounted for yet
	entries  int       // the entries read
	inline   bool      // the entries are accounted for as they are read
	seen     int       // bits of the keys read: gpRequestKeys, then payload
	wrong    bool      // a value of the wrong type
	repeated string    // a key named twice
	stop     bool      // the escaped reading stopped
	reason   string    // the first reject of an entry accounted for inline
	detail   string
	stack    []byte // scratch for jsonwalk
}

// gpEntry is one response_outputs entry: where its response and
// text_output strings start in b (-1: absent or null), its output_ids, and
// done once its response was accounted for as it was read.
type gpEntry struct {
	resp, text int
	ids        int32
	hasIDs     bool
	done       bool
}

// request reads the request value at b[i] and returns its event, or its
// reject reason and detail, and the index past it; end is gpMore when b
// ends first and gpBail when the value is not JSON. inline reports that its
// outputs were read in one pass, escaped.
func (q *gpQuick) request(b []byte, i int) (ev *schema.Event, reason, detail string, end int, inline bool) {
	for _, escaped := range []bool{true, false} {
		r := &gpReading{q: q, b: b, at: i, escaped: escaped, stack: q.stack, times: q.times[:0], outs: q.outs[:0]}
		q.reset(b)
		end = r.read(i)
		q.stack, q.times, q.outs = r.stack, r.times, r.outs
		if end < 0 {
			return nil, "", "", end, false
		}
		r.end = end
		if ev, reason, detail, ok := r.event(); ok || !escaped { // the unescaped reading never stops
			return ev, reason, detail, end, escaped && r.inline
		}
	}
	return nil, "", "", gpBail, false // not reached
}

// read reads the request value at b[i] and returns the index past it, or
// gpMore or gpBail.
func (r *gpReading) read(i int) int {
	end := -1
	if r.b[i] == '{' {
		end = jsonwalk.WalkObject(r.b, i, r.member)
	}
	if end >= 0 {
		return end
	}
	end, st, stack := jsonwalk.ValueEnd(r.b, i, r.stack)
	r.stack = stack
	switch st {
	case jsonwalk.More:
		return gpMore
	case jsonwalk.Bad:
		return gpBail
	}
	r.wrong = r.wrong || (!r.stop && r.b[i] != 'n') // null is a request without a timestamp
	return end
}

// event builds the request's event from its fields, or returns why it is
// rejected; ok is false when the escaped reading stopped.
func (r *gpReading) event() (ev *schema.Event, reason, detail string, ok bool) {
	if r.stop {
		return nil, "", "", false
	}
	if reason, detail := r.reject(); reason != "" {
		return nil, reason, detail, true
	}
	s := &r.q.s
	s.start = r.start
	for i, ts := range r.times[:min(len(r.times), len(r.outs))] {
		if reason := r.account(r.outs[i], ts); reason != "" {
			return nil, reason, "response " + strconv.Itoa(i), true
		}
		if r.stop {
			return nil, "", "", false
		}
	}
	if why := s.unreadableLayout(); why != "" {
		return nil, "unknown response layout", why, true
	}
	return r.q.finish(r.start, r.times, string(r.payload)), "", "", true
}

// reject returns why the request is rejected, or "".
func (r *gpReading) reject() (string, string) {
	switch {
	case r.wrong:
		return "bad request", gpRefuse(r.b[r.at:r.end])
	case r.repeated != "":
		return "repeated key", r.repeated
	case !r.hasStart:
		return "missing timestamp", ""
	case r.start <= 0:
		return "bad timestamp", strconv.FormatInt(r.start, 10)
	}
	if reason, detail := gpCheckTimes(r.entries, r.times, r.start); reason != "" {
		return reason, detail
	}
	return r.reason, r.detail
}

// account accounts for the entry o read at ts and returns its reject
// reason, or ""; r.stop is set when its escaped reading stopped.
func (r *gpReading) account(o gpEntry, ts int64) string {
	if r.escaped && o.resp >= 0 && o.text < 0 && !o.hasIDs {
		r.stop = r.q.response(r.b, o.resp, ts) < 0
		return ""
	}
	g := gpOut{ids: o.ids, hasIDs: o.hasIDs}
	if o.resp >= 0 {
		g.resp, _, g.hasResp = jsonwalk.Text(r.b, o.resp)
	}
	if o.text >= 0 {
		g.text, _, g.hasText = jsonwalk.Text(r.b, o.text)
	}
	return r.q.s.output(g, ts)
}

// key notes that key bit k was read, and its name when it was before.
func (r *gpReading) key(seen *int, k int, name string) {
	if *seen&(1<<k) != 0 {
		r.repeated = name
	}
	*seen |= 1 << k
}

// member reads the request member whose raw key is key and value b[j]; -1
// when the value is not JSON, b ends inside it or the escaped reading
// stopped in it.
func (r *gpReading) member(key []byte, j int) int {
	k, _ := jsonwalk.FieldIndex(key, gpRequestKeys)
	switch {
	case k == 3 && r.b[j] == '[': // the outputs, walked (and validated) once
		r.inline = r.seen&(1<<3) == 0 && r.timed()
		r.key(&r.seen, k, gpRequestKeys[k])
		r.outs, r.entries = r.outs[:0], 0
		return jsonwalk.WalkArray(r.b, j, r.output)
	case k == 2 && r.b[j] == '[': // the times, likewise
		r.key(&r.seen, k, gpRequestKeys[k])
		r.times = r.times[:0]
		return jsonwalk.WalkArray(r.b, j, r.time)
	}
	end, st, stack := jsonwalk.ValueEnd(r.b, j, r.stack)
	if r.stack = stack; st != jsonwalk.OK {
		return -1
	}
	if k < 0 {
		return end
	}
	r.key(&r.seen, k, gpRequestKeys[k])
	if r.b[j] == 'n' { // null: no timestamp, no lists; request_inputs unchanged
		switch k {
		case 0:
			r.hasStart = false
		case 2:
			r.times = nil
		case 3:
			r.outs, r.entries = nil, 0
		}
		return end
	}
	ok := false
	switch k {
	case 0:
		var e int
		r.start, e = gpOuterInt(r.b, j)
		r.hasStart, ok = e == end, e == end
	case 1:
		ok = jsonwalk.WalkObject(r.b, j, r.input) >= 0
	}
	r.wrong = r.wrong || !ok
	return end
}

// timed reports whether the timestamp and the response times were read
// and pass gpCheckTimes, so that outputs can be accounted for as they are
// read.
func (r *gpReading) timed() bool {
	ok := r.seen&5 == 5 && !r.wrong && r.repeated == "" && r.hasStart && r.start > 0
	if ok {
		reason, _ := gpCheckTimes(0, r.times, r.start)
		ok = reason == ""
	}
	r.q.s.start = r.start
	return ok
}

// input reads a member of request_inputs; -1 for a payload that is not a
// string.
func (r *gpReading) input(key []byte, j int) int {
	end := jsonwalk.Skip(r.b, j, &r.stack)
	if k, _ := jsonwalk.FieldIndex(key, gpInputKeys); k != 0 {
		return end
	}
	r.key(&r.seen, len(gpRequestKeys), "payload")
	switch r.b[j] {
	case 'n':
	case '"':
		r.payload, _, _ = jsonwalk.Text(r.b, j)
	default:
		return -1
	}
	return end
}

// time reads and validates one response timestamp (null is 0, as
// encoding/json leaves it); -1 when it is not JSON or b ends inside it.
func (r *gpReading) time(j int) int {
	t, end := gpOuterInt(r.b, j)
	switch {
	case end == gpMore:
		return -1
	case end < 0 && r.b[j] == 'n':
		var st int
		if end, st = jsonwalk.LiteralEnd(r.b, j); st != jsonwalk.OK {
			return -1
		}
	case end < 0:
		return r.wrongValue(j)
	}
	r.times = append(r.times, t)
	return end
}

// output reads and validates one response_outputs entry at b[j] (null is
// an entry without fields) and accounts for it when the outputs are read
// inline; -1 when it is not JSON, b ends inside it or the escaped reading
// stopped in it.
func (r *gpReading) output(j int) int {
	n := r.entries
	r.entries++
	o := gpEntry{resp: -1, text: -1}
	end := -1
	switch r.b[j] {
	case 'n':
		var st int
		if end, st = jsonwalk.LiteralEnd(r.b, j); st != jsonwalk.OK {
			return -1
		}
	case '{':
		seen := 0
		end = jsonwalk.WalkObject(r.b, j, func(key []byte, v int) int { return r.entryMember(&o, &seen, n, key, v) })
	default:
		return r.wrongValue(j)
	}
	switch {
	case end < 0 || o.done:
	case r.inline && n < len(r.times):
		if reason := r.account(o, r.times[n]); reason != "" && r.reason == "" {
			r.reason, r.detail = reason, "response "+strconv.Itoa(n)
		}
	default:
		r.outs = append(r.outs, o)
	}
	return end
}

// wrongValue validates the value at b[j], of a type the request may not
// hold there, and returns the index past it (-1 when it is not JSON).
func (r *gpReading) wrongValue(j int) int {
	end, st, stack := jsonwalk.ValueEnd(r.b, j, r.stack)
	if r.stack = stack; st != jsonwalk.OK {
		return -1
	}
	r.wrong = true
	return end
}

// entryMember reads and validates the member of the n-th output entry o
// whose raw key is key and value b[j]. An entry's response that is its
// first field is read and accounted for in place when the outputs are read
// inline and escaped.
func (r *gpReading) entryMember(o *gpEntry, seen *int, n int, key []byte, j int) int {
	k := 0
	if string(key) != "response" { // what nearly every entry holds, as written
		k, _ = jsonwalk.FieldIndex(key, gpOutputKeys)
	}
	if k == 0 && *seen == 0 && r.inline && r.escaped && n < len(r.times) && r.b[j] == '"' {
		r.key(seen, k, gpOutputKeys[k])
		o.done = true
		end := r.q.response(r.b, j, r.times[n])
		r.stop = end < 0
		return end
	}
	end, st, stack := jsonwalk.ValueEnd(r.b, j, r.stack)
	if r.stack = stack; st != jsonwalk.OK {
		return -1
	}
	if k < 0 {
		return end
	}
	if o.done { // another field after the response read in place
		r.stop = true
		return -1
	}
	r.key(seen, k, gpOutputKeys[k])
	if k == 2 {
		o.ids, o.hasIDs = gpCountIDs(r.b[j:end]), true
		return end
	}
	at := -1
	switch r.b[j] {
	case 'n':
	case '"':
		at = j
	default:
		r.wrong = true
	}
	if k == 0 {
		o.resp = at
	} else {
		o.text = at
	}
	return end
}

// gpOuterInt reads the integer at b[i] (no fraction or exponent, within
// int64) and returns it and the index past it.
func gpOuterInt(b []byte, i int) (int64, int) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	var u uint64
	first := j
	for j < len(b) && j-first < 20 {
		d := b[j] - '0'
		if d > 9 {
			break
		}
		u = u*10 + uint64(d)
		j++
	}
	n := j - first
	switch {
	case j >= len(b):
		return 0, gpMore
	case n == 0 || n >= 20 || (n > 1 && b[first] == '0'):
		return 0, gpBail
	case b[j] == '.' || b[j] == 'e' || b[j] == 'E' || (b[j] >= '0' && b[j] <= '9'):
		return 0, gpBail
	}
	limit := uint64(1<<63 - 1)
	if first > i {
		limit++
	}
	if u > limit {
		return 0, gpBail
	}
	if first > i {
		return -int64(u), j
	}
	return int64(u), j
}
