package otlp

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the otlp decoder. Profiling the general route on the
// fleet's vLLM spans showed encoding/json validating every document three
// times (into a key map, into the resourceSpans structs, into each span)
// and building a map[string]any per span, with an allocation per attribute
// value. Here an ExportTraceServiceRequest is validated and read in one
// pass (jsonscan_walk.go): resourceSpans, scopeSpans, spans and their
// attributes are walked in place, only the attributes the mapping reads
// (otlpAttrSet) are kept, ids are normalized without intermediate copies,
// and the spans go to the same mapping (otlpEvent) as the general route's.
// Anything the fast path does not reproduce exactly (escaped, non-ASCII or
// case-folded keys, duplicate keys, pre-1.0 instrumentationLibrarySpans,
// nulls where a struct is expected, mistyped values, strings needing the
// full decoder, a bad enum or timestamp, nesting deeper than 64) sends the
// whole document to the general route before anything was reported, so
// events, skips, rejects and reasons are the same either way;
// TestOTLPFastMatchesGeneral and FuzzOTLPFast check it.

// otlpFast reads OTLP/JSON requests in place; its scratch is reused from
// document to document.
type otlpFast struct {
	spans     []otlpFastSpan
	resources []otlpAttrSet
	events    []otlpSpanEvent
	evAttrs   otlpAttrSet  // one span event's attributes
	ev        schema.Event // the event reported, reused (Sink.Event copies it)
	text      []byte       // scratch for unescaping
	stack     []byte       // scratch for the JSON scanner
	interned  map[string]string
}

// otlpFastSpan is one span read in place. The span's attribute, resource,
// time and event fields are set from the others when the document is done.
type otlpFastSpan struct {
	span              otlpSpan
	attrs             otlpAttrSet
	start, end        int64
	hasStart, hasEnd  bool
	resource          int // index in otlpFast.resources
	firstEvent, nEvts int // range in otlpFast.events
	raw               []byte
}

// The struct fields of the OTLP/JSON objects the fast path walks.
var (
	otlpResourceSpansFields = []string{"resource", "scopeSpans", "instrumentationLibrarySpans"}
	otlpAttributesField     = []string{"attributes"}
	otlpSpansField          = []string{"spans"}
	otlpSpanFields          = []string{"traceId", "spanId", "name", "kind", "startTimeUnixNano",
		"endTimeUnixNano", "attributes", "events", "status"}
	otlpStatusField = []string{"code"}
	otlpEventFields = []string{"timeUnixNano", "name", "attributes"}
	otlpKVFields    = []string{"key", "value"}
	otlpAnyFields   = []string{"stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue"}
	otlpValuesField = []string{"values"}
)

// otlpMaxFastDepth bounds the nesting of arrayValue the fast path reads.
const otlpMaxFastDepth = 64

// document reads doc, one JSON object holding an ExportTraceServiceRequest
// (trimmed of white space), and reports its spans to sink as otlpObject
// would. It reports false, having reported nothing, when the document
// needs the general route.
func (f *otlpFast) document(in *decode.Input, n int64, doc []byte, sink decode.Sink) bool {
	f.spans, f.resources, f.events = f.spans[:0], f.resources[:0], f.events[:0]
	found := false
	end := jsonwalk.WalkObject(doc, 0, func(key []byte, j int) int {
		switch {
		case string(key) == "resourceSpans" && !found:
			found = true
			return jsonwalk.WalkArray(doc, j, func(e int) int {
				return f.nullOr(doc, e, func() int { return f.resourceSpans(doc, e) })
			})
		case string(key) == "resourceSpans" || bytes.IndexByte(key, '\\') >= 0:
			return -1
		}
		return jsonwalk.WalkSkip(doc, j, &f.stack)
	})
	if !found || end != len(doc) {
		return false
	}
	f.emit(in, n, sink)
	return true
}

