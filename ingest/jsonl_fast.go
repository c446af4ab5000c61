package ingest

import (
	"bytes"
	"cmp"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the jsonl decoder. Profiling showed the time in
// encoding/json decoding every line into a map[string]any (a map, a string
// and a json.Number per member). Here a line is walked once in place into a
// flat list of its objects' members (key and value span), the mapping's
// paths are looked up in that list with the map's rules (the last of
// duplicate keys wins, a dotted path tries the whole key first, then every
// split), and values are read from the bytes. Whatever it does not
// reproduce exactly (escaped or invalid UTF-8 keys, text after the object,
// undecodable escapes, deep nesting) and every line the general route would
// reject goes to the general route, so events, skips, rejects and reasons
// are the same either way; TestJSONLFastMatchesGeneral and FuzzJSONLFast
// check it.

// jsonlMember is one member of an object of a line: the object holding it
// (0 is the line), its raw key, its value's span, and for an object value
// the index of that object.
type jsonlMember struct {
	obj, child int
	key        []byte
	start, end int
}

// jsonlFast reads jsonl lines in place; its scratch is reused line to line.
type jsonlFast struct {
	m       *jsonlMapping
	in      *Input
	line    []byte
	members []jsonlMember
	objects int
	stack   []byte
	fail    bool // the line needs the general route
	intern  internTable
	arena   valueArena
	attrs   []attrKV
	maps    attrMaps
	index   jsonlIndex
	ev      schema.Event // the event being built, reused line to line
	scratch []byte       // the request and trace ids of the event
}

// parse walks line into f.members and reports whether it is one JSON
// object with nothing after it.
func (f *jsonlFast) parse(line []byte) bool {
	f.line, f.members, f.objects, f.fail = line, f.members[:0], 1, false
	end := f.object(0, 0, 0)
	if end < 0 || jsonSkipWS(line, end) != len(line) {
		return false
	}
	f.index.build(f.members)
	return true
}

// object walks the object at f.line[i] whose index is obj.
func (f *jsonlFast) object(i, obj, depth int) int {
	b := f.line
	if depth > 64 {
		return -1
	}
	return jsonWalkObject(b, i, func(key []byte, j int) int {
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			return -1
		}
		f.members = append(f.members, jsonlMember{obj: obj, child: -1, key: key, start: j})
		k := len(f.members) - 1
		var end int
		if b[j] == '{' {
			f.members[k].child = f.objects
			f.objects++
			end = f.object(j, f.members[k].child, depth+1)
		} else {
			end = jsonWalkSkip(b, j, &f.stack)
		}
		f.members[k].end = end
		return end
	})
}

// member returns the index of the last member key of object obj, or -1.
func (f *jsonlFast) member(obj int, key string) int {
	if f.index.ok {
		return f.index.find(f.members, obj, key)
	}
	for k := len(f.members) - 1; k >= 0; k-- {
		if m := &f.members[k]; m.obj == obj && string(m.key) == key {
			return k
		}
	}
	return -1
}

// lookup is jsonlLookup on the walked line: the index of the member at
// path in object obj, or -1.
func (f *jsonlFast) lookup(obj int, path string) int {
	if k := f.member(obj, path); k >= 0 {
		return k
	}
	for i := 0; i < len(path); i++ {
		if path[i] != '.' {
			continue
		}
		if k := f.member(obj, path[:i]); k >= 0 && f.members[k].child >= 0 {
			if v := f.lookup(f.members[k].child, path[i+1:]); v >= 0 {
				return v
			}
		}
	}
	return -1
}

// value returns the first byte of the value at path (0 when missing, 'n'
// for null) and the member's index.
func (f *jsonlFast) value(path string) (byte, int) {
	k := f.lookup(0, path)
	if k < 0 {
		return 0, -1
	}
	return f.line[f.members[k].start], k
}

// scalar is jsonlScalar on member k: the text of a string (unescaped), a
// number or a bool; ok is false for null, objects and arrays. It sets
// f.fail for a string whose decoding it does not reproduce.
func (f *jsonlFast) scalar(k int) (s []byte, ok bool) {
	m := &f.members[k]
	v := f.line[m.start:m.end]
	switch v[0] {
	case '"':
		s = v[1 : len(v)-1]
		if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
			return s, true
		}
		s, ok = jsonAppendUnescapedText(nil, s)
		f.fail = f.fail || !ok
		return s, ok
	case '{', '[', 'n':
		return nil, false
	}
	return v, true // a number's text or true/false
}

