package triton

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The trace array is split as a json.Decoder splits it (Token for the '[',
// then More and Decode for each element): white space, an element, then a
// comma or the end; a ']' or '}' where an element may start ends the array
// (what follows is not read), and an element that is not JSON is rejected
// in encoding/json's words (tritonRefuse) and ends the reading. Each
// element is read in place as encoding/json decodes it into Triton's entry
// struct (triton_entry.go); one it would refuse for a value of the wrong
// type is rejected as "invalid entry".
//
// Profiles showed the time in encoding/json (a Decoder splitting the array
// and a reflective Unmarshal of every entry), then ~20 allocations per
// trace: values now stay in an arena, the event, map and offsets are reused
// (triton_event.go), names are interned, and a timestamps element laid out
// as Triton writes it is matched directly (stamp).

// tritonReader reads a trace array in place.
type tritonReader struct {
	stack  []byte
	names  map[string]string // interned timestamp names, models and versions
	recent [64]string        // intern's cache
	entry  tritonEntry       // the element being read
	traces map[int64]*tritonTrace
	trs    []tritonTrace // traces, allocated in chunks
	vals   []int64       // first values of timestamp names, in chunks
	named  []tritonNamed // traces' timestamp names, in chunks
	last   *tritonTrace  // the trace of the previous entry read
}

// decode reads data, a whole input.
func (f *tritonReader) decode(in *decode.Input, data []byte, sink decode.Sink) error {
	i := jsonwalk.SkipWS(data, 0)
	if i == len(data) {
		return nil
	}
	if data[i] != '[' {
		return fmt.Errorf("triton: not a JSON array of trace entries")
	}
	f.names, f.traces = map[string]string{}, map[int64]*tritonTrace{}
	var order []*tritonTrace
	var line int64
	for i++; ; {
		if i = jsonwalk.SkipWS(data, i); i >= len(data) || data[i] == ']' || data[i] == '}' {
			break
		}
		line++
		if line > 1 {
			if data[i] != ',' {
				sink.Reject(decode.Pos{Line: line}, "invalid json", "expected comma after array element")
				break
			}
			i = jsonwalk.SkipWS(data, i+1)
		}
		end, tr, reason, detail := f.element(data, i, line)
		if end < 0 {
			sink.Reject(decode.Pos{Line: line}, "invalid json", detail)
			break
		}
		order = tritonReport(sink, order, tr, line, reason, detail)
		i = end
	}
	var out tritonOut
	out.finishAll(in, order, sink)
	return nil
}

// element reads the array element at data[j] and returns the index past
// it and its trace, or a reject reason and detail; end -1 (detail
// encoding/json's error) when the element is not JSON.
func (f *tritonReader) element(data []byte, j int, line int64) (end int, tr *tritonTrace, reason, detail string) {
	if j < len(data) && data[j] == '{' {
		if end = f.entry.read(f, data, j); end >= 0 {
			tr, reason, detail = f.apply(data[j:end], line)
			return end, tr, reason, detail
		}
	}
	end, st, grown := jsonwalk.ValueEnd(data, j, f.stack)
	if f.stack = grown[:0]; st != jsonwalk.OK {
		if end, detail = tritonRefuse(data, j); end < 0 {
			return -1, nil, "", detail
		}
	}
	if raw := data[j:end]; string(raw) != "null" {
		return end, nil, "invalid entry", decode.TruncateDetail(string(raw))
	}
	return end, nil, "missing id", "null"
}

// tritonRefuse decodes the element at data[j] as json.Decoder does and
// returns the index past it, or -1 and encoding/json's error (a syntax
// error, or the end of the input inside a value). It is reached for an
// element jsonwalk.ValueEnd does not take, which includes a number ending
// the input (taken by json.Decoder, which knows no more is coming).
func tritonRefuse(data []byte, j int) (int, string) {
	dec := json.NewDecoder(bytes.NewReader(data[j:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return -1, decode.TruncateDetail(err.Error())
	}
	return j + int(dec.InputOffset()), ""
}

// apply adds the entry just read (raw) to the trace of its id, creating it
// on the id's first element, or returns a reject reason.
func (f *tritonReader) apply(raw []byte, line int64) (*tritonTrace, string, string) {
	e := &f.entry
	if e.id == nil {
		return nil, "missing id", decode.TruncateDetail(string(raw))
	}
	id, ok := tritonInt(e.id)
	if !ok {
		return nil, "bad id", decode.TruncateDetail(string(e.id))
	}
	tr := f.trace(id, line)
	if len(e.model) > 0 {
		tr.model = f.intern(e.model)
	}
	if e.hasVersion {
		tr.version = f.intern(e.version)
	}
	if len(e.requestID) > 0 {
		tr.requestID = string(e.requestID)
	}
	if e.parent != nil && string(e.parent) != "0" {
		tr.child = true
	}
	for _, s := range e.stamps {
		ns, ok := tritonInt(s.ns)
		if !ok || ns < 0 {
			if tr.bad == "" {
				tr.bad = decode.TruncateDetail(fmt.Sprintf("%s ns=%q", s.name, s.ns))
			}
			continue
		}
		tr.add(f.intern(s.name), ns, &f.vals)
	}
	return tr, "", ""
}

// trace returns the trace of id, created for the element at line when it
// is the id's first.
func (f *tritonReader) trace(id, line int64) *tritonTrace {
	tr := f.last
	if tr == nil || tr.id != id {
		tr = f.traces[id]
	}
	if tr == nil {
		if len(f.trs) == cap(f.trs) {
			f.trs = make([]tritonTrace, 0, 256)
		}
		f.trs = append(f.trs, tritonTrace{id: id, line: line, stamps: f.namedChunk()})
		tr = &f.trs[len(f.trs)-1]
		f.traces[id] = tr
	}
	f.last = tr
	return tr
}

// tritonInt is json.Number's Int64 of the number text s: false for a
// fraction, an exponent, a value out of int64's range or no number.
func tritonInt(s []byte) (int64, bool) {
	v, end, ok := jsonwalk.StrictInt(s, 0)
	return v, ok && end == len(s)
}

// namedChunk returns an empty slice of room for 16 timestamp names, taken
// from a chunk.
func (f *tritonReader) namedChunk() []tritonNamed {
	if cap(f.named)-len(f.named) < 16 {
		f.named = make([]tritonNamed, 0, 16*256)
	}
	n := len(f.named)
	f.named = f.named[:n+16]
	return f.named[n : n : n+16]
}

// intern returns b as a string, shared between entries for the few
// timestamp names, models and versions a file holds (the first 256).
//
// A direct-mapped cache of recent strings, slotted by length and two
// bytes, answers most lookups without hashing the name.
func (f *tritonReader) intern(b []byte) string {
	var slot *string
	if len(b) > 0 {
		slot = &f.recent[(len(b)*7+int(b[len(b)-1])+int(b[len(b)/2])*3)%len(f.recent)]
		if *slot == string(b) {
			return *slot
		}
	}
	s, ok := f.names[string(b)]
	if !ok {
		s = string(b)
		if len(f.names) < 256 {
			f.names[s] = s
		}
	}
	if slot != nil {
		*slot = s
	}
	return s
}
