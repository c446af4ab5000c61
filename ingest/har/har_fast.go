package har

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the har decoder. Profiling showed the time in
// encoding/json: a json.Decoder splitting the entries array, a reflective
// Unmarshal of every entry into harEntry, and a second Unmarshal of every
// SSE event of the captured bodies. Here the whole document is read once
// and walked in place (har_fast_walk.go): each entry's fields are read as
// spans of the document, only the strings an event keeps are copied, the
// request and response bodies are unescaped in the same pass that
// validates them into reused buffers (har_fast_text.go), and each SSE event
// is walked for the few facts harChunk gives (har_fast_sse.go,
// har_fast_chunk.go); times and ms timings are read in place
// (har_fast_time.go). Whatever the fast path does not reproduce exactly
// (escaped, non-ASCII or case-folded keys, duplicate keys, mistyped
// values, strings it cannot unescape exactly, URLs of unusual shape) goes
// to the general route: an entry to harRecord, an SSE event or body to
// encoding/json, a URL to url.Parse, a time to time.Parse, a document that
// is not valid JSON up to the end of log.entries to decodeGeneral (which
// then drops the entries already reported). Events, rejects and reasons
// are the same either way; TestHARFastMatchesGeneral, TestHARFastEdges,
// TestHARFastDamaged and FuzzHARFast check it.

// harFast reads a HAR document in place; its scratch is reused entry to
// entry.
type harFast struct {
	in        *decode.Input
	sink      decode.Sink
	endpoints []string
	data      []byte
	stack     []byte
	reported  int   // entries reported so far
	done      bool  // log.entries was walked to its end
	line      int64 // the line of data[lineAt]
	lineAt    int
	e         harFastEntry
	arena     []byte // unescaped strings of the entry being read
	post      []byte // the unescaped request body
	body      []byte // the unescaped response body
	b64       []byte // a base64-decoded response body
	ev        schema.Event
	chunkBuf  harFastChunk // the SSE event being read
	interned  map[string]string
}

// harStr is a JSON string value as it stands in the document: its raw
// contents between the quotes, and whether they need no unescaping. A
// missing or null value is the empty string, as encoding/json leaves it.
type harStr struct {
	raw   []byte
	plain bool
}

// harFastEntry holds the fields of one entry that the event uses.
type harFastEntry struct {
	started  harStr
	time     []byte // the raw number; nil when missing or null
	url      harStr
	post     harBody // request.postData.text
	status   int64
	mime     harStr
	text     harBody // response.content.text
	encoding harStr
	timings  [6][]byte // raw numbers of harTimingNames; nil when missing
	reqH     []harHdr  // request id headers, in order
	respH    []harHdr  // response id headers, in order
}

// harBody is a body's text unescaped into a buffer of harFast; exact is
// false when the unescaping may differ from encoding/json's.
type harBody struct {
	text  []byte
	exact bool
}

// harHdr is one id header: which (harHdr* kinds) and its unescaped value.
type harHdr struct {
	kind int
	val  []byte
}

// Kinds of id headers.
const (
	harHdrRequestID   = iota + 1 // request x-request-id; any response id header
	harHdrTraceparent            // request traceparent
)

// harTimingNames are the timings the event sums, in the general route's
// order.
var harTimingNames = [6]string{"blocked", "dns", "connect", "send", "wait", "receive"}

// The keys of the objects the fast path reads, by index.
var (
	harEntryFields    = newHarNames("startedDateTime", "time", "request", "response", "timings")
	harRequestFields  = newHarNames("url", "method", "headers", "postData")
	harPostDataFields = newHarNames("mimeType", "text")
	harResponseFields = newHarNames("status", "headers", "content")
	harContentFields  = newHarNames("mimeType", "text", "encoding")
	harHeaderFields   = newHarNames("name", "value")
)

// decode walks data, a whole input, and reports whether it read the
// document to the end of log.entries; when it did not, f.reported entries
// were reported and the general route must report the rest.
func (f *harFast) decode(data []byte) bool {
	f.data, f.endpoints, f.line = data, harEndpoints(f.in), 1
	f.member(0, "log", f.log)
	return f.done
}

