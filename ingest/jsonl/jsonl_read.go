package jsonl

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The reader of the jsonl decoder. A line is walked once in place
// (jsonl_spans.go) and each value the mapping names is read from the bytes,
// as if the line were decoded by encoding/json into a map[string]any (with
// UseNumber) and looked up by lookupSpan's rule: the rejects name the field and
// its value as that map would print it (jsonlDetail).

// jsonlReader reads jsonl lines in place; its scratch is reused line to line.
type jsonlReader struct {
	m       *jsonlMapping
	in      *decode.Input
	paths   *jsonlPaths // the compiled paths; nil when they have too many dots
	names   []string    // the targets' paths, by index
	t       jsonlTargets
	line    []byte
	bad     int         // the offset in line of the value last named in a reject's detail, or -1
	vals    []jsonlSpan // by edge of paths
	stack   []byte
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

// newJSONLReader compiles m's paths.
func newJSONLReader(m *jsonlMapping, in *decode.Input) *jsonlReader {
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
		paths = append(paths, p) // "" too: lookupSpan finds a key ""
		t.attrs = append(t.attrs, int32(len(paths)-1))
	}
	f := &jsonlReader{m: m, in: in, names: paths, t: t}
	if x, ok := compileJSONLPaths(paths); ok {
		f.paths, f.vals = x, make([]jsonlSpan, len(x.edges))
	}
	return f
}

// decode reads one non-blank line and tells sink what it is.
func (f *jsonlReader) decode(line int64, b []byte, sink decode.Sink) {
	if !f.parse(b) {
		detail, err := jsonlRefuse(b)
		sink.Reject(decode.JSONErrorAt(line, 1, b, err), "invalid json", detail)
		return
	}
	if f.m.Require != "" {
		if c, _ := f.value(f.t.require); c == 0 || c == 'n' {
			sink.Skip(line, "not a request record")
			return
		}
	}
	f.ev = schema.Event{Source: f.m.Source, Format: "jsonl", Host: f.in.Host, Clock: schema.ClockWall, InputFile: f.in.Name}
	ev := &f.ev
	f.bad = -1
	for _, step := range []func(*schema.Event) (string, string){f.times, f.ids, f.outcome, f.counts} {
		if reason, detail := step(ev); reason != "" {
			at := decode.At(line) // a missing value: the record's start
			if f.bad >= 0 {
				at.Col = int64(f.bad) + 1
			}
			sink.Reject(at, reason, detail)
			return
		}
	}
	f.attrList(ev)
	ev.InputLine = line
	sink.Event(line, b, ev)
}

// attrList sets the attributes the mapping names.
func (f *jsonlReader) attrList(ev *schema.Event) {
	f.attrs = f.attrs[:0]
	for i, path := range f.m.Attrs {
		if c, v := f.value(f.t.attrs[i]); c != 0 {
			if s, ok := f.scalar(v); ok {
				f.attrs = append(f.attrs, decode.AttrKV{Key: path, Val: f.intern.Get(s)})
			}
		}
	}
	ev.Attrs = f.maps.Get(f.attrs)
}

// text is the scalar text at target t: empty when t is none, missing or
// null; ok is false for an object or an array.
func (f *jsonlReader) text(t int32) ([]byte, bool) {
	c, v := f.value(t)
	if c == 0 || c == 'n' {
		return nil, true
	}
	return f.scalar(v)
}

// appendJSONLTraceID appends the trace id of the text b,
// cmp.Or(decode.NormalizeTraceID(b), decode.TraceIDFromTraceparent(b)), reading
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

// instant reads the absolute instant at v in format; the error is
// textscan.ErrTimeRange for a date int64 ns cannot hold, else errBadTime.
func (f *jsonlReader) instant(v jsonlSpan, format string) (int64, error) {
	s, ok := f.scalar(v)
	if !ok {
		return 0, errBadTime
	}
	if format != "rfc3339" {
		if ns, ok := textscan.ScaledDecimalBytesNs(bytes.TrimSpace(s), jsonlUnitNs[format]); ok {
			return ns, nil
		}
		return 0, errBadTime
	}
	if ns, ok := textscan.LooseRFC3339Ns(s, f.in.Opts.TZ); ok {
		return ns, nil
	}
	return jsonlTimeText(string(s), format, f.in.Opts.TZ)
}

// times sets start, the other instants and the phases; it returns a
// reject reason and detail for a missing start or a bad value.
func (f *jsonlReader) times(ev *schema.Event) (string, string) {
	m := f.m
	c, v := f.value(f.t.start)
	if c == 0 || c == 'n' {
		return "missing start", m.Start.Field
	}
	start, err := f.instant(v, m.Start.Format)
	if err != nil {
		return err.Error(), f.detail(m.Start.Field, v)
	}
	ev.StartNs = f.arena.Int64(start)
	dsts, instants := jsonlInstantDsts(ev), m.instants()
	for i, t := range instants[1:] {
		if c, v = f.value(f.t.instants[i]); c == 0 || c == 'n' {
			continue
		}
		ns, err := f.duration(v, t.spec, start, t.phase)
		if err != nil {
			return err.Error(), f.detail(t.spec.Field, v)
		}
		*dsts[i] = f.arena.Int64(ns)
	}
	return "", ""
}