// decode reads one non-blank line: it reports false when the general route
// must read it, else it told sink what the general route would have.
func (f *jsonlFast) decode(line int64, b []byte, sink Sink) bool {
	if !f.parse(b) {
		return false
	}
	if f.m.Require != "" {
		if c, _ := f.value(f.m.Require); c == 0 || c == 'n' {
			sink.Skip(line, "not a request record")
			return true
		}
	}
	f.ev = schema.Event{Source: f.m.Source, Format: "jsonl", Host: f.in.Host, Clock: schema.ClockWall, InputFile: f.in.Name}
	ev := &f.ev
	if !f.times(ev) || !f.ids(ev) || !f.outcome(ev) || !f.counts(ev) {
		return false
	}
	f.attrList(ev)
	if f.fail {
		return false
	}
	ev.InputLine = line
	sink.Event(line, b, ev)
	return true
}

// attrList sets the attributes the mapping names.
func (f *jsonlFast) attrList(ev *schema.Event) {
	f.attrs = f.attrs[:0]
	for _, path := range f.m.Attrs {
		if _, k := f.value(path); k >= 0 {
			if s, ok := f.scalar(k); ok {
				f.attrs = append(f.attrs, attrKV{path, f.intern.get(s)})
			}
		}
	}
	ev.Attrs = f.maps.get(f.attrs)
}

// text is the scalar text at path: empty when path is empty, missing or
// null; ok is false for an object or an array.
func (f *jsonlFast) text(path string) ([]byte, bool) {
	if path == "" {
		return nil, true
	}
	c, k := f.value(path)
	if c == 0 || c == 'n' {
		return nil, true
	}
	return f.scalar(k)
}

// appendJSONLTraceID appends the trace id jsonlMapping.ids gives for the
// text b, cmp.Or(NormalizeTraceID(b), TraceIDFromTraceparent(b)), reading
// the usual shapes (a bare id, a traceparent) in place.
func appendJSONLTraceID(dst, b []byte) []byte {
	if len(b) == 0 {
		return dst
	}
	id, ok := appendTraceID(dst, b)
	if ok && len(id) > len(dst) {
		return id
	}
	// NormalizeTraceID gives "" unless b holds 32 digits once up to two
	// 0x prefixes and every dash are removed.
	if n := len(b) - bytes.Count(b, []byte("-")); ok || n < 32 || n > 36 {
		if id, ok = appendTraceparentID(dst, b); ok {
			return id
		}
	}
	s := string(b)
	return append(dst, cmp.Or(NormalizeTraceID(s), TraceIDFromTraceparent(s))...)
}

// instant reads an absolute instant of member k in format.
func (f *jsonlFast) instant(k int, format string) (int64, bool) {
	s, ok := f.scalar(k)
	if !ok {
		return 0, false
	}
	if format != "rfc3339" {
		return scaledDecimalBytesNs(bytes.TrimSpace(s), jsonlUnitNs[format])
	}
	if ns, ok := looseRFC3339Ns(s, f.in.Opts.TZ); ok {
		return ns, true
	}
	return jsonlTimeText(string(s), format, f.in.Opts.TZ)
}

// times sets start, the other instants and the phases, as
// jsonlMapping.times does; false when it would reject.
func (f *jsonlFast) times(ev *schema.Event) bool {
	m := f.m
	c, k := f.value(m.Start.Field)
	if c == 0 || c == 'n' {
		return false
	}
	start, ok := f.instant(k, m.Start.Format)
	if !ok {
		return false
	}
	ev.StartNs = f.arena.int64(start)
	for _, t := range []struct {
		spec  *jsonlInstant
		dst   **int64
		phase bool
	}{
		{m.Headers, &ev.HeadersNs, false}, {m.FirstToken, &ev.FirstTokenNs, false},
		{m.LastToken, &ev.LastTokenNs, false}, {m.End, &ev.EndNs, false},
		{m.Queue, &ev.QueueNs, true}, {m.Prefill, &ev.PrefillNs, true}, {m.Decode, &ev.DecodeNs, true},
	} {
		if t.spec == nil {
			continue
		}
		if c, k = f.value(t.spec.Field); c == 0 || c == 'n' {
			continue
		}
		ns, ok := f.duration(k, t.spec, start, t.phase)
		if !ok {
			return false
		}
		*t.dst = f.arena.int64(ns)
	}
	return true
}

