package jsonl

import (
	"bytes"
	"cmp"
	"math"
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the jsonl decoder. Profiling showed the time in
// encoding/json decoding every line into a map[string]any (a map, a string
// and a json.Number per member). Here the mapping's paths are compiled once
// (jsonl_paths.go) and a line is walked once in place, recording the value
// span of each member on some path (the last of duplicate keys wins, its
// earlier object forgotten); each path then resolves with the map's rules (a
// dotted path tries the whole key first, then every split) by indexing those
// spans, and values are read from the bytes. Whatever it does not reproduce
// exactly (escaped or invalid UTF-8 keys on a path, text after the object,
// undecodable escapes, deep nesting) and every line the general route would
// reject goes to the general route, so events, skips, rejects and reasons
// are the same either way; TestJSONLFastMatchesGeneral and FuzzJSONLFast
// check it.

// jsonlSpan is where a member's value lies in the line; end 0: not seen.
type jsonlSpan struct{ start, end int32 }

// jsonlFast reads jsonl lines in place; its scratch is reused line to line.
type jsonlFast struct {
	m       *jsonlMapping
	in      *decode.Input
	paths   *jsonlPaths
	t       jsonlTargets
	line    []byte
	vals    []jsonlSpan // by edge of paths
	stack   []byte
	fail    bool // the line needs the general route
	intern  decode.InternTable
	arena   decode.ValueArena
	attrs   []decode.AttrKV
	maps    decode.AttrMaps
	ev      schema.Event // the event being built, reused line to line
	scratch []byte       // the request and trace ids of the event
}

// jsonlTargets are the indices of the mapping's paths among the compiled
// targets; -1 for a path the mapping does not give.
type jsonlTargets struct {
	require, start, stream, status, err, prompt, output int32
	instants                                            [7]int32 // headers, first_token, last_token, end, queue, prefill, decode
	responseID, model, endpoint, host, requestID, trace int32
	attrs                                               []int32
}

// newJSONLFast compiles m's paths; nil when they have too many dots.
func newJSONLFast(m *jsonlMapping, in *decode.Input) *jsonlFast {
	var paths []string
	add := func(p string) int32 {
		if p == "" {
			return -1
		}
		paths = append(paths, p)
		return int32(len(paths) - 1)
	}
	t := jsonlTargets{
		require: add(m.Require), start: add(m.Start.Field), stream: add(m.Stream), status: add(m.Status),
		err: add(m.Error), prompt: add(m.PromptTokens), output: add(m.OutputTokens),
		responseID: add(m.ResponseID), model: add(m.Model), endpoint: add(m.Endpoint), host: add(m.Host),
		requestID: add(m.RequestID), trace: add(m.TraceID),
	}
	instants := m.instants()
	for i, x := range instants[1:] {
		t.instants[i] = -1
		if x.spec != nil {
			t.instants[i] = add(x.spec.Field)
		}
	}
	for _, p := range m.Attrs {
		paths = append(paths, p) // "" too: jsonlLookup finds a key ""
		t.attrs = append(t.attrs, int32(len(paths)-1))
	}
	x, ok := compileJSONLPaths(paths)
	if !ok {
		return nil
	}
	return &jsonlFast{m: m, in: in, paths: x, t: t, vals: make([]jsonlSpan, len(x.edges))}
}

// scalar is jsonlScalar on member k: the text of a string (unescaped), a
// number or a bool; ok is false for null, objects and arrays. It sets
// f.fail for a string whose decoding it does not reproduce.
func (f *jsonlFast) scalar(k int32) (s []byte, ok bool) {
	m := f.vals[k]
	v := f.line[m.start:m.end]
	switch v[0] {
	case '"':
		s = v[1 : len(v)-1]
		if jsonwalk.Plain(s) {
			return s, true
		}
		s, ok = jsonwalk.AppendUnescapedText(nil, s)
		f.fail = f.fail || !ok
		return s, ok
	case '{', '[', 'n':
		return nil, false
	}
	return v, true // a number's text or true/false
}

// decode reads one non-blank line: it reports false when the general route
// must read it, else it told sink what the general route would have.
func (f *jsonlFast) decode(line int64, b []byte, sink decode.Sink) bool {
	if !f.parse(b) {
		return false
	}
	if f.m.Require != "" {
		if c, _ := f.value(f.t.require); c == 0 || c == 'n' {
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
	for i, path := range f.m.Attrs {
		if _, k := f.value(f.t.attrs[i]); k >= 0 {
			if s, ok := f.scalar(k); ok {
				f.attrs = append(f.attrs, decode.AttrKV{Key: path, Val: f.intern.Get(s)})
			}
		}
	}
	ev.Attrs = f.maps.Get(f.attrs)
}

// text is the scalar text at target t: empty when t is none, missing or
// null; ok is false for an object or an array.
func (f *jsonlFast) text(t int32) ([]byte, bool) {
	c, k := f.value(t)
	if c == 0 || c == 'n' {
		return nil, true
	}
	return f.scalar(k)
}

// appendJSONLTraceID appends the trace id jsonlMapping.ids gives for the
// text b, cmp.Or(decode.NormalizeTraceID(b), decode.TraceIDFromTraceparent(b)), reading
// the usual shapes (a bare id, a traceparent) in place.
func appendJSONLTraceID(dst, b []byte) []byte {
	if len(b) == 0 {
		return dst
	}
	id, ok := decode.AppendTraceID(dst, b)
	if ok && len(id) > len(dst) {
		return id
	}
	// decode.NormalizeTraceID gives "" unless b holds 32 digits once up to two
	// 0x prefixes and every dash are removed.
	if n := len(b) - bytes.Count(b, []byte("-")); ok || n < 32 || n > 36 {
		if id, ok = decode.AppendTraceparentID(dst, b); ok {
			return id
		}
	}
	s := string(b)
	return append(dst, cmp.Or(decode.NormalizeTraceID(s), decode.TraceIDFromTraceparent(s))...)
}

// instant reads an absolute instant of member k in format.
func (f *jsonlFast) instant(k int32, format string) (int64, bool) {
	s, ok := f.scalar(k)
	if !ok {
		return 0, false
	}
	if format != "rfc3339" {
		return textscan.ScaledDecimalBytesNs(bytes.TrimSpace(s), jsonlUnitNs[format])
	}
	if ns, ok := textscan.LooseRFC3339Ns(s, f.in.Opts.TZ); ok {
		return ns, true
	}
	ns, err := jsonlTimeText(string(s), format, f.in.Opts.TZ)
	return ns, err == nil
}

// times sets start, the other instants and the phases, as
// jsonlMapping.times does; false when it would reject.
func (f *jsonlFast) times(ev *schema.Event) bool {
	m := f.m
	c, k := f.value(f.t.start)
	if c == 0 || c == 'n' {
		return false
	}
	start, ok := f.instant(k, m.Start.Format)
	if !ok {
		return false
	}
	ev.StartNs = f.arena.Int64(start)
	dsts, instants := jsonlInstantDsts(ev), m.instants()
	for i, t := range instants[1:] {
		if c, k = f.value(f.t.instants[i]); c == 0 || c == 'n' {
			continue
		}
		ns, ok := f.duration(k, t.spec, start, t.phase)
		if !ok {
			return false
		}
		*dsts[i] = f.arena.Int64(ns)
	}
	return true
}

// duration reads the instant or phase of member k.
func (f *jsonlFast) duration(k int32, spec *jsonlInstant, start int64, phase bool) (int64, bool) {
	if spec.Format != "" {
		return f.instant(k, spec.Format)
	}
	s, _ := f.scalar(k)
	ns, ok := textscan.ScaledDecimalBytesNs(bytes.TrimSpace(s), jsonlUnitNs[spec.Unit])
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
	for _, s := range []struct {
		t      int32
		dst    *string
		intern bool
	}{
		{f.t.responseID, &ev.ResponseID, false}, {f.t.model, &ev.Model, true},
		{f.t.endpoint, &ev.Endpoint, true}, {f.t.host, &ev.Host, true},
	} {
		str, ok := f.text(s.t)
		switch {
		case !ok:
			return false
		case len(str) > 0 && s.intern:
			*s.dst = f.intern.Get(str)
		case len(str) > 0:
			*s.dst = string(str)
		}
	}
	ev.Endpoint = decode.EndpointPath(ev.Endpoint)
	rid, ok1 := f.text(f.t.requestID)
	tp, ok2 := f.text(f.t.trace)
	if !ok1 || !ok2 {
		return false
	}
	if len(rid)+len(tp) > 0 { // both in one allocation
		f.scratch = appendJSONLTraceID(append(f.scratch[:0], rid...), tp)
		s := string(f.scratch)
		ev.RequestID, ev.TraceID = s[:len(rid)], s[len(rid):]
	}
	return f.stream(ev)
}

// stream sets the stream flag, as jsonlMapping.ids does.
func (f *jsonlFast) stream(ev *schema.Event) bool {
	c, k := f.value(f.t.stream)
	if c == 0 || c == 'n' {
		return true
	}
	s, _ := f.scalar(k)
	switch string(s) {
	case "true":
		ev.Stream = f.arena.Bool(true)
	case "false":
		ev.Stream = f.arena.Bool(false)
	default:
		b, err := strconv.ParseBool(string(s))
		if err != nil {
			return false
		}
		ev.Stream = f.arena.Bool(b)
	}
	return true
}

// outcome sets the status and the error class, as jsonlMapping.outcome.
func (f *jsonlFast) outcome(ev *schema.Event) bool {
	if c, k := f.value(f.t.status); c != 0 && c != 'n' {
		s, _ := f.scalar(k)
		s = bytes.TrimSpace(s)
		n64, ok := textscan.Digits(s)
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
		ev.Status = f.arena.Int32(int32(n))
		ev.Error = decode.ErrorClass(n)
	}
	failed := false
	if c, k := f.value(f.t.err); c != 0 {
		switch c {
		case 't', 'n':
			failed = c == 't'
		case 'f':
		case '"':
			failed = f.vals[k].end-f.vals[k].start > 2
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
		t   int32
		dst **int64
		src *string
	}{
		{f.t.prompt, &ev.PromptTokens, &ev.PromptTokensSource},
		{f.t.output, &ev.OutputTokens, &ev.OutputTokensSource},
	} {
		b, k := f.value(c.t)
		if b == 0 || b == 'n' {
			continue
		}
		s, _ := f.scalar(k)
		s = bytes.TrimSpace(s)
		n, ok := textscan.Digits(s)
		if !ok {
			var err error
			if n, err = strconv.ParseInt(string(s), 10, 64); err != nil || n < 0 {
				return false
			}
		}
		*c.dst, *c.src = f.arena.Int64(n), m.TokensSource
	}
	return true
}
