package har

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// An entry is read from its bytes in one pass, which checks the syntax as
// it goes (skipped values by jsonwalk.ValueEnd; an entry holding one that
// nests near encoding/json's limit is checked again whole, reader.walked),
// as encoding/json decodes it into harEntry: keys match fields as encoding/json matches
// them (jsonwalk.FieldIndex: escapes decoded, the exact name first, else
// case-insensitively), strings decode as it decodes them (jsonwalk.Text:
// invalid UTF-8 and lone surrogates become U+FFFD), a repeated key's last
// value wins, null leaves a string, number or struct as it was and clears
// a pointer, a slice or a map, an object met twice is merged, a list met
// twice is decoded into the elements already there, and a json.Number may
// be written as a string holding one. A value of another type makes
// encoding/json refuse the entry: read returns -1, as for bytes that are
// not JSON.

// entry holds what an entry gives its event; strings are their decoded
// bytes (in the document when it holds them as they are, else copied).
type entry struct {
	started  []byte
	time     []byte      // the json.Number; nil when "" (missing or null)
	url      []byte      // request.url
	headers  [2][]header // request and response headers
	post     []byte      // request.postData.text; nil for a null postData
	status   int64       // response.status
	mime     []byte      // response.content.mimeType
	text     []byte      // response.content.text
	encoding []byte      // response.content.encoding
	timings  [6][]byte   // the json.Number of each of timingNames; nil when not in the map, empty for null
}

// header is one element of a headers list.
type header struct{ name, value []byte }

// timingNames are the timings the event sums, in the order it sums them.
var timingNames = [6]string{"blocked", "dns", "connect", "send", "wait", "receive"}

// The JSON names of the fields of harEntry's structs, by index.
var (
	entryNames    = []string{"startedDateTime", "time", "request", "response", "timings"}
	requestNames  = []string{"url", "method", "headers", "postData"}
	postDataNames = []string{"mimeType", "text"}
	responseNames = []string{"status", "headers", "content"}
	contentNames  = []string{"mimeType", "text", "encoding"}
	headerNames   = []string{"name", "value"}
)

// read reads the entry at raw[i] into r.e and returns the index past it;
// -1 when it is not JSON or encoding/json would refuse to decode it into
// harEntry.
func (r *reader) read(raw []byte, i int) int {
	for i := range r.e.headers {
		h := r.e.headers[i]
		clear(h[:cap(h)])
		r.e.headers[i] = h[:0]
	}
	r.e = entry{headers: r.e.headers}
	return r.object(raw, i, entryNames, func(k, j int) int {
		e := &r.e
		switch k {
		case 0:
			return r.str(raw, j, &e.started)
		case 1:
			return r.number(raw, j, &e.time)
		case 2:
			return r.object(raw, j, requestNames, func(k, j int) int { return r.request(raw, k, j) })
		case 3:
			return r.object(raw, j, responseNames, func(k, j int) int { return r.response(raw, k, j) })
		}
		return r.timings(raw, j)
	})
}

// request reads field k of the request at b[j].
func (r *reader) request(b []byte, k, j int) int {
	switch k {
	case 0:
		return r.str(b, j, &r.e.url)
	case 1:
		return r.str(b, j, nil)
	case 2:
		return r.headers(b, j, &r.e.headers[0])
	}
	if b[j] == 'n' { // a nil *postData
		r.e.post = nil
		return null(b, j)
	}
	return r.object(b, j, postDataNames, func(k, j int) int {
		if k == 0 {
			return r.str(b, j, nil)
		}
		return r.body(b, j, &r.post, &r.e.post)
	})
}

// response reads field k of the response at b[j].
func (r *reader) response(b []byte, k, j int) int {
	switch k {
	case 0:
		if b[j] == 'n' {
			return null(b, j)
		}
		v, end, ok := jsonwalk.StrictInt(b, j)
		if !ok {
			return -1 // not an int: a fraction, an exponent, out of range, not a number
		}
		r.e.status = v
		return end
	case 1:
		return r.headers(b, j, &r.e.headers[1])
	}
	return r.object(b, j, contentNames, func(k, j int) int {
		switch k {
		case 0:
			return r.str(b, j, &r.e.mime)
		case 1:
			return r.body(b, j, &r.text, &r.e.text)
		}
		return r.str(b, j, &r.e.encoding)
	})
}

// object reads the object at b[j] into a struct whose JSON field names
// are names: field reads the value of names[k] at b[j] and returns the
// index past it, or -1 for a value of the wrong type (or not JSON). Null
// leaves the struct as it was.
func (r *reader) object(b []byte, j int, names []string, field func(k, j int) int) int {
	switch {
	case j >= len(b):
		return -1
	case b[j] == 'n':
		return null(b, j)
	case b[j] != '{':
		return -1
	}
	return jsonwalk.WalkObject(b, j, func(key []byte, j int) int {
		k, ok := fieldIndex(key, names)
		switch {
		case !ok:
			return -1
		case k >= 0:
			return field(k, j)
		}
		return r.skip(b, j)
	})
}