// duration reads the instant or phase of member k.
func (f *jsonlFast) duration(k int, spec *jsonlInstant, start int64, phase bool) (int64, bool) {
	if spec.Format != "" {
		return f.instant(k, spec.Format)
	}
	s, _ := f.scalar(k)
	ns, ok := scaledDecimalBytesNs(bytes.TrimSpace(s), jsonlUnitNs[spec.Unit])
	if !ok || !phase && (ns > 0 && start > math.MaxInt64-ns || ns < 0 && start < math.MinInt64-ns) {
		return 0, false
	}
	if !phase {
		ns += start
	}
	return ns, true
}

// ids sets the ids, model, endpoint, host and stream flag, as
// jsonlMapping.ids does; false when it would reject.
func (f *jsonlFast) ids(ev *schema.Event) bool {
	m := f.m
	for _, s := range []struct {
		path   string
		dst    *string
		intern bool
	}{
		{m.ResponseID, &ev.ResponseID, false}, {m.Model, &ev.Model, true},
		{m.Endpoint, &ev.Endpoint, true}, {m.Host, &ev.Host, true},
	} {
		str, ok := f.text(s.path)
		switch {
		case !ok:
			return false
		case len(str) > 0 && s.intern:
			*s.dst = f.intern.get(str)
		case len(str) > 0:
			*s.dst = string(str)
		}
	}
	ev.Endpoint = EndpointPath(ev.Endpoint)
	rid, ok1 := f.text(m.RequestID)
	tp, ok2 := f.text(m.TraceID)
	if !ok1 || !ok2 {
		return false
	}
	if len(rid)+len(tp) > 0 { // both in one allocation
		f.scratch = appendJSONLTraceID(append(f.scratch[:0], rid...), tp)
		s := string(f.scratch)
		ev.RequestID, ev.TraceID = s[:len(rid)], s[len(rid):]
	}
	if c, k := f.value(m.Stream); m.Stream != "" && c != 0 && c != 'n' {
		s, _ := f.scalar(k)
		switch string(s) {
		case "true":
			ev.Stream = f.arena.bool(true)
		case "false":
			ev.Stream = f.arena.bool(false)
		default:
			b, err := strconv.ParseBool(string(s))
			if err != nil {
				return false
			}
			ev.Stream = f.arena.bool(b)
		}
	}
	return true
}

// outcome sets the status and the error class, as jsonlMapping.outcome.
func (f *jsonlFast) outcome(ev *schema.Event) bool {
	m := f.m
	if c, k := f.value(m.Status); m.Status != "" && c != 0 && c != 'n' {
		s, _ := f.scalar(k)
		s = bytes.TrimSpace(s)
		n64, ok := digitsValue(s)
		n := int(n64)
		if !ok || len(s) != 3 {
			var err error
			if n, err = strconv.Atoi(string(s)); err != nil {
				return false
			}
		}
		if n < 100 || n > 599 {
			return false
		}
		ev.Status = f.arena.int32(int32(n))
		ev.Error = ErrorClass(n)
	}
	failed := false
	if c, k := f.value(m.Error); m.Error != "" && c != 0 {
		switch c {
		case 't', 'n':
			failed = c == 't'
		case 'f':
		case '"':
			failed = f.members[k].end-f.members[k].start > 2
		default:
			failed = true
		}
	}
	if failed && ev.Error == schema.ErrorNone {
		ev.Error = schema.ErrorServer
	}
	return true
}

// counts sets the token counts, as jsonlMapping.counts.
func (f *jsonlFast) counts(ev *schema.Event) bool {
	m := f.m
	for _, c := range []struct {
		path string
		dst  **int64
		src  *string
	}{
		{m.PromptTokens, &ev.PromptTokens, &ev.PromptTokensSource},
		{m.OutputTokens, &ev.OutputTokens, &ev.OutputTokensSource},
	} {
		if c.path == "" {
			continue
		}
		b, k := f.value(c.path)
		if b == 0 || b == 'n' {
			continue
		}
		s, _ := f.scalar(k)
		s = bytes.TrimSpace(s)
		n, ok := digitsValue(s)
		if !ok {
			var err error
			if n, err = strconv.ParseInt(string(s), 10, 64); err != nil || n < 0 {
				return false
			}
		}
		*c.dst, *c.src = f.arena.int64(n), m.TokensSource
	}
	return true
}
