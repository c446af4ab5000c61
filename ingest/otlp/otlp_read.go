package otlp

import (
	"encoding/json"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The reader of OTLP/JSON documents. A document is read in place, in one
// pass that also checks its syntax (internal/jsonwalk): resourceSpans,
// scopeSpans, spans and their attributes are walked, only the attributes
// the mapping reads are kept (otlpAttrSet), ids are normalized without
// intermediate copies, and the spans go to the mapping (otlpEventInto).
// Every document is read as encoding/json reads it into the types of
// otlp_refuse.go: keys matched as it matches struct fields, a repeated key
// decoded over the earlier one, null leaving a struct as it is; what it
// would refuse (bad syntax, a value of the wrong type) is rejected in its
// words. A top-level array is a list of documents; a console-exporter span
// goes to otlpConsole.

// otlpReader reads OTLP/JSON documents; its scratch is reused from
// document to document.
type otlpReader struct {
	spans      []otlpReadSpan
	resources  []otlpAttrSet
	events     []otlpSpanEvent
	eventTimes [][]byte     // each event's raw timeUnixNano
	evAttrs    otlpAttrSet  // one span event's attributes
	ev         schema.Event // the event reported, reused (Sink.Event copies it)
	mem        otlpMem      // its strings, values and Attrs map
	text       []byte       // scratch for unescaping
	stack      []byte       // scratch for the JSON scanner
	valueSrcs  []int        // scratch for an attribute's values
	interned   map[string]string
	typeErr    bool // the span or request being read has a value of the wrong type
	reqRefused bool // the request read has one outside its spans
	deep       bool // the document nests deep enough to check against encoding/json's limit
}

// The top-level keys that tell a document's dialect (bits of
// otlpReader.topLevel's result).
const (
	otlpHasRequest    = 1 << iota // resourceSpans
	otlpHasContext                // a console-exporter span
	otlpHasSpanKey                // spanId, traceId or startTimeUnixNano
	otlpHasKind                   // with attributes, a bare span too
	otlpHasAttributes             //
)

// object reads the JSON object doc (trimmed of white space) starting on
// line n and reports what it holds; raw is the document as given (a bare
// or console span's raw bytes). With lineOnly it reports only an
// ExportTraceServiceRequest and returns false, having reported nothing,
// for anything else, which the splitter gathers and hands back.
func (f *otlpReader) object(in *decode.Input, n int64, doc, raw []byte, sink decode.Sink, lineOnly bool) bool {
	has, request, end := f.topLevel(doc)
	if f.deep && end == len(doc) && !json.Valid(doc) {
		end = -1
	}
	switch {
	case end != len(doc) && lineOnly:
		return false
	case end != len(doc):
		sink.Reject(decode.JSONRefusedAt(n, 1, raw), "invalid json", otlpJSONDetail(otlpSyntaxError(raw), raw))
	case has&otlpHasRequest != 0 && f.reqRefused:
		sink.Reject(decode.At(n), "invalid json", otlpJSONDetail(otlpRefuseRequest(request), doc))
	case has&otlpHasRequest != 0:
		f.emit(in, n, sink)
	case lineOnly:
		return false
	case has&otlpHasContext != 0:
		otlpConsole(in, n, raw, sink)
	case has&otlpHasSpanKey != 0 || has&(otlpHasKind|otlpHasAttributes) == otlpHasKind|otlpHasAttributes:
		f.reset()
		f.span(doc, 0, -1)
		f.spans[0].raw = raw
		f.emit(in, n, sink)
	default:
		sink.Skip(n, "not a trace document")
	}
	return true
}

// topLevel walks the top-level keys of doc as encoding/json decodes them
// into a map (escapes decoded, a repeated key's last value wins), reading
// resourceSpans; it returns the keys' bits, the resourceSpans value and the
// index past the object (-1: not JSON).
func (f *otlpReader) topLevel(doc []byte) (has int, request []byte, end int) {
	f.deep = false
	end = jsonwalk.WalkObject(doc, 0, func(key []byte, j int) int {
		bit := otlpTopKey(key)
		has |= bit
		if bit != otlpHasRequest {
			return f.skip(doc, j)
		}
		e := f.request(doc, j)
		if e >= 0 {
			request = doc[j:e]
		}
		return e
	})
	return has, request, end
}

// otlpTopKey returns the bit of a top-level key (raw, between its quotes).
func otlpTopKey(key []byte) int {
	text, _ := jsonwalk.KeyText(key) // the walk validated it
	switch string(text) {
	case "resourceSpans":
		return otlpHasRequest
	case "context":
		return otlpHasContext
	case "spanId", "traceId", "startTimeUnixNano":
		return otlpHasSpanKey
	case "kind":
		return otlpHasKind
	case "attributes":
		return otlpHasAttributes
	}
	return 0
}

// otlpSyntaxError is encoding/json's error for a document that is not JSON.
func otlpSyntaxError(doc []byte) error {
	var v json.RawMessage
	return json.Unmarshal(doc, &v)
}

// array reads a top-level array t (trimmed; doc as given) as a list of
// documents: each object is read as one, anything else is rejected.
func (f *otlpReader) array(in *decode.Input, n int64, t, doc []byte, sink decode.Sink) {
	f.deep = false
	if end := f.skip(t, 0); end != len(t) || f.deep && !json.Valid(t) {
		sink.Reject(decode.JSONRefusedAt(n, 1, doc), "invalid json", otlpJSONDetail(otlpSyntaxError(doc), doc))
		return
	}
	if jsonwalk.SkipWS(t, 1) == len(t)-1 {
		sink.Skip(n, "no spans")
	}
	jsonwalk.WalkArray(t, 0, func(e int) int {
		end := f.skip(t, e)
		if item := t[e:end]; item[0] != '{' {
			sink.Reject(decode.AtOffset(n, 1, doc, int(decode.ColIn(doc, item))-1), "not a trace document", decode.TruncateDetail(string(item)))
		} else {
			f.object(in, n, item, item, sink, false)
		}
		return end
	})
}

// reset empties the spans read.
func (f *otlpReader) reset() {
	f.spans, f.resources, f.events, f.eventTimes = f.spans[:0], f.resources[:0], f.events[:0], f.eventTimes[:0]
	f.typeErr = false
}

// request reads the resourceSpans value at b[j] (a list of resourceSpans,
// or null) and returns the index past it.
func (f *otlpReader) request(b []byte, j int) int {
	f.reset()
	var end int
	switch b[j] {
	case 'n':
		end = jsonwalk.WalkLiteral(b, j, "null")
	case '[':
		end = jsonwalk.WalkArray(b, j, func(e int) int { return f.resourceSpans(b, e) })
	default:
		end = f.wrongType(b, j)
	}
	f.reqRefused = f.typeErr
	return end
}

// The struct fields of the OTLP/JSON objects above a span.
var (
	otlpResourceSpansFields = []string{"resource", "scopeSpans", "instrumentationLibrarySpans"}
	otlpAttributesField     = []string{"attributes"}
	otlpSpansField          = []string{"spans"}
)

// resourceSpans reads one resourceSpans element at b[i]: its resource's
// attributes and its spans, those of scopeSpans first, then those of the
// pre-1.0 instrumentationLibrarySpans.
func (f *otlpReader) resourceSpans(b []byte, i int) int {
	res := len(f.resources)
	if res < cap(f.resources) { // reuse a set of an earlier document
		f.resources = f.resources[:res+1]
		f.resources[res].reset()
	} else {
		f.resources = append(f.resources, otlpAttrSet{})
	}
	first := f.mark()
	var attrs, scopes, libs otlpList
	end := f.fields(b, []int{i}, otlpResourceSpansFields, func(k, j int) int {
		switch {
		case k == 0:
			return f.fields(b, []int{j}, otlpAttributesField, func(_, v int) int {
				return f.attrList(b, v, &f.resources[res], &attrs)
			})
		case b[j] != 'n' && b[j] != '[':
			return f.wrongType(b, j)
		case k == 2:
			if b[j] == 'n' {
				libs.Reset()
			} else {
				libs.Add(b, j) // read after scopeSpans
			}
			return f.skip(b, j)
		case b[j] == 'n':
			scopes.Reset()
			f.truncate(first)
			return jsonwalk.WalkLiteral(b, j, "null")
		case !scopes.Add(b, j):
			if scopes.N == 0 {
				f.truncate(first)
			}
			return f.skip(b, j)
		}
		f.truncate(first)
		return jsonwalk.WalkArray(b, j, func(e int) int { return f.scope(b, []int{e}, res) })
	})
	if end < 0 {
		return -1
	}
	f.attrsDone(b, &f.resources[res], &attrs)
	if scopes.N > 1 {
		f.truncate(first)
		f.scopes(b, &scopes, res)
	}
	f.scopes(b, &libs, res)
	return end
}

// scopes reads the scopes of a list of them (after the first array of
// scopeSpans, read as it came).
func (f *otlpReader) scopes(b []byte, l *otlpList, res int) {
	switch {
	case l.N == 1:
		jsonwalk.WalkArray(b, l.First, func(e int) int { return f.scope(b, []int{e}, res) })
	case l.N > 1:
		f.overlay(b, l, func(srcs []int, keep bool) {
			m := f.mark()
			if f.scope(b, srcs, res); !keep {
				f.truncate(m)
			}
		})
	}
}

// scope reads one scopeSpans element from its sources srcs: the spans of
// its last spans value.
func (f *otlpReader) scope(b []byte, srcs []int, res int) int {
	first := f.mark()
	return f.fields(b, srcs, otlpSpansField, func(_, j int) int {
		f.truncate(first)
		switch b[j] {
		case 'n':
			return jsonwalk.WalkLiteral(b, j, "null")
		case '[':
			return jsonwalk.WalkArray(b, j, func(e int) int { return f.span(b, e, res) })
		}
		return f.wrongType(b, j)
	})
}

// otlpMark is a count of the spans and events read.
type otlpMark struct{ spans, events int }

// mark returns the counts of spans and events read so far.
func (f *otlpReader) mark() otlpMark { return otlpMark{len(f.spans), len(f.events)} }

// truncate drops the spans and events read since m.
func (f *otlpReader) truncate(m otlpMark) {
	f.spans, f.events, f.eventTimes = f.spans[:m.spans], f.events[:m.events], f.eventTimes[:m.events]
}

// skip validates the JSON value at b[j] and returns the index past it, or
// -1 for bytes that are not JSON; a deep value marks the document for
// encoding/json's own depth check.
func (f *otlpReader) skip(b []byte, j int) int {
	end, deep := jsonwalk.SkipDeep(b, j, &f.stack)
	f.deep = f.deep || deep
	return end
}

// emit reports the spans read: a span encoding/json would refuse is
// rejected in its words, a bad enum or time by its reason, the others go
// to the mapping.
func (f *otlpReader) emit(in *decode.Input, n int64, sink decode.Sink) {
	if len(f.spans) == 0 {
		sink.Skip(n, "no spans")
		return
	}
	for i := range f.spans {
		s := &f.spans[i]
		if s.refused {
			sink.Reject(decode.At(n), "invalid json", otlpJSONDetail(otlpRefuseSpan(s.raw), s.raw))
			continue
		}
		if bad, ok := f.finish(s); !ok {
			sink.Reject(decode.At(n), bad.reason, decode.TruncateDetail(bad.value))
			continue
		}
		ev, skip, reason, detail := otlpEventInto(&s.span, in.Host, &f.ev, &f.mem)
		decode.Emit(in, sink, decode.At(n), s.raw, ev, skip, reason, detail)
	}
}