// errBadDuration is duration's error for a value that is no duration.
var errBadDuration = errors.New("bad duration")

// duration reads the instant or phase at v.
func (f *jsonlReader) duration(v jsonlSpan, spec *jsonlInstant, start int64, phase bool) (int64, error) {
	if spec.Format != "" {
		return f.instant(v, spec.Format)
	}
	s, _ := f.scalar(v)
	ns, ok := textscan.ScaledDecimalBytesNs(bytes.TrimSpace(s), jsonlUnitNs[spec.Unit])
	if !ok || !phase && (ns > 0 && start > math.MaxInt64-ns || ns < 0 && start < math.MinInt64-ns) {
		return 0, errBadDuration
	}
	if !phase {
		ns += start
	}
	return ns, nil
}

// ids sets the ids, model, endpoint, host and stream flag; a value that is
// an object or an array is a reject ("bad value").
func (f *jsonlReader) ids(ev *schema.Event) (string, string) {
	texts := [6][]byte{}
	for i, t := range []int32{f.t.requestID, f.t.responseID, f.t.model, f.t.endpoint, f.t.host, f.t.trace} {
		var ok bool
		if texts[i], ok = f.text(t); !ok {
			_, v := f.value(t)
			return "bad value", f.detail(f.names[t], v)
		}
	}
	for i, dst := range []*string{&ev.ResponseID, &ev.Model, &ev.Endpoint, &ev.Host} {
		switch s := texts[i+1]; {
		case len(s) > 0 && i == 0:
			*dst = string(s)
		case len(s) > 0:
			*dst = f.intern.Get(s)
		}
	}
	ev.Endpoint = decode.EndpointPath(ev.Endpoint)
	if rid, tp := texts[0], texts[5]; len(rid)+len(tp) > 0 { // both in one allocation
		f.scratch = appendJSONLTraceID(append(f.scratch[:0], rid...), tp)
		s := string(f.scratch)
		ev.RequestID, ev.TraceID = s[:len(rid)], s[len(rid):]
	}
	return f.stream(ev)
}

// stream sets the stream flag: true, false or a string strconv.ParseBool
// takes; another value is a reject ("bad value").
func (f *jsonlReader) stream(ev *schema.Event) (string, string) {
	c, v := f.value(f.t.stream)
	if c == 0 || c == 'n' {
		return "", ""
	}
	s, _ := f.scalar(v)
	switch string(s) {
	case "true":
		ev.Stream = f.arena.Bool(true)
	case "false":
		ev.Stream = f.arena.Bool(false)
	default:
		b, err := strconv.ParseBool(string(s))
		if err != nil {
			return "bad value", f.detail(f.m.Stream, v)
		}
		ev.Stream = f.arena.Bool(b)
	}
	return "", ""
}

// outcome sets the status and the error class; a status that is not an
// integer from 100 to 599 is a reject ("bad status").
func (f *jsonlReader) outcome(ev *schema.Event) (string, string) {
	if c, v := f.value(f.t.status); c != 0 && c != 'n' {
		s, _ := f.scalar(v)
		s = bytes.TrimSpace(s)
		n64, ok := textscan.Digits(s)
		n := int(n64)
		if !ok || len(s) != 3 {
			var err error
			if n, err = strconv.Atoi(string(s)); err != nil {
				n = 0
			}
		}
		if n < 100 || n > 599 {
			return "bad status", f.detail(f.m.Status, v)
		}
		ev.Status = f.arena.Int32(int32(n))
		ev.Error = decode.ErrorClass(n)
	}
	failed := false
	if c, v := f.value(f.t.err); c != 0 {
		switch c {
		case 't', 'n':
			failed = c == 't'
		case 'f':
		case '"':
			failed = v.end-v.start > 2
		default:
			failed = true
		}
	}
	if failed && ev.Error == schema.ErrorNone {
		ev.Error = schema.ErrorServer
	}
	return "", ""
}

// counts sets the token counts; a count that is not a non-negative
// integer is a reject ("bad token count").
func (f *jsonlReader) counts(ev *schema.Event) (string, string) {
	m := f.m
	for _, c := range []struct {
		t   int32
		dst **int64
		src *string
	}{
		{f.t.prompt, &ev.PromptTokens, &ev.PromptTokensSource},
		{f.t.output, &ev.OutputTokens, &ev.OutputTokensSource},
	} {
		b, v := f.value(c.t)
		if b == 0 || b == 'n' {
			continue
		}
		s, _ := f.scalar(v)
		s = bytes.TrimSpace(s)
		n, ok := textscan.Digits(s)
		if !ok {
			var err error
			if n, err = strconv.ParseInt(string(s), 10, 64); err != nil || n < 0 {
				return "bad token count", f.detail(f.names[c.t], v)
			}
		}
		*c.dst, *c.src = f.arena.Int64(n), m.TokensSource
	}
	return "", ""
}