// member walks the object at data[i] to the first key named key and calls
// at with the index of its value; other members are validated and skipped.
// It gives up at a key that might unescape to key.
func (f *harFast) member(i int, key string, at func(j int)) {
	jsonwalk.WalkObject(f.data, i, func(k []byte, j int) int {
		if string(k) == key {
			at(j)
			return -1
		}
		if bytes.IndexByte(k, '\\') >= 0 {
			return -1
		}
		return harSkip(f.data, j, &f.stack)
	})
}

// log walks the log object at data[j] to its entries.
func (f *harFast) log(j int) {
	if f.data[j] == '{' {
		f.member(j, "entries", f.entries)
	}
}

// entries reads and reports the entries array at data[j].
func (f *harFast) entries(j int) {
	if f.data[j] == '[' && jsonwalk.WalkArray(f.data, j, f.element) >= 0 {
		f.done = true
	}
}

// element reads and reports the entry at data[j] and returns the index
// past it, or -1 when it is not valid JSON.
func (f *harFast) element(j int) int {
	f.line += int64(bytes.Count(f.data[f.lineAt:j], []byte{'\n'}))
	f.lineAt = j
	end := -1
	if f.data[j] == '{' {
		end = f.entry(j)
	}
	if end >= 0 {
		ev, skip, reason, detail, ok := f.event()
		if ok {
			decode.Emit(f.in, f.sink, f.line, f.data[j:end], decode.OnWallClock(ev, f.in, "har", schema.SourceClient), skip, reason, detail)
			f.reported++
			return end
		}
	} else if end = harSkip(f.data, j, &f.stack); end < 0 {
		return -1
	}
	harRecord(f.in, f.sink, f.endpoints, f.line, f.data[j:end])
	f.reported++
	return end
}

// object walks the object at data[j] (or null) whose keys are names,
// calling field with the index of each and of its value; it gives up on
// duplicate, escaped or case-folded keys and on a value of another type.
func (f *harFast) object(j int, names *harNames, field func(k, j int) int) int {
	if f.data[j] == 'n' {
		return jsonwalk.WalkLiteral(f.data, j, "null")
	}
	seen := 0
	return jsonwalk.WalkObject(f.data, j, func(key []byte, j int) int {
		k, ok := harKey(key, names)
		switch {
		case !ok || k >= 0 && seen&(1<<k) != 0:
			return -1
		case k < 0:
			return harSkip(f.data, j, &f.stack)
		}
		seen |= 1 << k
		return field(k, j)
	})
}

// entry reads the entry object at data[j] into f.e and returns the index
// past it, or -1 when the entry needs the general route.
func (f *harFast) entry(j int) int {
	f.e = harFastEntry{reqH: f.e.reqH[:0], respH: f.e.respH[:0]}
	f.arena = f.arena[:0]
	return f.object(j, harEntryFields, func(k, j int) int {
		switch k {
		case 0:
			return f.str(j, &f.e.started)
		case 1:
			return f.number(j, &f.e.time)
		case 2:
			return f.object(j, harRequestFields, f.requestField)
		case 3:
			return f.object(j, harResponseFields, f.responseField)
		}
		return f.timings(j)
	})
}

// requestField reads field k of the request at data[j].
func (f *harFast) requestField(k, j int) int {
	switch k {
	case 0:
		return f.str(j, &f.e.url)
	case 1:
		return f.str(j, nil)
	case 2:
		return f.headers(j, false)
	}
	return f.object(j, harPostDataFields, func(k, j int) int {
		if k == 0 {
			return f.str(j, nil)
		}
		return f.bodyText(j, &f.post, &f.e.post)
	})
}

// responseField reads field k of the response at data[j].
func (f *harFast) responseField(k, j int) int {
	switch k {
	case 0:
		if f.data[j] == 'n' {
			return jsonwalk.WalkLiteral(f.data, j, "null")
		}
		v, end, ok := jsonwalk.StrictInt(f.data, j)
		if !ok {
			return -1
		}
		f.e.status = v
		return end
	case 1:
		return f.headers(j, true)
	}
	return f.object(j, harContentFields, func(k, j int) int {
		switch k {
		case 0:
			return f.str(j, &f.e.mime)
		case 1:
			return f.bodyText(j, &f.body, &f.e.text)
		}
		return f.str(j, &f.e.encoding)
	})
}

