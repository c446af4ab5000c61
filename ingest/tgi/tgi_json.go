package tgi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// This file reads a TGI --json-output line in place, as encoding/json
// decodes it into tgiJSONRecord: keys matched as it matches struct fields
// (escapes decoded, the exact name first, else case-insensitively), a
// repeated key's last value wins, and the span maps of a repeated "span" or
// "spans" are merged as it merges them into the maps it already holds. A
// line it would refuse (bad syntax, a value of the wrong type, a number
// beyond float64) is rejected in its words.

// tgiJSONRecord is what encoding/json decodes a --json-output line into; it
// is decoded only to word the error of a line it refuses.
type tgiJSONRecord = struct {
	Timestamp string           `json:"timestamp"`
	Level     string           `json:"level"`
	Message   *string          `json:"message"`
	Fields    map[string]any   `json:"fields"`
	Span      map[string]any   `json:"span"`
	Spans     []map[string]any `json:"spans"`
}

// tgiJSONKeys are the JSON names of tgiJSONRecord's fields.
var tgiJSONKeys = []string{"timestamp", "level", "message", "fields", "span", "spans"}

// tgiJSONRead is what parseJSON has read of a record so far.
type tgiJSONRead struct {
	ts, level, message []byte
	hasMessage         bool   // message is a string, not null
	fieldsMessage      []byte // fields.message when a string
	span               tgiSpan
	hasSpan            bool // span is an object, not null
	spans              jsonwalk.List
}

// parseJSON reads a JSON record line (isJSONRecord) into d.rec; it returns
// encoding/json's error for a line it refuses, or the time's.
func (d *tgiReader) parseJSON(b []byte) error {
	j := tgiJSONRead{span: tgiSpan{at: tgiNoFields}}
	d.deep, d.refused = false, false
	end := jsonwalk.WalkObject(b, 0, func(key []byte, i int) int { return d.jsonMember(&j, b, key, i) })
	if end >= 0 && j.spans.N > 1 {
		d.spansOverlay(b, &j.spans)
	}
	if end < 0 || jsonwalk.SkipWS(b, end) != len(b) || d.refused || d.deep && !json.Valid(b) {
		var rec tgiJSONRecord
		return json.Unmarshal(b, &rec)
	}
	r := &d.rec
	if !r.setTime(j.ts) {
		return fmt.Errorf("timestamp %q: not RFC 3339", decode.TruncateDetail(string(j.ts)))
	}
	r.level, r.message = j.level, j.fieldsMessage
	for _, c := range j.level {
		if c < 'A' || c > 'Z' {
			r.level = []byte(strings.ToUpper(strings.TrimSpace(string(j.level))))
			break
		}
	}
	if j.hasMessage {
		r.message = j.message
	}
	if len(r.spans) == 0 && j.hasSpan {
		r.spans = append(r.spans, j.span)
	}
	return nil
}

// jsonMember reads one top-level member and returns the index after its
// value, or -1 for bytes that are not JSON.
func (d *tgiReader) jsonMember(j *tgiJSONRead, b, key []byte, i int) int {
	k, _ := jsonwalk.FieldIndex(key, tgiJSONKeys) // the walk validated the key
	c := b[i]
	switch {
	case k < 0:
		return d.skip(b, i)
	case c == 'n' && k == 2:
		j.hasMessage = false
	case c == 'n' && k == 3:
		j.fieldsMessage = nil
	case c == 'n' && k == 4:
		j.span, j.hasSpan = tgiSpan{at: tgiNoFields}, false
	case c == 'n' && k == 5:
		j.spans.Reset()
		d.rec.spans = d.rec.spans[:0]
	case c == 'n': // a null string leaves it as it is
	case k <= 2 && c == '"':
		return d.jsonTopString(j, k, b, i)
	case k == 3 && c == '{':
		return d.jsonFields(j, b, i)
	case k == 4 && c == '{':
		j.hasSpan = true
		return d.jsonSpan(b, i, &j.span)
	case k == 5 && c == '[':
		return d.jsonSpans(j, b, i)
	default:
		return d.refuse(b, i)
	}
	return jsonwalk.WalkLiteral(b, i, "null")
}

// jsonTopString reads the string value of timestamp, level or message.
func (d *tgiReader) jsonTopString(j *tgiJSONRead, k int, b []byte, i int) int {
	end, st := jsonwalk.StringEndFast(b, i)
	if st != jsonwalk.OK {
		return -1
	}
	v := d.jsonText(b[i:end])
	switch k {
	case 0:
		j.ts = v
	case 1:
		j.level = v
	default:
		j.message, j.hasMessage = v, true
	}
	return end
}

// jsonFields reads the "fields" object: fields.message, the last one, when
// it is a string.
func (d *tgiReader) jsonFields(j *tgiJSONRead, b []byte, i int) int {
	return jsonwalk.WalkObject(b, i, func(key []byte, i int) int {
		end := d.jsonAny(b, i)
		if text, _ := jsonwalk.KeyText(key); end >= 0 && string(text) == "message" {
			j.fieldsMessage = nil
			if b[i] == '"' {
				j.fieldsMessage = d.jsonText(b[i:end])
			}
		}
		return end
	})
}

