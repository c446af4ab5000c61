package vllmbench

import (
	"bytes"
	"cmp"
	"encoding/json"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The vllm-bench document is walked once in place: each per-request list is
// kept as spans of the document and numbers are read from their bytes; the
// itls, most of the numbers, are converted as they are validated
// (vllmbench_itls.go). One Attrs map serves the whole run (the sink copies
// it). Keys match as encoding/json matches struct fields (escapes decoded,
// exact name first, else case-insensitively; a repeated key's last value
// wins), a number may be written as a JSON string holding one, and a
// document that encoding/json would refuse for vbenchDoc (bad syntax, a value
// of the wrong type) is rejected in encoding/json's words (vbenchRefuse).

// vbenchSpan is a number's place in the document; lo < 0 is null.
type vbenchSpan struct{ lo, hi int }

// vbenchReader reads a result document in place.
type vbenchReader struct {
	data    []byte
	run     vbenchRun
	endType string
	lists   [5][]vbenchSpan // start_times, ttfts, latencies, input_lens, output_lens
	itls    vbenchITLs
	hasITLs bool
	errs    []vbenchErr
	hint    int // the longest per-request list read so far: the capacity of the next
	stack   []byte
}

// vbenchErr is one element of errors: its unescaped text ("" for null).
type vbenchErr struct{ text string }

// vbenchFields are the document keys read, by index; the
// first five are number lists in the order of vbenchReader.lists.
var vbenchFields = []string{"start_times", "ttfts", "latencies", "input_lens", "output_lens",
	"itls", "errors", "model_id", "backend", "endpoint_type", "label"}

// read walks data, a whole result document, and reports false when
// encoding/json would refuse it for vbenchDoc.
func (f *vbenchReader) read(data []byte) bool {
	f.data = data
	end := jsonwalk.WalkObject(data, 0, func(key []byte, j int) int {
		k, ok := vbenchKey(key)
		switch {
		case !ok:
			return -1
		case k < 0:
			end, st, grown := jsonwalk.ValueEnd(data, j, f.stack)
			if f.stack = grown[:0]; st != jsonwalk.OK {
				return -1
			}
			return end
		}
		return f.member(k, j)
	})
	return end >= 0 && jsonwalk.SkipWS(data, end) == len(data)
}

// vbenchKey returns the index in vbenchFields of the raw key (between its
// quotes) as encoding/json matches it: escapes decoded, the exact name
// first, else a name equal under Unicode case folding; -1 for another key,
// ok false for a key that is not a valid JSON string.
func vbenchKey(key []byte) (k int, ok bool) {
	if bytes.IndexByte(key, '\\') >= 0 {
		if key, ok = jsonwalk.AppendUnescapedText(nil, key); !ok {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
				return -1, false
			}
			key = []byte(s)
		}
	}
	for i, name := range vbenchFields {
		if string(key) == name {
			return i, true
		}
	}
	for i, name := range vbenchFields {
		if bytes.EqualFold(key, []byte(name)) {
			return i, true
		}
	}
	return -1, true
}

// member reads the value at data[j] of field k and returns the index past
// it, or -1.
func (f *vbenchReader) member(k, j int) int {
	b := f.data
	switch {
	case k < 5:
		if b[j] == 'n' {
			f.lists[k] = nil
			return jsonwalk.WalkLiteral(b, j, "null")
		}
		var end int
		f.lists[k], end = f.numbers(j)
		f.hint = max(f.hint, len(f.lists[k]))
		return end
	case vbenchFields[k] == "itls":
		return f.readITLs(j)
	case vbenchFields[k] == "errors":
		return f.readErrors(j)
	}
	if b[j] == 'n' {
		if vbenchFields[k] == "label" {
			f.run.label = "" // a *string; null leaves the others as they were
		}
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	s, end, ok := vbenchString(b, j)
	if !ok {
		return -1
	}
	switch vbenchFields[k] {
	case "model_id":
		f.run.model = s
	case "backend":
		f.run.backend = s
	case "endpoint_type":
		f.endType = s
	case "label":
		f.run.label = s
	}
	return end
}

// numbers returns the spans of the array of numbers and nulls at data[j],
// in a list with room for f.hint, and the index past it, or -1 for
// anything else. It is a plain loop rather than a jsonwalk.WalkArray callback.
func (f *vbenchReader) numbers(j int) ([]vbenchSpan, int) {
	b := f.data
	dst := make([]vbenchSpan, 0, f.hint)
	if j >= len(b) || b[j] != '[' {
		return dst, -1
	}
	if j = jsonwalk.SkipWS(b, j+1); j < len(b) && b[j] == ']' {
		return dst, j + 1
	}
	for j < len(b) {
		e, s := vbenchElem(b, j)
		if e < 0 {
			return dst, -1
		}
		dst = append(dst, s)
		if j = jsonwalk.SkipWS(b, e); j >= len(b) {
			return dst, -1
		}
		switch b[j] {
		case ']':
			return dst, j + 1
		case ',':
			j = jsonwalk.SkipWS(b, j+1)
		default:
			return dst, -1
		}
	}
	return dst, -1
}

// vbenchElem reads the number, null or number-holding string (as
// json.Number takes it) at b[j] and returns the index past it (-1 for
// anything else) and the span of the number's text.
func vbenchElem(b []byte, j int) (int, vbenchSpan) {
	switch c := b[j]; {
	case c == 'n':
		return jsonwalk.WalkLiteral(b, j, "null"), vbenchSpan{-1, -1}
	case c == '"':
		s, end, plain, ok := jsonwalk.WalkString(b, j)
		if !ok || !plain {
			return -1, vbenchSpan{} // an escaped number: see vbenchRefuse
		}
		if len(s) == 0 || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
			return -1, vbenchSpan{}
		}
		if e, st := jsonwalk.NumberEnd(b, j+1); st != jsonwalk.OK || e != end-1 {
			return -1, vbenchSpan{} // the closing quote ends the number in b
		}
		return end, vbenchSpan{j + 1, end - 1}
	case c != '-' && (c < '0' || c > '9'):
		return -1, vbenchSpan{}
	}
	e, st := jsonwalk.NumberEnd(b, j)
	if st != jsonwalk.OK {
		return -1, vbenchSpan{}
	}
	return e, vbenchSpan{j, e}
}

