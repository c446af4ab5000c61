package triton

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// tritonEntry is one element of the trace array, read in place as
// encoding/json decodes it into this struct (Triton's entry):
//
//	ID           *json.Number `json:"id"`            a number, or a string holding one; null: none
//	ModelName    string       `json:"model_name"`    null leaves it
//	ModelVersion any          `json:"model_version"` kept as fmt.Sprint prints it, quotes trimmed
//	RequestID    string       `json:"request_id"`
//	ParentID     *json.Number `json:"parent_id"`
//	Timestamps   []struct {
//		Name string      `json:"name"`
//		Ns   json.Number `json:"ns"`
//	} `json:"timestamps"`
//
// Keys match as encoding/json matches fields (escapes decoded, the exact
// name first, else case-insensitively), a repeated key's last value wins,
// and any other value makes the element an "invalid entry".
type tritonEntry struct {
	id, parent       []byte // number texts; nil: absent or null
	model, requestID []byte
	version          []byte
	hasVersion       bool
	verText          []byte // scratch for a numeric model_version's text
	stamps           []tritonStamp
}

// tritonStamp is one element of timestamps: its name and its ns, a number
// text ("" when absent).
type tritonStamp struct{ name, ns []byte }

// tritonFields are the entry keys read, by index.
var tritonFields = []string{"id", "model_name", "model_version", "request_id", "parent_id", "timestamps"}

// tritonStampFields are the keys of a timestamps element.
var tritonStampFields = []string{"name", "ns"}

// tritonField returns the index of key (raw, between its quotes) in names
// as encoding/json matches it; -1 for another key, ok false for an invalid one.
func tritonField(key []byte, names []string) (int, bool) {
	if k, ok := jsonwalk.StructKey(key, names); ok {
		return k, true
	}
	return jsonwalk.FieldIndex(key, names)
}

// read walks the entry at b[i], an object, and returns the index past it,
// or -1 when encoding/json would refuse it (bad syntax, a value of the
// wrong type).
func (e *tritonEntry) read(f *tritonReader, b []byte, i int) int {
	*e = tritonEntry{verText: e.verText[:0], stamps: e.stamps[:0]}
	stampKeys := 0
	end := jsonwalk.WalkObject(b, i, func(key []byte, j int) int {
		k, ok := tritonField(key, tritonFields)
		switch {
		case !ok:
			return -1
		case k < 0:
			end, st, grown := jsonwalk.ValueEnd(b, j, f.stack)
			f.stack = grown[:0]
			return jsonwalk.EndIf(st == jsonwalk.OK, end)
		case tritonFields[k] == "timestamps":
			stampKeys++
		}
		return e.member(f, b, k, j)
	})
	if end >= 0 && stampKeys > 1 && !e.repeatedStamps(b[i:end]) {
		return -1
	}
	return end
}

// repeatedStamps reads the timestamps of an entry (raw) where the key
// repeats. encoding/json decodes a later array into the elements the
// earlier one left (an element is not cleared first, and elements past a
// shorter array's end stay for a longer one); that is left to it.
func (e *tritonEntry) repeatedStamps(raw []byte) bool {
	var v struct {
		Timestamps []struct {
			Name string      `json:"name"`
			Ns   json.Number `json:"ns"`
		} `json:"timestamps"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	e.stamps = e.stamps[:0]
	for _, s := range v.Timestamps {
		e.stamps = append(e.stamps, tritonStamp{[]byte(s.Name), []byte(s.Ns)})
	}
	return true
}

// member reads the value at b[j] of field k and returns the index past
// it, or -1.
func (e *tritonEntry) member(f *tritonReader, b []byte, k, j int) int {
	switch tritonFields[k] {
	case "id":
		return tritonNumber(b, j, &e.id, true)
	case "parent_id":
		return tritonNumber(b, j, &e.parent, true)
	case "model_name":
		return tritonText(b, j, &e.model)
	case "request_id":
		return tritonText(b, j, &e.requestID)
	case "model_version":
		return e.modelVersion(f, b, j)
	}
	return e.timestamps(b, j)
}

// tritonText sets dst to the string at b[j] (null leaves it) and returns
// the index past it, or -1 for another value.
func tritonText(b []byte, j int, dst *[]byte) int {
	if b[j] == 'n' {
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	s, end, ok := jsonwalk.Text(b, j)
	if !ok {
		return -1
	}
	*dst = s
	return end
}

// tritonNumber sets dst to the value at b[j] as encoding/json fills a
// json.Number: a number's text, or a string holding exactly one; null sets
// dst nil when nullClears (a *json.Number) and leaves it otherwise. It
// returns the index past the value, or -1 for another value.
func tritonNumber(b []byte, j int, dst *[]byte, nullClears bool) int {
	switch c := b[j]; {
	case c == 'n':
		if nullClears {
			*dst = nil
		}
		return jsonwalk.WalkLiteral(b, j, "null")
	case c == '"':
		s, end, ok := jsonwalk.Text(b, j)
		if !ok || !jsonwalk.IsNumber(s) {
			return -1
		}
		*dst = s
		return end
	case c == '-' || c >= '0' && c <= '9':
		end, st := jsonwalk.NumberEnd(b, j)
		if st != jsonwalk.OK {
			return -1
		}
		*dst = b[j:end]
		return end
	}
	return -1
}

// modelVersion reads model_version as fmt.Sprint prints what encoding/json
// decodes into an any, quotes trimmed: a string, or a non-negative integer
// below 1e15 (which a float64 prints alike) read directly; another value is
// decoded by encoding/json to be printed. null clears it.
func (e *tritonEntry) modelVersion(f *tritonReader, b []byte, j int) int {
	switch b[j] {
	case 'n':
		e.hasVersion, e.version = false, nil
		return jsonwalk.WalkLiteral(b, j, "null")
	case '"':
		s, end, ok := jsonwalk.Text(b, j)
		e.hasVersion, e.version = true, bytes.Trim(s, `"`)
		return jsonwalk.EndIf(ok, end)
	}
	if v, end, ok := jsonwalk.StrictInt(b, j); ok && b[j] != '-' && v < 1e15 {
		e.hasVersion = true
		e.verText = strconv.AppendInt(e.verText[:0], v, 10)
		e.version = e.verText
		return end
	}
	end, st, grown := jsonwalk.ValueEnd(b, j, f.stack)
	f.stack = grown[:0]
	var v any
	if st != jsonwalk.OK || json.Unmarshal(b[j:end], &v) != nil {
		return -1
	}
	e.hasVersion, e.version = true, bytes.Trim(fmt.Append(nil, v), `"`)
	return end
}