// jsonSpans reads the "spans" array (the first since null or []; later
// ones are merged by spansOverlay).
func (d *tgiReader) jsonSpans(j *tgiJSONRead, b []byte, i int) int {
	if !j.spans.Add(b, i) {
		if j.spans.N == 0 {
			d.rec.spans = d.rec.spans[:0]
		}
		return d.skip(b, i)
	}
	d.rec.spans = d.rec.spans[:0]
	return jsonwalk.WalkArray(b, i, func(e int) int {
		sp := tgiSpan{at: tgiNoFields}
		end := d.jsonSpanFrom(b, e, &sp)
		d.rec.spans = append(d.rec.spans, sp)
		return end
	})
}

// jsonSpanFrom reads a span map at b[i] into sp: an object merged into it,
// or null, which empties it; another value is refused.
func (d *tgiReader) jsonSpanFrom(b []byte, i int, sp *tgiSpan) int {
	switch b[i] {
	case '{':
		return d.jsonSpan(b, i, sp)
	case 'n':
		*sp = tgiSpan{at: tgiNoFields}
		return jsonwalk.WalkLiteral(b, i, "null")
	}
	return d.refuse(b, i)
}

// refuse notes a value of the wrong type at b[i] and returns the index past it.
func (d *tgiReader) refuse(b []byte, i int) int {
	d.refused = true
	return d.skip(b, i)
}

// jsonSpan merges one span object at b[i] into sp: "name" (the last one)
// and the fields, by their decoded keys.
func (d *tgiReader) jsonSpan(b []byte, i int, sp *tgiSpan) int {
	r := &d.rec
	return jsonwalk.WalkObject(b, i, func(key []byte, i int) int {
		end := d.jsonAny(b, i)
		if end < 0 {
			return -1
		}
		text, _ := jsonwalk.KeyText(key)
		f := d.tgiFieldAt(key, b[i:end], true)
		if string(text) == "name" {
			sp.name = f
		} else if k := tgiKeyOf(text); k >= 0 {
			sp.at[k] = int32(len(r.fields))
			r.fields = append(r.fields, f)
		}
		return end
	})
}

// jsonAny checks a value that encoding/json decodes into an any: numbers
// (nested ones too) must be within float64's range, else the line is
// refused. It returns the index past the value, or -1.
func (d *tgiReader) jsonAny(b []byte, i int) int {
	end := d.skip(b, i)
	switch c := b[i]; {
	case end < 0:
	case c == '{' || c == '[':
		var v any
		if json.Unmarshal(b[i:end], &v) != nil {
			d.refused = true
		}
	case c == '-' || c >= '0' && c <= '9':
		// Up to 15 digits without an exponent always fit; longer numbers or
		// an exponent ("1e700") are parsed as encoding/json parses them.
		if end-i > 15 || bytes.ContainsAny(b[i:end], "eE") {
			if _, err := strconv.ParseFloat(string(b[i:end]), 64); err != nil {
				d.refused = true
			}
		}
	}
	return end
}

// skip validates the JSON value at b[i] and returns the index past it, or
// -1; a deep value marks the line for encoding/json's own depth check.
func (d *tgiReader) skip(b []byte, i int) int {
	end, deep := jsonwalk.SkipDeep(b, i, &d.stack)
	d.deep = d.deep || deep
	return end
}

// jsonText renders a JSON value as the text form would show it unquoted:
// a string decoded, a number as its float64 prints ('f', shortest), true,
// false, null as "", an object or array as encoding/json writes it again.
func (d *tgiReader) jsonText(v []byte) []byte {
	n := len(d.unesc)
	switch c := v[0]; {
	case c == '"':
		s := v[1 : len(v)-1]
		if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
			return s
		}
		var ok bool
		if d.unesc, ok = jsonwalk.AppendUnescaped(d.unesc, v); !ok {
			d.unesc = append(d.unesc[:n], decode.JSONString(json.RawMessage(v))...)
		}
	case c == 'n':
		return nil
	case c == 't' || c == 'f':
		return v
	case c == '{' || c == '[':
		var x any
		json.Unmarshal(v, &x)
		out, _ := json.Marshal(x)
		d.unesc = append(d.unesc, out...)
	case len(v) <= 16 && !bytes.ContainsAny(v, ".eE"):
		return v // an integer below 2^53: its float64 prints the same
	default:
		f, _ := strconv.ParseFloat(string(v), 64) // in range: jsonAny checked it
		d.unesc = strconv.AppendFloat(d.unesc, f, 'f', -1, 64)
	}
	return d.unesc[n:]
}

// spansOverlay reads the spans again from all the arrays of "spans": span
// k is the map of element k of each array that has one, merged in order
// (null empties it), as encoding/json decodes into the maps it already
// holds; spans past the last array's length are read for encoding/json's
// errors only.
func (d *tgiReader) spansOverlay(b []byte, l *jsonwalk.List) {
	elems, last := l.Elements(b, func(e int) int { return d.skip(b, e) })
	d.rec.spans = d.rec.spans[:0]
	for k, srcs := range elems {
		sp := tgiSpan{at: tgiNoFields}
		for _, e := range srcs {
			d.jsonSpanFrom(b, e, &sp)
		}
		if k < last {
			d.rec.spans = append(d.rec.spans, sp)
		}
	}
}