// readITLs reads itls, an array of number arrays or nulls (or null).
func (f *vbenchReader) readITLs(j int) int {
	b := f.data
	if b[j] == 'n' {
		f.hasITLs, f.itls = false, vbenchITLs{}
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	f.hasITLs, f.itls = true, vbenchITLs{}
	f.itls.sets = make([]vbenchITLSet, 0, f.hint)
	end := jsonwalk.WalkArray(b, j, func(k int) int {
		switch b[k] {
		case 'n':
			f.itls.sets = append(f.itls.sets, vbenchITLSet{arr: vbenchSpan{-1, -1}})
			return jsonwalk.WalkLiteral(b, k, "null")
		case '[':
			return f.itls.array(b, k)
		}
		return -1
	})
	f.hint = max(f.hint, len(f.itls.sets))
	return end
}

// readErrors reads errors, an array of strings or nulls (or null).
func (f *vbenchReader) readErrors(j int) int {
	b := f.data
	if b[j] == 'n' {
		f.errs = nil
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	f.errs = make([]vbenchErr, 0, f.hint)
	return jsonwalk.WalkArray(b, j, func(k int) int {
		if b[k] == 'n' {
			f.errs = append(f.errs, vbenchErr{})
			return jsonwalk.WalkLiteral(b, k, "null")
		}
		s, end, ok := vbenchString(b, k)
		if !ok {
			return -1
		}
		f.errs = append(f.errs, vbenchErr{s})
		return end
	})
}

// emit reports the requests read.
func (f *vbenchReader) emit(in *decode.Input, sink decode.Sink) {
	n := max(len(f.itls.sets), len(f.errs))
	for _, l := range f.lists {
		n = max(n, len(l))
	}
	if n == 0 {
		sink.Skip(1, "no per-request lists (saved without --save-detailed)")
		return
	}
	starts := f.lists[0]
	f.run.backend = cmp.Or(f.run.backend, f.endType)
	f.run.stream = f.hasITLs
	f.run.origin = vbenchOrigin(len(starts), func(i int) []byte { return f.text(starts[i]) })
	var req vbenchReq
	var raw []byte
	for i := range n {
		req = vbenchReq{start: f.at(0, i), ttft: f.at(1, i), latency: f.at(2, i),
			input: f.at(3, i), output: f.at(4, i)}
		if i < len(f.itls.sets) && f.itls.sets[i].arr.lo >= 0 {
			s := f.itls.sets[i]
			req.itlNs, req.itlArr = f.itls.values(s), f.data[s.arr.lo:s.arr.hi]
		}
		if i < len(f.errs) {
			req.err = f.errs[i].text
		}
		raw = f.run.emit(in, sink, i, &req, raw)
	}
}

// at is the text of list k's element i, nil when missing or null.
func (f *vbenchReader) at(k, i int) []byte {
	if i >= len(f.lists[k]) {
		return nil
	}
	return f.text(f.lists[k][i])
}

// text is the bytes of span s, nil for null.
func (f *vbenchReader) text(s vbenchSpan) []byte {
	if s.lo < 0 {
		return nil
	}
	return f.data[s.lo:s.hi:s.hi]
}

// vbenchString reads the JSON string at b[j] and returns its text and the
// index after it; ok is false for anything else, or a string whose
// unescaping jsonwalk.AppendUnescapedText leaves to a full decoder.
func vbenchString(b []byte, j int) (string, int, bool) {
	s, end, plain, ok := jsonwalk.WalkString(b, j)
	switch {
	case !ok:
		return "", end, false
	case len(s) == 0:
		return "", end, true
	case plain:
		return string(s), end, true
	}
	if t, ok := jsonwalk.AppendUnescapedText(nil, s); ok {
		return string(t), end, true
	}
	var t string // escapes AppendUnescapedText leaves (bad surrogates): encoding/json's reading
	err := json.Unmarshal(b[j:end], &t)
	return t, end, err == nil
}