// bodyText unescapes the string (or null) at data[j] into *buf and sets
// dst to it; it returns the index past the value, or -1 for any other
// value.
func (f *harFast) bodyText(j int, buf *[]byte, dst *harBody) int {
	if f.data[j] == 'n' {
		return jsonwalk.WalkLiteral(f.data, j, "null")
	}
	text, end, exact := harUnescape(*buf, f.data, j)
	*buf = text
	*dst = harBody{text, exact}
	return end
}

// str reads the string (or null) at data[j] into dst, when dst is not nil,
// and returns the index past it, or -1 for any other value.
func (f *harFast) str(j int, dst *harStr) int {
	if f.data[j] == 'n' {
		return jsonwalk.WalkLiteral(f.data, j, "null")
	}
	s, end, plain, ok := harString(f.data, j)
	if !ok {
		return -1
	}
	if dst != nil {
		*dst = harStr{s, plain}
	}
	return end
}

// number reads the number (or null) at data[j] into dst as its raw bytes
// and returns the index past it, or -1 for any other value.
func (f *harFast) number(j int, dst *[]byte) int {
	if f.data[j] == 'n' {
		return jsonwalk.WalkLiteral(f.data, j, "null")
	}
	if f.data[j] != '-' && (f.data[j] < '0' || f.data[j] > '9') {
		return -1
	}
	end, st := jsonwalk.NumberEnd(f.data, j)
	if st != jsonwalk.OK {
		return -1
	}
	*dst = f.data[j:end]
	return end
}

// timings reads the timings map at data[j]: every value a number, the
// last of a repeated key winning as in a Go map.
func (f *harFast) timings(j int) int {
	if f.data[j] == 'n' {
		return jsonwalk.WalkLiteral(f.data, j, "null")
	}
	return jsonwalk.WalkObject(f.data, j, func(key []byte, j int) int {
		k := harTimingIndex(key)
		if k < 0 && bytes.IndexByte(key, '\\') >= 0 {
			return -1
		}
		var v []byte
		end := f.number(j, &v)
		if v == nil {
			return -1 // null is "" in the map, which the general route rejects
		}
		if k >= 0 {
			f.e.timings[k] = v
		}
		return end
	})
}

// harTimingIndex returns the index of key in harTimingNames, or -1.
func harTimingIndex(key []byte) int {
	switch string(key) {
	case "blocked":
		return 0
	case "dns":
		return 1
	case "connect":
		return 2
	case "send":
		return 3
	case "wait":
		return 4
	case "receive":
		return 5
	}
	return -1
}

// headers reads the headers list at data[j], keeping the id headers.
func (f *harFast) headers(j int, resp bool) int {
	if f.data[j] == 'n' {
		return jsonwalk.WalkLiteral(f.data, j, "null")
	}
	return jsonwalk.WalkArray(f.data, j, func(j int) int {
		var name, value harStr
		end := f.object(j, harHeaderFields, func(k, j int) int {
			return f.str(j, [...]*harStr{&name, &value}[k])
		})
		if end < 0 {
			return -1
		}
		n, ok := f.text(name)
		if !ok {
			return -1
		}
		kind := harHeaderKind(n, resp)
		if kind == 0 {
			return end
		}
		v, ok := f.text(value)
		if !ok {
			return -1
		}
		if resp {
			f.e.respH = append(f.e.respH, harHdr{kind, v})
		} else {
			f.e.reqH = append(f.e.reqH, harHdr{kind, v})
		}
		return end
	})
}

// text returns the contents of s unescaped (in f.arena when it has
// escapes), and false when unescaping would not give encoding/json's
// string exactly.
func (f *harFast) text(s harStr) ([]byte, bool) {
	if s.plain || len(s.raw) == 0 {
		return s.raw, true
	}
	start := len(f.arena)
	var ok bool
	f.arena, ok = jsonwalk.AppendUnescapedText(f.arena, s.raw)
	return f.arena[start:], ok
}

// intern returns b as a string, shared between events for the few values
// that repeat (endpoints, models).
func (f *harFast) intern(b []byte) string {
	if s, ok := f.interned[string(b)]; ok {
		return s
	}
	s := string(b)
	if f.interned == nil {
		f.interned = map[string]string{}
	}
	if len(f.interned) < 256 {
		f.interned[s] = s
	}
	return s
}
