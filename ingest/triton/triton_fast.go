package triton

import (
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The fast path of the triton decoder. Profiling showed the time in
// encoding/json: a json.Decoder splitting the array and a reflective
// Unmarshal of every entry. Here the whole array is validated once, then
// each entry is walked in place; an entry the fast path does not reproduce
// exactly (escaped, non-ASCII or case-folded keys, duplicate keys, nulls or
// mistyped values, missing or negative timestamps) goes to tritonMerge, the
// general route's reading of one entry, so events, rejects and reasons are
// the same either way; TestTritonFastMatchesGeneral and FuzzTritonFast check it.
//
// A second profile showed ~20 allocations per trace (a heap slice for each
// timestamp name's first value, an Attrs map, an event box, the id's
// text, model strings, the held skips' growth) and the keys of every
// timestamps element walked through two nested callbacks: now values stay
// in the arena, the event, map and offsets are reused (triton_event.go),
// and an element laid out as Triton writes it is matched directly (stamp).

// tritonFields are the entry keys the fast path reads, by index.
var tritonFields = []string{"id", "model_name", "model_version", "request_id", "parent_id", "timestamps"}

// tritonStampFields are the keys of a timestamps element.
var tritonStampFields = []string{"name", "ns"}

// tritonStamp is one timestamp of an entry, its name in the document.
type tritonStamp struct {
	name []byte
	ns   int64
}

// tritonFast reads entries in place; its fields are one entry's values.
type tritonFast struct {
	stack      []byte
	names      map[string]string // interned timestamp names, models and versions
	recent     [64]string        // intern's cache
	verText    []byte            // scratch for a numeric model_version's text
	id         int64
	model      []byte
	version    []byte
	hasVersion bool
	requestID  []byte
	child      bool
	stamps     []tritonStamp
	trs        []tritonTrace // traces, allocated in chunks
	vals       []int64       // first values of timestamp names, in chunks
	named      []tritonNamed // traces' timestamp names, in chunks
	last       *tritonTrace  // the trace of the previous entry read
}

// decode reads data, a whole input, and reports false, having reported
// nothing, when it is not a valid JSON array (or nests deeper than
// jsonwalk.WalkMaxDepth), which the general route reads. The array is validated
// as it is walked, so what the elements report waits in a list until the
// walk succeeds.
func (f *tritonFast) decode(in *decode.Input, data []byte, sink decode.Sink) bool {
	start := jsonwalk.SkipWS(data, 0)
	if start >= len(data) || data[start] != '[' {
		return false
	}
	f.names = map[string]string{}
	traces := map[int64]*tritonTrace{}
	var order []*tritonTrace
	var held tritonHeld
	var line int64
	end := jsonwalk.WalkArray(data, start, func(j int) int {
		line++
		end := -1
		if data[j] == '{' {
			end = f.read(data, j)
		}
		var tr *tritonTrace
		var reason, detail string
		if end >= 0 {
			tr = f.apply(traces, line)
		} else if end = jsonwalk.WalkSkip(data, j, &f.stack); end < 0 {
			return -1
		} else {
			tr, reason, detail = tritonMerge(traces, line, data[j:end])
		}
		order = tritonReport(&held, order, tr, line, reason, detail)
		return end
	})
	if end < 0 {
		return false
	}
	held.flush(sink)
	var out tritonOut
	out.finishAll(in, order, sink)
	return true
}

// apply adds the entry just read to the trace of its id as tritonMerge
// does.
func (f *tritonFast) apply(traces map[int64]*tritonTrace, line int64) *tritonTrace {
	tr := f.last
	if tr == nil || tr.id != f.id {
		tr = traces[f.id]
	}
	if tr == nil {
		if len(f.trs) == cap(f.trs) {
			f.trs = make([]tritonTrace, 0, 256)
		}
		f.trs = append(f.trs, tritonTrace{id: f.id, line: line, stamps: f.namedChunk()})
		tr = &f.trs[len(f.trs)-1]
		traces[f.id] = tr
	}
	f.last = tr
	if len(f.model) > 0 {
		tr.model = f.intern(f.model)
	}
	if f.hasVersion {
		tr.version = f.intern(f.version)
	}
	if len(f.requestID) > 0 {
		tr.requestID = string(f.requestID)
	}
	if f.child {
		tr.child = true
	}
	for _, s := range f.stamps {
		tr.add(f.intern(s.name), s.ns, &f.vals)
	}
	return tr
}

// namedChunk returns an empty slice of room for 16 timestamp names, taken
// from a chunk.
func (f *tritonFast) namedChunk() []tritonNamed {
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
func (f *tritonFast) intern(b []byte) string {
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

// read walks the entry at raw[i], an object, and returns the index past
// it, or -1 when it needs the general route.
func (f *tritonFast) read(raw []byte, i int) int {
	f.model, f.version, f.hasVersion, f.requestID, f.child = nil, nil, false, nil, false
	f.stamps = f.stamps[:0]
	seen := 0
	end := jsonwalk.WalkObject(raw, i, func(key []byte, j int) int {
		k, ok := jsonwalk.StructKey(key, tritonFields)
		switch {
		case !ok:
			return -1
		case k < 0:
			return jsonwalk.WalkSkip(raw, j, &f.stack)
		case seen&(1<<k) != 0:
			return -1
		}
		seen |= 1 << k
		return f.member(raw, k, j)
	})
	if seen&1 == 0 {
		return -1
	}
	return end
}

// member reads the value at raw[j] of field k and returns the index past
// it, or -1.
func (f *tritonFast) member(raw []byte, k, j int) int {
	switch tritonFields[k] {
	case "id":
		v, end, ok := jsonwalk.StrictInt(raw, j)
		if !ok {
			return -1
		}
		f.id = v
		return end
	case "model_name":
		return tritonPlain(raw, j, &f.model)
	case "request_id":
		return tritonPlain(raw, j, &f.requestID)
	case "model_version":
		return f.modelVersion(raw, j)
	case "parent_id":
		return f.parent(raw, j)
	}
	return f.timestamps(raw, j)
}

// tritonPlain sets dst to the plain string at raw[j] and returns the index
// past it, or -1 for any other value.
func tritonPlain(raw []byte, j int, dst *[]byte) int {
	s, end, plain, ok := jsonwalk.WalkString(raw, j)
	if !ok || !plain {
		return -1
	}
	*dst = s
	return end
}

// modelVersion reads model_version as fmt.Sprint prints it: a plain string
// or an integer small enough to print alike as a float64; null leaves it.
func (f *tritonFast) modelVersion(raw []byte, j int) int {
	switch raw[j] {
	case 'n':
		return jsonwalk.WalkLiteral(raw, j, "null")
	case '"':
		f.hasVersion = true
		return tritonPlain(raw, j, &f.version)
	}
	v, end, ok := jsonwalk.StrictInt(raw, j)
	if !ok || raw[j] == '-' || v >= 1e15 {
		return -1
	}
	f.hasVersion = true
	f.verText = strconv.AppendInt(f.verText[:0], v, 10)
	f.version = f.verText
	return end
}

// parent reads parent_id: any number but 0 marks an ensemble's composing
// model; null leaves it.
func (f *tritonFast) parent(raw []byte, j int) int {
	if raw[j] == 'n' {
		return jsonwalk.WalkLiteral(raw, j, "null")
	}
	if raw[j] != '-' && (raw[j] < '0' || raw[j] > '9') {
		return -1
	}
	end, st := jsonwalk.NumberEnd(raw, j)
	if st != jsonwalk.OK {
		return -1
	}
	f.child = string(raw[j:end]) != "0"
	return end
}

// timestamps reads the list of {"name", "ns"} objects; null leaves it.
// It is a plain loop rather than a jsonwalk.WalkArray callback, and reads an
// element laid out as Triton writes it without walking its keys.
func (f *tritonFast) timestamps(raw []byte, j int) int {
	if raw[j] == 'n' {
		return jsonwalk.WalkLiteral(raw, j, "null")
	}
	if raw[j] != '[' {
		return -1
	}
	if j = jsonwalk.SkipWS(raw, j+1); j < len(raw) && raw[j] == ']' {
		return j + 1
	}
	for j < len(raw) {
		e := f.stamp(raw, j)
		if e < 0 {
			e = f.stampAny(raw, j)
		}
		if e < 0 {
			return -1
		}
		if j = jsonwalk.SkipWS(raw, e); j >= len(raw) {
			return -1
		}
		switch raw[j] {
		case ']':
			return j + 1
		case ',':
			j = jsonwalk.SkipWS(raw, j+1)
		default:
			return -1
		}
	}
	return -1
}

// stamp reads the timestamps element at raw[j] when it is laid out as
// Triton writes it, {"name":"…","ns":N} with optional white space, a plain
// name and a non-negative integer, and returns the index past it; -1 for
// anything else, which stampAny reads.
func (f *tritonFast) stamp(raw []byte, j int) int {
	if raw[j] != '{' {
		return -1
	}
	k := tritonKey(raw, j+1, `"name"`)
	if k < 0 {
		return -1
	}
	name, end, plain, ok := jsonwalk.WalkString(raw, k)
	if !ok || !plain {
		return -1
	}
	if k = jsonwalk.SkipWS(raw, end); k >= len(raw) || raw[k] != ',' {
		return -1
	}
	if k = tritonKey(raw, k+1, `"ns"`); k < 0 || k >= len(raw) {
		return -1
	}
	v, end, ok := jsonwalk.StrictInt(raw, k)
	if !ok || v < 0 {
		return -1
	}
	if k = jsonwalk.SkipWS(raw, end); k >= len(raw) || raw[k] != '}' {
		return -1
	}
	f.stamps = append(f.stamps, tritonStamp{name, v})
	return k + 1
}

// tritonKey matches white space, key (quoted), white space and a colon at
// raw[k] and returns the index of the value after more white space, or -1.
func tritonKey(raw []byte, k int, key string) int {
	k = jsonwalk.SkipWS(raw, k)
	if len(raw)-k < len(key) || string(raw[k:k+len(key)]) != key {
		return -1
	}
	if k = jsonwalk.SkipWS(raw, k+len(key)); k >= len(raw) || raw[k] != ':' {
		return -1
	}
	return jsonwalk.SkipWS(raw, k+1)
}

// stampAny reads the timestamps element at raw[j], an object with a plain
// string "name" and a non-negative integer "ns" in any layout, and returns
// the index past it, or -1.
func (f *tritonFast) stampAny(raw []byte, j int) int {
	var s tritonStamp
	seen := 0
	end := jsonwalk.WalkObject(raw, j, func(key []byte, j int) int {
		k, ok := jsonwalk.StructKey(key, tritonStampFields)
		switch {
		case !ok:
			return -1
		case k < 0:
			return jsonwalk.WalkSkip(raw, j, &f.stack)
		case seen&(1<<k) != 0:
			return -1
		}
		seen |= 1 << k
		if k == 0 {
			return tritonPlain(raw, j, &s.name)
		}
		v, end, ok := jsonwalk.StrictInt(raw, j)
		if !ok || v < 0 {
			return -1
		}
		s.ns = v
		return end
	})
	if end < 0 || seen != 3 {
		return -1
	}
	f.stamps = append(f.stamps, s)
	return end
}
