package otlp

import (
	"bytes"
	"strconv"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// This file reads OTLP/JSON attributes and their AnyValues in place, with
// the meanings encoding/json gives them when it decodes a span into
// otlpSpanJSON (otlp_refuse.go): a null leaves a struct as it is and clears
// a pointer or a list, a repeated key's later value is decoded over the
// earlier one, and a value of the wrong type makes the span (or the
// request) refused.

// attrList reads an attributes array (or null) at b[j] of a struct whose
// attributes are set (l their list): the attributes the mapping reads and
// the prefix bits of all, as a map of the attributes would hold them (a
// later non-nil value of a key wins).
func (f *otlpReader) attrList(b []byte, j int, set *otlpAttrSet, l *otlpList) int {
	return f.list(b, j, l, func() { l.clear(set) }, func(e int) int {
		l.dirty = true
		return f.kv(b, []int{e}, set)
	})
}

// list reads the array (or null) at b[j] given for a list field l: clear
// empties what was read into the field, elem reads an element. Only the
// first array since null or [] is read here; the caller reads the field
// again from all of them when there were several (overlay).
func (f *otlpReader) list(b []byte, j int, l *otlpList, clear func(), elem func(e int) int) int {
	switch {
	case b[j] == 'n':
		l.Reset()
		clear()
		return jsonwalk.WalkLiteral(b, j, "null")
	case b[j] != '[':
		return f.wrongType(b, j)
	case !l.Add(b, j):
		if l.N == 0 { // []
			clear()
		}
		return f.skip(b, j)
	}
	clear()
	return jsonwalk.WalkArray(b, j, elem)
}

// attrsDone reads the attributes again from all of their arrays when there
// were several.
func (f *otlpReader) attrsDone(b []byte, set *otlpAttrSet, l *otlpList) {
	if l.N < 2 {
		return
	}
	set.reset()
	var dropped otlpAttrSet
	f.overlay(b, l, func(srcs []int, keep bool) {
		if keep {
			f.kv(b, srcs, set)
		} else {
			f.kv(b, srcs, &dropped)
		}
	})
}

// The struct fields of an attribute and an AnyValue.
var (
	otlpKVFields    = []string{"key", "value"}
	otlpAnyFields   = []string{"stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue"}
	otlpValuesField = []string{"values"}
)

// kv reads one key-value attribute from its sources srcs (one object, or
// the elements an overlay puts over each other) into set.
func (f *otlpReader) kv(b []byte, srcs []int, set *otlpAttrSet) int {
	if len(srcs) == 1 {
		if end, ok := f.kvCompact(b, srcs[0], set); ok {
			return end
		}
	}
	var key []byte
	values := f.valueSrcs[:0]
	end := f.fields(b, srcs, otlpKVFields, func(k, j int) int {
		switch {
		case b[j] == 'n': // a null key or value leaves it as it is
			return jsonwalk.WalkLiteral(b, j, "null")
		case k == 0 && b[j] == '"':
			s, end, ok := jsonwalk.Text(b, j)
			key = append(key[:0], s...)
			return jsonwalk.EndIf(ok, end)
		case k == 1 && b[j] == '{':
			values = append(values, j)
			return f.skip(b, j)
		}
		return f.wrongType(b, j)
	})
	if end < 0 {
		return -1
	}
	f.valueSrcs = values[:0]
	k, known := otlpKeyOf(key)
	if len(values) > 0 {
		v, _ := f.anyValue(b, values, known, 0)
		set.add(key, k, known, v)
	}
	return end
}

// add records attribute key (k when known) with value v: a nil value does
// not count, a later value replaces an earlier one.
func (set *otlpAttrSet) add(key []byte, k otlpKey, known bool, v otlpValue) {
	if v.kind != otlpNone {
		set.prefixes |= otlpPrefixes(key)
		if known {
			set.set(k, v)
		}
	}
}

// kvCompact reads a key-value attribute written the way exporters write
// them, {"key":"k","value":{"member":v}} with a plain key and no white
// space, without the generic walk; ok is false for any other layout, which
// kv reads.
func (f *otlpReader) kvCompact(b []byte, i int, set *otlpAttrSet) (int, bool) {
	const head, mid = `{"key":"`, `","value":{"`
	if len(b)-i < len(head) || string(b[i:i+len(head)]) != head {
		return 0, false
	}
	key, j, plain, ok := jsonwalk.WalkString(b, i+len(head)-1)
	if !plain || !ok || len(b)-j < len(mid)-1 || string(b[j-1:j-1+len(mid)]) != mid {
		return 0, false
	}
	j += len(mid) - 1
	q := bytes.IndexByte(b[j:], '"')
	if q < 0 {
		return 0, false
	}
	m := otlpAnyMember(b[j : j+q])
	if j += q + 1; m < 0 || j >= len(b) || b[j] != ':' {
		return 0, false
	}
	if j = jsonwalk.SkipWS(b, j+1); j >= len(b) {
		return 0, false
	}
	k, known := otlpKeyOf(key)
	if v, end, ok := f.oneMember(b, m, j, known); ok {
		if end < 0 || len(b)-end < 2 || b[end] != '}' || b[end+1] != '}' {
			return 0, false
		}
		set.add(key, k, known, v)
		return end + 2, true
	}
	var a otlpAny
	end := f.anyMember(b, m, j, &a, known, 0)
	if end < 0 || len(b)-end < 2 || b[end] != '}' || b[end+1] != '}' {
		return 0, false
	}
	f.valuesDone(b, &a, known, 0)
	set.add(key, k, known, a.value(known))
	return end + 2, true
}

// oneMember reads an AnyValue holding only member m (otlpAnyFields) at
// b[j] and returns its value and the index past it, as anyMember and
// otlpAny.value would, without otlpAny: a plain stringValue, and any
// intValue or doubleValue (json.RawMessage: any value, null too); ok is
// false for another member or a string with escapes, which anyMember
// reads.
func (f *otlpReader) oneMember(b []byte, m, j int, build bool) (v otlpValue, end int, ok bool) {
	switch m {
	case 0:
		s, end, plain, ok := jsonwalk.WalkString(b, j)
		if !plain || !ok {
			return otlpValue{}, 0, false
		}
		v.kind = otlpStr
		if build {
			v.s = f.mem.str(s)
		}
		return v, end, true
	case 2:
		if end = f.skip(b, j); end >= 0 {
			if i, ok := otlpParseInt(bytes.Trim(b[j:end], `"`)); ok {
				v = otlpValue{kind: otlpInt, i: i}
			}
		}
		return v, end, true
	case 3:
		if c := b[j]; c == '-' || c >= '0' && c <= '9' {
			if d, end, ok := jsonwalk.Float(b, j); ok && end < len(b) {
				return otlpValue{kind: otlpDouble, f: d}, end, true
			}
		}
		if end = f.skip(b, j); end >= 0 {
			if d, ok := otlpParseDouble(b[j:end]); ok {
				v = otlpValue{kind: otlpDouble, f: d}
			}
		}
		return v, end, true
	}
	return otlpValue{}, 0, false
}

// otlpAny is an AnyValue's members as read, before value's precedence
// picks one.
type otlpAny struct {
	str             otlpValue
	hasStr, hasBool bool
	boolean         bool
	intRaw, dblRaw  []byte  // nil when absent; a null is "null"
	dbl             float64 // dblRaw's value when dblParsed
	dblParsed       bool
	hasArr          bool
	arr             []any
	values          otlpList // the arrays of arrayValue.values
}

// otlpMaxDepth is the depth of arrayValues past which the document's
// nesting is checked against encoding/json's limit (otlpReader.deep).
const otlpMaxDepth = 64

// anyValue reads the AnyValue from its sources srcs and returns its value
// as encoding/json's decoding gives it (kind otlpNone for nil) and the
// index past the last source (-1: not JSON). Strings and arrays are built
// only when build is set; otherwise their kind is enough.
func (f *otlpReader) anyValue(b []byte, srcs []int, build bool, depth int) (otlpValue, int) {
	if depth > otlpMaxDepth {
		f.deep = true
	}
	var a otlpAny
	end := f.fields(b, srcs, otlpAnyFields, func(k, j int) int {
		return f.anyMember(b, k, j, &a, build, depth)
	})
	if end < 0 {
		return otlpValue{}, -1
	}
	f.valuesDone(b, &a, build, depth)
	return a.value(build), end
}

// value picks the AnyValue's value: the string, else the bool, else the
// integer, else the double, else the array; an integer or double that does
// not parse gives nil.
func (a *otlpAny) value(build bool) otlpValue {
	switch {
	case a.hasStr:
		return a.str
	case a.hasBool:
		return otlpValueOf(a.boolean)
	case a.intRaw != nil:
		if v, ok := otlpParseInt(bytes.Trim(a.intRaw, `"`)); ok {
			return otlpValue{kind: otlpInt, i: v}
		}
	case a.dblRaw != nil && a.dblParsed:
		return otlpValue{kind: otlpDouble, f: a.dbl}
	case a.dblRaw != nil:
		if v, ok := otlpParseDouble(a.dblRaw); ok {
			return otlpValue{kind: otlpDouble, f: v}
		}
	case a.hasArr:
		if build && a.arr == nil {
			a.arr = []any{}
		}
		return otlpValue{kind: otlpOther, other: a.arr}
	}
	return otlpValue{}
}

// otlpAnyMember returns the index of an AnyValue member name in
// otlpAnyFields, -2 for a name struct decoding ignores and -1 for one kv
// leaves to fields (escaped or case-folded).
func otlpAnyMember(name []byte) int {
	switch string(name) {
	case "stringValue":
		return 0
	case "boolValue":
		return 1
	case "intValue":
		return 2
	case "doubleValue":
		return 3
	case "arrayValue":
		return 4
	case "kvlistValue":
		return 5
	}
	if _, ok := jsonwalk.StructKey(name, otlpAnyFields); !ok {
		return -1
	}
	return -2
}

// anyMember reads member k (otlpAnyFields) of an AnyValue at b[j] into a.
func (f *otlpReader) anyMember(b []byte, k, j int, a *otlpAny, build bool, depth int) int {
	switch {
	case k == 3 && (b[j] == '-' || b[j] >= '0' && b[j] <= '9'):
		// A plain number is parsed as it is validated (otlpParseDouble's
		// value: jsonwalk.Float), not scanned twice; one out of range, or
		// ending the input, is only skipped, as any other raw value.
		if v, end, ok := jsonwalk.Float(b, j); ok && end < len(b) {
			a.dblRaw, a.dbl, a.dblParsed = b[j:end], v, true
			return end
		}
		a.dblParsed = false
		end := f.skip(b, j)
		if end >= 0 {
			a.dblRaw = b[j:end]
		}
		return end
	case k == 2 || k == 3: // json.RawMessage: any value, null too
		end := f.skip(b, j)
		if end >= 0 && k == 2 {
			a.intRaw = b[j:end]
		} else if end >= 0 {
			a.dblRaw, a.dblParsed = b[j:end], false
		}
		return end
	case k == 5: // kvlistValue: any value, read as nil
		return f.skip(b, j)
	case b[j] == 'n': // a null pointer member is absent
		switch k {
		case 0:
			a.hasStr = false
		case 1:
			a.hasBool = false
		case 4:
			a.hasArr, a.arr = false, nil
			a.values.Reset()
		}
		return jsonwalk.WalkLiteral(b, j, "null")
	case k == 0 && b[j] == '"':
		a.hasStr, a.str.kind = true, otlpStr
		if !build {
			_, end, _, ok := jsonwalk.WalkString(b, j)
			return jsonwalk.EndIf(ok, end)
		}
		s, end, ok := f.unescape(b, j)
		a.str.s = f.mem.str(s)
		return jsonwalk.EndIf(ok, end)
	case k == 1 && (b[j] == 't' || b[j] == 'f'):
		a.hasBool, a.boolean = true, b[j] == 't'
		if a.boolean {
			return jsonwalk.WalkLiteral(b, j, "true")
		}
		return jsonwalk.WalkLiteral(b, j, "false")
	case k == 4 && b[j] == '{':
		a.hasArr = true
		return f.fields(b, []int{j}, otlpValuesField, func(_, v int) int { return f.values(b, v, a, build, depth) })
	}
	return f.wrongType(b, j)
}

// values reads an arrayValue's values (an array or null) at b[j] into a.
func (f *otlpReader) values(b []byte, j int, a *otlpAny, build bool, depth int) int {
	switch {
	case b[j] == 'n':
		a.values.Reset()
		a.arr = a.arr[:0]
		return jsonwalk.WalkLiteral(b, j, "null")
	case b[j] != '[':
		return f.wrongType(b, j)
	case !a.values.Add(b, j):
		if a.values.N == 0 {
			a.arr = a.arr[:0]
		}
		return f.skip(b, j)
	}
	a.arr = a.arr[:0]
	return jsonwalk.WalkArray(b, j, func(e int) int {
		val, end := f.anyValue(b, []int{e}, build, depth+1)
		if build {
			a.arr = append(a.arr, val.any())
		}
		return end
	})
}

// valuesDone reads an AnyValue's values again from all of their arrays
// when there were several.
func (f *otlpReader) valuesDone(b []byte, a *otlpAny, build bool, depth int) {
	if a.values.N < 2 {
		return
	}
	a.arr = a.arr[:0]
	f.overlay(b, &a.values, func(srcs []int, keep bool) {
		val, _ := f.anyValue(b, srcs, build, depth+1)
		if build && keep {
			a.arr = append(a.arr, val.any())
		}
	})
}

// otlpParseInt is strconv.ParseInt(string(b), 10, 64) without its
// generality for up to 19 digits after an optional sign (19 digits fit in
// a uint64: a span's nanosecond times have 19).
func otlpParseInt(b []byte) (int64, bool) {
	digits := b
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 19 {
		v, err := strconv.ParseInt(string(b), 10, 64)
		return v, err == nil
	}
	var v uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	switch {
	case b[0] == '-' && v <= 1<<63:
		return -int64(v), true // -(1<<63) wraps to itself, math.MinInt64
	case b[0] != '-' && v < 1<<63:
		return int64(v), true
	}
	return 0, false
}

// otlpParseDouble parses a doubleValue's raw JSON as encoding/json's
// decoding into otlpAnyValue is read: strconv.ParseFloat of it without
// quotes, which also takes protojson's "NaN", "Infinity" and "-Infinity". A
// plain number goes to jsonwalk.Float, which gives the same float without
// ParseFloat's generality.
func otlpParseDouble(raw []byte) (float64, bool) {
	if raw[0] != '"' {
		if v, end, ok := jsonwalk.Float(raw, 0); ok && end == len(raw) {
			return v, true
		}
	}
	v, err := strconv.ParseFloat(string(bytes.Trim(raw, `"`)), 64)
	return v, err == nil
}