// emit reports the spans read, as otlpObject and otlpReport do.
func (f *otlpFast) emit(in *decode.Input, n int64, sink decode.Sink) {
	if len(f.spans) == 0 {
		sink.Skip(n, "no spans")
		return
	}
	for i := range f.spans {
		s := &f.spans[i]
		sp := &s.span
		sp.attrs, sp.resource = &s.attrs, &f.resources[s.resource]
		sp.events = f.events[s.firstEvent : s.firstEvent+s.nEvts]
		if s.hasStart {
			sp.start = &s.start
		}
		if s.hasEnd {
			sp.end = &s.end
		}
		ev, skip, reason, detail := otlpEventInto(sp, in.Host, &f.ev)
		decode.Emit(in, sink, n, s.raw, ev, skip, reason, detail)
	}
}

// resourceSpans reads one resourceSpans element at b[i].
func (f *otlpFast) resourceSpans(b []byte, i int) int {
	res := len(f.resources)
	f.resources = append(f.resources, otlpAttrSet{})
	seen := 0
	return jsonwalk.WalkObject(b, i, func(key []byte, j int) int {
		k, ok := jsonwalk.StructKey(key, otlpResourceSpansFields)
		switch {
		case !ok || k == 2 || (k >= 0 && seen&(1<<k) != 0):
			return -1
		case k < 0:
			return jsonwalk.WalkSkip(b, j, &f.stack)
		}
		seen |= 1 << k
		if k == 0 {
			return f.nullOr(b, j, func() int {
				return f.object(b, j, otlpAttributesField, func(_ int, v int) int {
					return f.attrList(b, v, &f.resources[res])
				})
			})
		}
		return f.nullOr(b, j, func() int { return jsonwalk.WalkArray(b, j, func(e int) int { return f.scope(b, e, res) }) })
	})
}

// scope reads one scopeSpans element (or null) at b[i] of resource res.
func (f *otlpFast) scope(b []byte, i, res int) int {
	return f.nullOr(b, i, func() int {
		return f.object(b, i, otlpSpansField, func(_ int, v int) int {
			return f.nullOr(b, v, func() int {
				return jsonwalk.WalkArray(b, v, func(e int) int { return f.span(b, e, res) })
			})
		})
	})
}

// object walks the struct object at b[i], calling field with the index in
// names and the value of each field it has; other keys are skipped.
func (f *otlpFast) object(b []byte, i int, names []string, field func(k, j int) int) int {
	seen := 0
	return jsonwalk.WalkObject(b, i, func(key []byte, j int) int {
		k, ok := jsonwalk.StructKey(key, names)
		switch {
		case !ok || (k >= 0 && seen&(1<<k) != 0):
			return -1
		case k < 0:
			return jsonwalk.WalkSkip(b, j, &f.stack)
		}
		seen |= 1 << k
		return field(k, j)
	})
}

