package tgi

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// This file reads a TGI --json-output line in place for the fast path
// (tgi_fast.go), as tgiParseJSON does with encoding/json.

// The top-level keys tgiParseJSON's struct has, as bits.
var tgiJSONKeys = [...]string{"timestamp", "level", "message", "fields", "span", "spans"}

// tgiJSONRead is what parseJSON has read of a record so far.
type tgiJSONRead struct {
	seen               int // tgiJSONKeys bits
	ts, level, message []byte
	hasMessage         bool
	fieldsMessage      []byte // fields.message when a string
	span               tgiFastSpan
	hasSpan            bool
}

// parseJSON reads a JSON record line (isJSONRecord) into d.rec; it
// reports false for invalid JSON and for what the fast path does not read
// as json.Unmarshal would (keys matching the struct's fields only when case
// is folded, repeated keys, values of other types, nested values in spans).
func (d *tgiFast) parseJSON(b []byte) bool {
	var j tgiJSONRead
	end := jsonwalk.WalkObject(b, 0, func(key []byte, i int) int { return d.jsonMember(&j, b, key, i) })
	if end < 0 || jsonwalk.SkipWS(b, end) != len(b) || j.ts == nil || j.level == nil {
		return false
	}
	r := &d.rec
	ns, ok := textscan.RFC3339Ns(j.ts)
	if !ok {
		return false
	}
	r.timeNs = ns
	for _, c := range j.level {
		if c < 'A' || c > 'Z' {
			return false // strings.ToUpper(strings.TrimSpace(level)) may change it
		}
	}
	r.level, r.message = j.level, j.fieldsMessage
	if j.hasMessage {
		r.message = j.message
	}
	if len(r.spans) == 0 && j.hasSpan {
		r.spans = append(r.spans, j.span)
	}
	return true
}

// jsonMember reads one top-level member and returns the index after its
// value, or -1.
func (d *tgiFast) jsonMember(j *tgiJSONRead, b, key []byte, i int) int {
	k, ok := tgiJSONKey(key)
	switch {
	case !ok || k >= 0 && (j.seen&(1<<k) != 0 || i >= len(b)):
		return -1
	case k < 0:
		return jsonwalk.ScalarEnd(b, i, &d.stack)
	}
	j.seen |= 1 << k
	switch c := b[i]; {
	case k <= 2 && c == '"':
		return d.jsonTopString(j, k, b, i)
	case k >= 2 && c == 'n':
		end, st := jsonwalk.LiteralEnd(b, i)
		if st != jsonwalk.OK {
			return -1
		}
		return end
	case k == 3 && c == '{':
		return d.jsonFields(j, b, i)
	case k == 4 && c == '{':
		end := d.jsonSpan(b, i, &j.span)
		j.hasSpan = end >= 0
		return end
	case k == 5 && c == '[':
		return d.jsonSpans(b, i)
	}
	return -1
}

// tgiJSONKey returns the index in tgiJSONKeys of a top-level key, -1 for
// another key; ok is false for a key the struct decoding may match only
// after unescaping or folding case.
func tgiJSONKey(key []byte) (k int, ok bool) {
	k = -1
	for n, name := range tgiJSONKeys {
		if string(key) == name {
			k = n
		} else if bytes.EqualFold(key, []byte(name)) || bytes.IndexByte(key, '\\') >= 0 {
			return -1, false
		}
	}
	return k, true
}

// jsonTopString reads the string value of timestamp, level or message.
func (d *tgiFast) jsonTopString(j *tgiJSONRead, k int, b []byte, i int) int {
	end, st := jsonwalk.StringEndFast(b, i)
	if st != jsonwalk.OK {
		return -1
	}
	v, _ := d.jsonText(b[i:end])
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
func (d *tgiFast) jsonFields(j *tgiJSONRead, b []byte, i int) int {
	return jsonwalk.WalkObject(b, i, func(key []byte, i int) int {
		end := d.jsonSpanValue(b, i)
		if end < 0 || bytes.IndexByte(key, '\\') >= 0 {
			return -1
		}
		if string(key) == "message" {
			j.fieldsMessage = nil
			if b[i] == '"' {
				j.fieldsMessage, _ = d.jsonText(b[i:end])
			}
		}
		return end
	})
}

// jsonSpans reads the "spans" array: objects only.
func (d *tgiFast) jsonSpans(b []byte, i int) int {
	i = jsonwalk.SkipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for i < len(b) && b[i] == '{' {
		var sp tgiFastSpan
		end := d.jsonSpan(b, i, &sp)
		if end < 0 {
			return -1
		}
		d.rec.spans = append(d.rec.spans, sp)
		switch i = jsonwalk.SkipWS(b, end); {
		case i < len(b) && b[i] == ',':
			i = jsonwalk.SkipWS(b, i+1)
		case i < len(b) && b[i] == ']':
			return i + 1
		default:
			return -1
		}
	}
	return -1
}

// jsonSpan reads one span object: "name" (the last one) and the fields.
func (d *tgiFast) jsonSpan(b []byte, i int, sp *tgiFastSpan) int {
	r := &d.rec
	sp.lo = len(r.fields)
	end := jsonwalk.WalkObject(b, i, func(key []byte, i int) int {
		end := d.jsonSpanValue(b, i)
		if end < 0 || bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			return -1
		}
		if string(key) == "name" {
			sp.name = d.tgiFieldAt(key, b[i:end], true)
		} else {
			r.fields = append(r.fields, d.tgiFieldAt(key, b[i:end], true))
		}
		return end
	})
	sp.hi = len(r.fields)
	d.index(sp)
	return end
}

// jsonSpanValue checks a value that json.Unmarshal decodes into an any: a
// string, true, false, null or a number within float64's range; nested
// objects and arrays are left to the general route.
func (d *tgiFast) jsonSpanValue(b []byte, i int) int {
	if i >= len(b) || b[i] == '{' || b[i] == '[' {
		return -1
	}
	end := jsonwalk.ScalarEnd(b, i, &d.stack)
	// Up to 15 digits without an exponent always fit; longer numbers or an
	// exponent ("1e700", found by FuzzTGIFast) are parsed as Unmarshal does.
	if end > 0 && (b[i] == '-' || b[i] >= '0' && b[i] <= '9') && (end-i > 15 || bytes.ContainsAny(b[i:end], "eE")) {
		if _, err := strconv.ParseFloat(string(b[i:end]), 64); err != nil {
			return -1
		}
	}
	return end
}

// jsonText renders a JSON value as tgiJSONString does the value
// json.Unmarshal gives; ok is false for an object or array.
func (d *tgiFast) jsonText(v []byte) ([]byte, bool) {
	switch c := v[0]; {
	case c == '"':
		s := v[1 : len(v)-1]
		if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
			return s, true
		}
		n := len(d.unesc)
		var ok bool
		if d.unesc, ok = jsonwalk.AppendUnescaped(d.unesc, v); !ok {
			d.unesc = append(d.unesc[:n], decode.JSONString(json.RawMessage(v))...)
		}
		return d.unesc[n:], true
	case c == 'n':
		return nil, true
	case c == 't' || c == 'f':
		return v, true
	case c == '{' || c == '[':
		return nil, false
	}
	if len(v) <= 16 && !bytes.ContainsAny(v, ".eE") {
		return v, true // an integer below 2^53: its float64 prints the same
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return nil, false
	}
	n := len(d.unesc)
	d.unesc = strconv.AppendFloat(d.unesc, f, 'f', -1, 64)
	return d.unesc[n:], true
}