// timestamps reads the list of {"name", "ns"} objects; null clears it.
// It is a plain loop rather than a jsonwalk.WalkArray callback, and reads an
// element laid out as Triton writes it without walking its keys.
func (e *tritonEntry) timestamps(b []byte, j int) int {
	e.stamps = e.stamps[:0]
	if b[j] == 'n' {
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	if b[j] != '[' {
		return -1
	}
	if j = jsonwalk.SkipWS(b, j+1); j < len(b) && b[j] == ']' {
		return j + 1
	}
	for j < len(b) {
		end := e.stamp(b, j)
		if end < 0 {
			end = e.stampAny(b, j)
		}
		if end < 0 {
			return -1
		}
		if j = jsonwalk.SkipWS(b, end); j >= len(b) {
			return -1
		}
		switch b[j] {
		case ']':
			return j + 1
		case ',':
			j = jsonwalk.SkipWS(b, j+1)
		default:
			return -1
		}
	}
	return -1
}

// stamp reads the timestamps element at b[j] when it is laid out as
// Triton writes it, {"name":"…","ns":N} with optional white space, a plain
// name and a non-negative integer, and returns the index past it; -1 for
// anything else, which stampAny reads.
func (e *tritonEntry) stamp(b []byte, j int) int {
	if b[j] != '{' {
		return -1
	}
	k := tritonKey(b, j+1, `"name"`)
	if k < 0 {
		return -1
	}
	name, end, plain, ok := jsonwalk.WalkString(b, k)
	if !ok || !plain {
		return -1
	}
	if k = jsonwalk.SkipWS(b, end); k >= len(b) || b[k] != ',' {
		return -1
	}
	if k = tritonKey(b, k+1, `"ns"`); k < 0 || k >= len(b) {
		return -1
	}
	v, end, ok := jsonwalk.StrictInt(b, k)
	if !ok || v < 0 {
		return -1
	}
	ns := b[k:end]
	if k = jsonwalk.SkipWS(b, end); k >= len(b) || b[k] != '}' {
		return -1
	}
	e.stamps = append(e.stamps, tritonStamp{name, ns})
	return k + 1
}

// tritonKey matches white space, key (quoted), white space and a colon at
// b[k] and returns the index of the value after more white space, or -1.
func tritonKey(b []byte, k int, key string) int {
	k = jsonwalk.SkipWS(b, k)
	if len(b)-k < len(key) || string(b[k:k+len(key)]) != key {
		return -1
	}
	if k = jsonwalk.SkipWS(b, k+len(key)); k >= len(b) || b[k] != ':' {
		return -1
	}
	return jsonwalk.SkipWS(b, k+1)
}

// stampAny reads the timestamps element at b[j] in any layout: null (an
// element with neither value), or an object whose name is a string and ns
// a json.Number (null leaves either, other keys are skipped). It returns
// the index past it, or -1.
func (e *tritonEntry) stampAny(b []byte, j int) int {
	var s tritonStamp
	if b[j] == 'n' {
		e.stamps = append(e.stamps, s)
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	var stack []byte
	end := jsonwalk.WalkObject(b, j, func(key []byte, j int) int {
		k, ok := tritonField(key, tritonStampFields)
		switch {
		case !ok:
			return -1
		case k < 0:
			end, st, _ := jsonwalk.ValueEnd(b, j, stack)
			return jsonwalk.EndIf(st == jsonwalk.OK, end)
		case k == 0:
			return tritonText(b, j, &s.name)
		}
		return tritonNumber(b, j, &s.ns, false)
	})
	if end >= 0 {
		e.stamps = append(e.stamps, s)
	}
	return end
}
