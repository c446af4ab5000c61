package ingest

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// This file reads OTLP/JSON attributes, values, ids and enums in place for
// the fast path (otlp_fast.go), with the meanings otlp_json.go gives them.

// attrList reads the attributes array (or null) at b[j] into set: the
// attributes the mapping reads and the prefix bits of all, as otlpAttrs
// and otlpAttrSetOf would (a later non-nil value of a key wins).
func (f *otlpFast) attrList(b []byte, j int, set *otlpAttrSet) int {
	return f.nullOr(b, j, func() int {
		return jsonWalkArray(b, j, func(e int) int { return f.kv(b, e, set) })
	})
}

// kv reads one key-value attribute (or null) at b[i] into set.
func (f *otlpFast) kv(b []byte, i int, set *otlpAttrSet) int {
	var key []byte
	var val otlpValue
	hasKey, valAt, read := false, -1, false
	end := f.nullOr(b, i, func() int {
		return f.object(b, i, otlpKVFields, func(k, j int) int {
			if k == 1 && !hasKey { // the value before its key: read it after
				valAt = j
				return jsonWalkSkip(b, j, &f.stack)
			}
			if k == 1 {
				var end int
				val, end = f.anyValue(b, j, otlpKnown(key), 0)
				read = true
				return end
			}
			hasKey = true
			return f.nullOr(b, j, func() int {
				s, end, plain, ok := jsonWalkString(b, j)
				if key = s; ok && !plain {
					key, ok = jsonAppendUnescaped(nil, b[j:end])
				}
				return clientIf(ok, end)
			})
		})
	})
	if end >= 0 && valAt >= 0 && !read {
		if val, valAt = f.anyValue(b, valAt, otlpKnown(key), 0); valAt < 0 {
			return -1
		}
	}
	if end >= 0 && val.kind != otlpNone {
		set.prefixes |= otlpPrefixes(key)
		if k, ok := otlpKeyOf[string(key)]; ok {
			set.vals[k] = val
		}
	}
	return end
}

// otlpKnown reports whether the mapping reads attribute key.
func otlpKnown(key []byte) bool {
	_, ok := otlpKeyOf[string(key)]
	return ok
}

// otlpFastAny is an AnyValue's members as read, before otlpAnyValue.value's
// precedence picks one.
type otlpFastAny struct {
	str             otlpValue
	hasStr, hasBool bool
	boolean         bool
	intRaw, dblRaw  []byte // nil when absent
	arr             []any
	hasArr          bool
}

// anyValue reads the AnyValue (or null) at b[i] and returns its value as
// otlpAnyValue.value gives it (kind otlpNone for nil). Strings and arrays
// are built only when build is set; otherwise their kind is enough.
func (f *otlpFast) anyValue(b []byte, i int, build bool, depth int) (otlpValue, int) {
	if depth > otlpMaxFastDepth {
		return otlpValue{}, -1
	}
	var a otlpFastAny
	end := f.nullOr(b, i, func() int {
		return f.object(b, i, otlpAnyFields, func(k, j int) int { return f.anyMember(b, k, j, &a, build, depth) })
	})
	if end < 0 {
		return otlpValue{}, -1
	}
	switch {
	case a.hasStr:
		return a.str, end
	case a.hasBool:
		return otlpValueOf(a.boolean), end
	case a.intRaw != nil:
		if v, err := strconv.ParseInt(string(bytes.Trim(a.intRaw, `"`)), 10, 64); err == nil {
			return otlpValue{kind: otlpInt, i: v}, end
		}
	case a.dblRaw != nil:
		// ParseFloat also takes protojson's "NaN", "Infinity", "-Infinity".
		if v, err := strconv.ParseFloat(string(bytes.Trim(a.dblRaw, `"`)), 64); err == nil {
			return otlpValue{kind: otlpDouble, f: v}, end
		}
	case a.hasArr:
		return otlpValue{kind: otlpOther, other: a.arr}, end
	}
	return otlpValue{}, end
}

// anyMember reads member k (otlpAnyFields) of an AnyValue at b[j] into a.
func (f *otlpFast) anyMember(b []byte, k, j int, a *otlpFastAny, build bool, depth int) int {
	if b[j] == 'n' && k != 2 && k != 3 { // a null pointer member is absent
		return jsonWalkLiteral(b, j, "null")
	}
	switch k {
	case 0:
		a.hasStr = true
		a.str.kind = otlpStr
		if !build {
			_, end, _, ok := jsonWalkString(b, j)
			return clientIf(ok, end)
		}
		s, end, ok := f.unescape(b, j)
		a.str.s = string(s)
		return clientIf(ok, end)
	case 1:
		a.hasBool, a.boolean = true, b[j] == 't'
		if a.boolean {
			return jsonWalkLiteral(b, j, "true")
		}
		return jsonWalkLiteral(b, j, "false")
	case 2, 3:
		end := jsonWalkSkip(b, j, &f.stack)
		if end >= 0 && k == 2 {
			a.intRaw = b[j:end]
		} else if end >= 0 {
			a.dblRaw = b[j:end]
		}
		return end
	case 4:
		a.hasArr = true
		if build {
			a.arr = []any{}
		}
		return f.object(b, j, otlpValuesField, func(_, v int) int {
			return f.nullOr(b, v, func() int {
				return jsonWalkArray(b, v, func(e int) int {
					val, end := f.anyValue(b, e, build, depth+1)
					if build {
						a.arr = append(a.arr, val.any())
					}
					return end
				})
			})
		})
	}
	return jsonWalkSkip(b, j, &f.stack) // kvlistValue: read as nil
}

// otlpFastID is otlpID on the raw contents of a JSON string, lowering a
// hex id without an intermediate copy.
func otlpFastID(v []byte, size int) string {
	if len(v) != 2*size || size > 16 {
		return otlpID(string(v), size)
	}
	var buf [32]byte
	zero := true
	for i, c := range v {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			c += 'a' - 'A'
		default:
			return otlpID(string(v), size)
		}
		zero = zero && c == '0'
		buf[i] = c
	}
	if zero {
		return otlpID(string(v), size)
	}
	return string(buf[:len(v)])
}

// otlpFastEnum is otlpEnum on the raw value b[j:end] (end < 0: not a
// value), reading a plain in-range number without allocating.
func otlpFastEnum(b []byte, j, end int, prefix string, names []string) (string, error) {
	if end < 0 {
		return "", otlpBad{"bad enum", ""}
	}
	if v, e, ok := jsonStrictInt(b, j); ok && e == end && v >= 0 && v < int64(len(names)) {
		return names[v], nil
	}
	return otlpEnum(json.RawMessage(b[j:end]), prefix, names)
}