// fieldIndex is jsonwalk.FieldIndex, sooner for a key of plain ASCII
// (most): it equals its decoded self, and folds only onto a name of its
// length.
func fieldIndex(key []byte, names []string) (int, bool) {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return jsonwalk.FieldIndex(key, names)
		}
	}
	for i, n := range names {
		if string(key) == n {
			return i, true
		}
	}
	for i, n := range names {
		if len(n) == len(key) && bytes.EqualFold(key, []byte(n)) {
			return i, true
		}
	}
	return -1, true
}

// null returns the index past the null at b[j], or -1.
func null(b []byte, j int) int { return jsonwalk.WalkLiteral(b, j, "null") }

// deepNesting is a nesting depth past which a value is checked again
// as part of the whole JSON value around it, whose nesting encoding/json
// limits to jsonwalk.MaxDepth.
const deepNesting = jsonwalk.MaxDepth - 64

// skip validates the value at b[j] and returns the index past it, or -1.
func (r *reader) skip(b []byte, j int) int {
	end, st, grown := jsonwalk.ValueEnd(b, j, r.stack)
	if r.stack = grown[:0]; cap(grown) > deepNesting {
		r.deep, r.stack = true, nil
	}
	return jsonwalk.EndIf(st == jsonwalk.OK, end)
}

// walked returns end, the index past the JSON value at b[i] that a walk
// read, or -1 when that value nests deeper than encoding/json allows.
func (r *reader) walked(b []byte, i, end int) int {
	if end < 0 || !r.deep {
		return end
	}
	r.deep = false
	e, st, _ := jsonwalk.ValueEnd(b, i, nil)
	return jsonwalk.EndIf(st == jsonwalk.OK, e)
}

// str reads the string (or null) at b[j] into *dst, when dst is not nil.
func (r *reader) str(b []byte, j int, dst *[]byte) int {
	switch b[j] {
	case 'n':
		return null(b, j)
	case '"':
	default:
		return -1
	}
	if dst == nil {
		end, st := jsonwalk.StringEnd(b, j)
		return jsonwalk.EndIf(st == jsonwalk.OK, end)
	}
	s, end, ok := jsonwalk.Text(b, j)
	*dst = s
	return jsonwalk.EndIf(ok, end)
}

// body reads the string (or null) at b[j], a body, into *buf and sets
// *dst to it.
func (r *reader) body(b []byte, j int, buf, dst *[]byte) int {
	switch b[j] {
	case 'n':
		return null(b, j)
	case '"':
	default:
		return -1
	}
	t, end, ok := jsonwalk.AppendString((*buf)[:0], b, j)
	if *buf = t; !ok {
		return -1
	}
	*dst = t
	return end
}

// number reads the json.Number (or null) at b[j] into *dst.
func (r *reader) number(b []byte, j int, dst *[]byte) int {
	if b[j] == 'n' {
		return null(b, j)
	}
	s, end, ok := jsonwalk.NumberText(b, j)
	if !ok {
		return -1
	}
	*dst = s
	return end
}

// headers reads the headers list (or null) at b[j] into *list.
func (r *reader) headers(b []byte, j int, list *[]header) int {
	return decodeList(b, j, list, func(h *header, j int) int {
		return r.object(b, j, headerNames, func(k, j int) int {
			return r.str(b, j, []*[]byte{&h.name, &h.value}[k])
		})
	})
}

// decodeList reads the list (or null) at b[j] into *list as encoding/json
// decodes a slice it already holds: elem decodes element i into
// (*list)[i], which holds what an earlier list of the value left there (as
// reflect.Value.SetLen leaves it); null and [] leave an empty new slice.
func decodeList[T any](b []byte, j int, list *[]T, elem func(e *T, j int) int) int {
	switch b[j] {
	case 'n':
		clear((*list)[:cap(*list)])
		*list = (*list)[:0]
		return null(b, j)
	case '[':
	default:
		return -1
	}
	n := 0
	end := jsonwalk.WalkArray(b, j, func(j int) int {
		if n < cap(*list) {
			*list = (*list)[:n+1]
		} else {
			var zero T
			*list = append(*list, zero)
		}
		n++
		return elem(&(*list)[n-1], j)
	})
	if *list = (*list)[:n]; n == 0 {
		clear((*list)[:cap(*list)])
	}
	return end
}

// timings reads the timings map (or null) at b[j]: every value a
// json.Number, null giving "", a repeated key's last value winning; the
// values of timingNames are kept.
func (r *reader) timings(b []byte, j int) int {
	switch b[j] {
	case 'n':
		r.e.timings = [6][]byte{}
		return null(b, j)
	case '{':
	default:
		return -1
	}
	return jsonwalk.WalkObject(b, j, func(key []byte, j int) int {
		v, end := b[j:j], -1 // null: ""
		if b[j] == 'n' {
			end = null(b, j)
		} else {
			end = r.number(b, j, &v)
		}
		if end < 0 {
			return -1
		}
		name, _ := jsonwalk.KeyText(key)
		if k := slices.Index(timingNames[:], string(name)); k >= 0 {
			r.e.timings[k] = v
		}
		return end
	})
}