// nullOr returns the index after a null at b[j], else read().
func (f *otlpFast) nullOr(b []byte, j int, read func() int) int {
	if b[j] == 'n' {
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	return read()
}

// span reads one span object at b[i] of resource res.
func (f *otlpFast) span(b []byte, i, res int) int {
	f.spans = append(f.spans, otlpFastSpan{resource: res, firstEvent: len(f.events)})
	s := &f.spans[len(f.spans)-1]
	end := f.object(b, i, otlpSpanFields, func(k, j int) int { return f.spanField(b, k, j, s) })
	if end < 0 {
		return -1
	}
	s.raw, s.nEvts = b[jsonwalk.SkipWS(b, i):end], len(f.events)-s.firstEvent
	return end
}

// spanField reads field k (otlpSpanFields) of span s at b[j].
func (f *otlpFast) spanField(b []byte, k, j int, s *otlpFastSpan) int {
	switch k {
	case 0, 1:
		size := 16 - 8*k
		return f.stringOrNull(b, j, func(v []byte) {
			if k == 0 {
				s.span.traceID = otlpFastID(v, size)
			} else {
				s.span.spanID = otlpFastID(v, size)
			}
		})
	case 2:
		return f.stringOrNull(b, j, func(v []byte) { s.span.name = f.intern(v) })
	case 3:
		end := jsonwalk.WalkSkip(b, j, &f.stack)
		kind, err := otlpFastEnum(b, j, end, "SPAN_KIND_", otlpKinds)
		s.span.kind = kind
		return jsonwalk.EndIf(err == nil, end)
	case 4, 5:
		end := jsonwalk.WalkSkip(b, j, &f.stack)
		if end < 0 {
			return -1
		}
		v, set, err := otlpNanosOf(b[j:end])
		if k == 4 {
			s.start, s.hasStart = v, set
		} else {
			s.end, s.hasEnd = v, set
		}
		return jsonwalk.EndIf(err == nil, end)
	case 6:
		return f.attrList(b, j, &s.attrs)
	case 7:
		return f.nullOr(b, j, func() int {
			return jsonwalk.WalkArray(b, j, func(e int) int { return f.event(b, e) })
		})
	}
	return f.nullOr(b, j, func() int {
		return f.object(b, j, otlpStatusField, func(_, v int) int {
			end := jsonwalk.WalkSkip(b, v, &f.stack)
			status, err := otlpFastEnum(b, v, end, "STATUS_CODE_", otlpStatusNames)
			s.span.failed = status == "error"
			return jsonwalk.EndIf(err == nil, end)
		})
	})
}

// otlpStatusNames are the status codes by their OTLP number.
var otlpStatusNames = []string{"unset", "ok", "error"}

// event reads one span event object (or null, an event without name,
// time or attributes) at b[i].
func (f *otlpFast) event(b []byte, i int) int {
	var e otlpSpanEvent
	f.evAttrs.vals[akChunkType], f.evAttrs.prefixes = otlpValue{}, 0
	end := f.nullOr(b, i, func() int { return f.eventFields(b, i, &e) })
	e.content = otlpContentChunk(&f.evAttrs)
	f.events = append(f.events, e)
	return end
}

// eventFields reads the fields of the span event object at b[i] into e.
func (f *otlpFast) eventFields(b []byte, i int, e *otlpSpanEvent) int {
	return f.object(b, i, otlpEventFields, func(k, j int) int {
		switch k {
		case 0:
			end := jsonwalk.WalkSkip(b, j, &f.stack)
			if end < 0 {
				return -1
			}
			var err error
			e.at, e.timed, err = otlpNanosOf(b[j:end])
			return jsonwalk.EndIf(err == nil, end)
		case 1:
			return f.stringOrNull(b, j, func(v []byte) { e.name = f.intern(v) })
		}
		return f.attrList(b, j, &f.evAttrs)
	})
}

// stringOrNull reads the string or null at b[j], calling set with the
// string's contents (valid until the next read); null leaves it unset.
func (f *otlpFast) stringOrNull(b []byte, j int, set func(v []byte)) int {
	if b[j] == 'n' {
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	v, end, ok := f.unescape(b, j)
	if ok {
		set(v)
	}
	return jsonwalk.EndIf(ok, end)
}

// unescape returns the contents of the string literal at b[j] (in the
// scratch buffer when it had escapes); ok is false for anything else or a
// string the full decoder would read differently.
func (f *otlpFast) unescape(b []byte, j int) ([]byte, int, bool) {
	s, end, plain, ok := jsonwalk.WalkString(b, j)
	if plain || !ok {
		return s, end, ok
	}
	f.text, ok = jsonwalk.AppendUnescaped(f.text[:0], b[j:end])
	return f.text, end, ok
}

// otlpInternMax bounds the interned strings of one input.
const otlpInternMax = 1024

// intern returns b as a string, shared with earlier equal values.
func (f *otlpFast) intern(b []byte) string {
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
