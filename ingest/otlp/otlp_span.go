package otlp

import (
	"unicode"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// otlpReadSpan is one span read in place. Its enums and times are kept raw
// (the last value given wins) and decoded by finish, in the order
// encoding/json's reading checked them. The reader reuses the spans of
// earlier documents (newSpan): a span is emptied by zeroing its head and
// resetting its attributes.
type otlpReadSpan struct {
	otlpSpanHead
	attrs otlpAttrSet
}

// otlpSpanHead is all of an otlpReadSpan but its attributes.
type otlpSpanHead struct {
	span                     otlpSpan
	kind, status, start, end []byte // raw JSON; nil when absent
	startNs, endNs           int64
	resource                 int // index in otlpReader.resources; -1 for a bare span
	firstEvent, nEvts        int // range in otlpReader.events
	raw                      []byte
	refused                  bool // encoding/json would refuse it: a value of the wrong type
}

// The struct fields of a span, its status and its events.
var (
	otlpSpanFields = []string{"traceId", "spanId", "name", "kind", "startTimeUnixNano",
		"endTimeUnixNano", "attributes", "events", "status"}
	otlpStatusField = []string{"code"}
	otlpEventFields = []string{"timeUnixNano", "name", "attributes"}
)

// span reads one span (any JSON value) at b[i] of resource res (-1: none)
// and returns the index past it.
func (f *otlpReader) span(b []byte, i, res int) int {
	outer := f.typeErr
	f.typeErr = false
	s := f.newSpan()
	s.resource, s.firstEvent = res, len(f.events)
	var attrs, events otlpList
	end := f.fields(b, []int{i}, otlpSpanFields, func(k, j int) int { return f.spanField(b, k, j, s, &attrs, &events) })
	if end >= 0 {
		f.attrsDone(b, &s.attrs, &attrs)
		f.eventsDone(b, s, &events)
		s.raw, s.nEvts, s.refused = b[i:end], len(f.events)-s.firstEvent, f.typeErr
	}
	f.typeErr = outer
	return end
}

// newSpan appends an empty span to f.spans, reusing the storage of a span
// of an earlier document, and returns it.
func (f *otlpReader) newSpan() *otlpReadSpan {
	if n := len(f.spans); n < cap(f.spans) {
		f.spans = f.spans[:n+1]
	} else {
		f.spans = append(f.spans, otlpReadSpan{})
	}
	s := &f.spans[len(f.spans)-1]
	s.otlpSpanHead = otlpSpanHead{}
	s.attrs.reset()
	return s
}

// spanField reads field k (otlpSpanFields) of span s at b[j].
func (f *otlpReader) spanField(b []byte, k, j int, s *otlpReadSpan, attrs, events *otlpList) int {
	switch k {
	case 3:
		return f.raw(b, j, &s.kind)
	case 4:
		return f.raw(b, j, &s.start)
	case 5:
		return f.raw(b, j, &s.end)
	case 6:
		return f.attrList(b, j, &s.attrs, attrs)
	case 7:
		return f.eventList(b, j, s, events)
	case 8:
		return f.fields(b, []int{j}, otlpStatusField, func(_, v int) int { return f.raw(b, v, &s.status) })
	}
	switch b[j] {
	case 'n': // a null string leaves it as it is
		return jsonwalk.WalkLiteral(b, j, "null")
	case '"':
	default:
		return f.wrongType(b, j)
	}
	v, end, ok := f.unescape(b, j)
	switch {
	case !ok:
		return -1
	case k == 0:
		s.span.traceID = otlpFastID(v, 16, &f.mem)
	case k == 1:
		s.span.spanID = otlpFastID(v, 8, &f.mem)
	default:
		s.span.name = f.intern(v)
	}
	return end
}

// raw sets dst to the JSON value at b[j] (a json.RawMessage field: any
// value, null too) and returns the index past it.
func (f *otlpReader) raw(b []byte, j int, dst *[]byte) int {
	end := f.skip(b, j)
	if end >= 0 {
		*dst = b[j:end]
	}
	return end
}

// eventList reads a span's events array (or null) at b[j].
func (f *otlpReader) eventList(b []byte, j int, s *otlpReadSpan, l *otlpList) int {
	start := otlpMark{len(f.spans), s.firstEvent}
	return f.list(b, j, l, func() { f.truncate(start) }, func(e int) int { return f.event(b, []int{e}) })
}

// eventsDone reads a span's events again from all of their arrays when
// there were several.
func (f *otlpReader) eventsDone(b []byte, s *otlpReadSpan, l *otlpList) {
	if l.N < 2 {
		return
	}
	f.truncate(otlpMark{len(f.spans), s.firstEvent})
	f.overlay(b, l, func(srcs []int, keep bool) {
		m := f.mark()
		if f.event(b, srcs); !keep {
			f.truncate(m)
		}
	})
}

// event reads one span event from its sources srcs: its name, its raw time
// and whether it may carry content (otlpContentChunk of its attributes).
func (f *otlpReader) event(b []byte, srcs []int) int {
	var e otlpSpanEvent
	var at []byte
	var attrs otlpList
	f.evAttrs.reset()
	end := f.fields(b, srcs, otlpEventFields, func(k, j int) int {
		switch {
		case k == 0:
			return f.raw(b, j, &at)
		case k == 2:
			return f.attrList(b, j, &f.evAttrs, &attrs)
		case b[j] == 'n':
			return jsonwalk.WalkLiteral(b, j, "null")
		case b[j] != '"':
			return f.wrongType(b, j)
		}
		v, end, ok := f.unescape(b, j)
		if ok {
			e.name = f.intern(v)
		}
		return jsonwalk.EndIf(ok, end)
	})
	f.attrsDone(b, &f.evAttrs, &attrs)
	e.content = otlpContentChunk(&f.evAttrs)
	f.events, f.eventTimes = append(f.events, e), append(f.eventTimes, at)
	return end
}

// otlpStatusNames are the status codes by their OTLP number.
var otlpStatusNames = []string{"unset", "ok", "error"}

// finish decodes the span's kind, status, start, end and event times, in
// that order, and sets its attributes, resource and events; ok is false,
// with the first bad value, when one does not decode.
func (f *otlpReader) finish(s *otlpReadSpan) (bad otlpBad, ok bool) {
	sp := &s.span
	kind, err := otlpEnumOf(s.kind, "SPAN_KIND_", otlpKinds)
	if err != nil {
		return err.(otlpBad), false
	}
	status, err := otlpEnumOf(s.status, "STATUS_CODE_", otlpStatusNames)
	if err != nil {
		return err.(otlpBad), false
	}
	sp.kind, sp.failed = kind, status == "error"
	if sp.start, err = otlpNanosAt(s.start, &s.startNs); err != nil {
		return err.(otlpBad), false
	}
	if sp.end, err = otlpNanosAt(s.end, &s.endNs); err != nil {
		return err.(otlpBad), false
	}
	sp.events = f.events[s.firstEvent : s.firstEvent+s.nEvts]
	for i := range sp.events {
		e := &sp.events[i]
		if e.at, e.timed, err = otlpNanosOf(f.eventTimes[s.firstEvent+i]); err != nil {
			return err.(otlpBad), false
		}
	}
	sp.attrs, sp.resource = &s.attrs, nil
	if s.resource >= 0 {
		sp.resource = &f.resources[s.resource]
	}
	return otlpBad{}, true
}

// otlpNanosAt decodes a raw time into *v and returns v, or nil when the
// time is not set.
func otlpNanosAt(raw []byte, v *int64) (*int64, error) {
	var set bool
	var err error
	if *v, set, err = otlpNanosOf(raw); !set {
		return nil, err
	}
	return v, nil
}

// unescape returns the contents of the string literal at b[j] as
// encoding/json decodes it (in the scratch buffer when it had escapes).
func (f *otlpReader) unescape(b []byte, j int) ([]byte, int, bool) {
	s, end, plain, ok := jsonwalk.WalkString(b, j)
	if plain || !ok {
		return s, end, ok
	}
	var good bool
	if f.text, good = jsonwalk.AppendUnescapedText(f.text[:0], s); good {
		return f.text, end, true
	}
	return jsonwalk.Text(b, j) // a lone surrogate or invalid UTF-8: U+FFFD
}

// otlpInternMax bounds the interned strings of one input.
const otlpInternMax = 1024

// intern returns b as a string, shared with earlier equal values.
func (f *otlpReader) intern(b []byte) string {
	if s, ok := f.interned[string(b)]; ok {
		return s
	}
	s := string(b)
	if f.interned == nil {
		f.interned = make(map[string]string)
	}
	if len(f.interned) < otlpInternMax {
		f.interned[s] = s
	}
	return s
}

// otlpFastID is otlpID on the contents of a JSON string, lowering a hex id
// without an intermediate copy, its string from mem (nil: allocated).
func otlpFastID(v []byte, size int, mem *otlpMem) string {
	if len(v) != 2*size || size > 16 {
		return otlpID(string(v), size)
	}
	var buf [32]byte
	var or byte
	for i, c := range v {
		l := otlpLowerHex[c]
		if l == 0 {
			return otlpID(string(v), size)
		}
		buf[i], or = l, or|(l-'0')
	}
	if or == 0 { // all zeros: not an id
		return otlpID(string(v), size)
	}
	return mem.str(buf[:len(v)])
}

// otlpLowerHex maps hex digits to their lowercase form and other bytes to 0.
var otlpLowerHex = func() (t [256]byte) {
	for _, c := range "0123456789abcdef" {
		t[c], t[unicode.ToUpper(c)] = byte(c), byte(c)
	}
	return t
}()

// otlpEnumOf is otlpEnum on a raw value (nil: absent), reading a plain
// in-range number without allocating.
func otlpEnumOf(raw []byte, prefix string, names []string) (string, error) {
	if v, e, ok := jsonwalk.StrictInt(raw, 0); ok && e == len(raw) && v >= 0 && v < int64(len(names)) {
		return names[v], nil
	}
	return otlpEnum(raw, prefix, names)
}
