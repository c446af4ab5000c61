package otlp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// This file reads OTLP/JSON attributes, values, ids and enums in place for
// the fast path (otlp_fast.go), with the meanings otlp_json.go gives them.

// attrList reads the attributes array (or null) at b[j] into set: the
// attributes the mapping reads and the prefix bits of all, as otlpAttrs
// and otlpAttrSetOf would (a later non-nil value of a key wins).
func (f *otlpFast) attrList(b []byte, j int, set *otlpAttrSet) int {
	return f.nullOr(b, j, func() int {
		return jsonwalk.WalkArray(b, j, func(e int) int { return f.kv(b, e, set) })
	})
}

// kv reads one key-value attribute (or null) at b[i] into set.
func (f *otlpFast) kv(b []byte, i int, set *otlpAttrSet) int {
	if end, ok := f.kvCompact(b, i, set); ok {
		return end
	}
	if b[i] == 'n' {
		return jsonwalk.WalkLiteral(b, i, "null")
	}
	var key []byte
	var val otlpValue
	k, known := otlpKey(0), false
	hasKey, hasVal, valAt := false, false, -1
	end := jsonwalk.WalkObject(b, i, func(name []byte, j int) int {
		switch {
		case string(name) == "key" && !hasKey:
			hasKey = true
			if b[j] == 'n' {
				return jsonwalk.WalkLiteral(b, j, "null")
			}
			s, end, plain, ok := jsonwalk.WalkString(b, j)
			if key = s; ok && !plain {
				key, ok = jsonwalk.AppendUnescaped(nil, b[j:end])
			}
			k, known = otlpKeyOf(key)
			return jsonwalk.EndIf(ok, end)
		case string(name) == "value" && !hasVal && hasKey:
			hasVal = true
			var end int
			val, end = f.anyValue(b, j, known, 0)
			return end
		case string(name) == "value" && !hasVal: // before its key: read it after
			hasVal, valAt = true, j
			return jsonwalk.WalkSkip(b, j, &f.stack)
		}
		if m, ok := jsonwalk.StructKey(name, otlpKVFields); !ok || m >= 0 {
			return -1 // a case-folded or repeated key or value
		}
		return jsonwalk.WalkSkip(b, j, &f.stack)
	})
	if end >= 0 && valAt >= 0 {
		if val, valAt = f.anyValue(b, valAt, known, 0); valAt < 0 {
			return -1
		}
	}
	if end >= 0 {
		set.add(key, k, known, val)
	}
	return end
}

// add records attribute key (k when known) with value v: a nil value does
// not count, a later value replaces an earlier one.
func (set *otlpAttrSet) add(key []byte, k otlpKey, known bool, v otlpValue) {
	if v.kind != otlpNone {
		set.prefixes |= otlpPrefixes(key)
		if known {
			set.vals[k] = v
		}
	}
}

// kvCompact reads a key-value attribute written the way exporters write
// them, {"key":"k","value":{"member":v}} with a plain key and no white
// space, without the generic walk; ok is false for any other layout, which
// kv reads.
func (f *otlpFast) kvCompact(b []byte, i int, set *otlpAttrSet) (int, bool) {
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
	var a otlpFastAny
	end := f.anyMember(b, m, j, &a, known, 0)
	if end < 0 || len(b)-end < 2 || b[end] != '}' || b[end+1] != '}' {
		return 0, false
	}
	set.add(key, k, known, a.value())
	return end + 2, true
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
	seen := 0
	end := f.nullOr(b, i, func() int {
		return jsonwalk.WalkObject(b, i, func(name []byte, j int) int {
			k := otlpAnyMember(name)
			switch {
			case k == -2:
				return jsonwalk.WalkSkip(b, j, &f.stack)
			case k < 0 || seen&(1<<k) != 0:
				return -1
			}
			seen |= 1 << k
			return f.anyMember(b, k, j, &a, build, depth)
		})
	})
	if end < 0 {
		return otlpValue{}, -1
	}
	return a.value(), end
}

// value picks the AnyValue's value by otlpAnyValue.value's precedence.
func (a *otlpFastAny) value() otlpValue {
	switch {
	case a.hasStr:
		return a.str
	case a.hasBool:
		return otlpValueOf(a.boolean)
	case a.intRaw != nil:
		if v, ok := otlpParseInt(bytes.Trim(a.intRaw, `"`)); ok {
			return otlpValue{kind: otlpInt, i: v}
		}
	case a.dblRaw != nil:
		if v, ok := otlpParseDouble(a.dblRaw); ok {
			return otlpValue{kind: otlpDouble, f: v}
		}
	case a.hasArr:
		return otlpValue{kind: otlpOther, other: a.arr}
	}
	return otlpValue{}
}

// otlpParseInt is strconv.ParseInt(string(b), 10, 64) without its
// generality for up to 18 digits after an optional sign.
func otlpParseInt(b []byte) (int64, bool) {
	digits := b
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		v, err := strconv.ParseInt(string(b), 10, 64)
		return v, err == nil
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if b[0] == '-' {
		v = -v
	}
	return v, true
}

// otlpAnyMember returns the index of an AnyValue member name in
// otlpAnyFields, -2 for a name struct decoding ignores and -1 for one it
// might match after folding or unescaping.
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
func (f *otlpFast) anyMember(b []byte, k, j int, a *otlpFastAny, build bool, depth int) int {
	if b[j] == 'n' && k != 2 && k != 3 { // a null pointer member is absent
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	switch k {
	case 0:
		a.hasStr = true
		a.str.kind = otlpStr
		if !build {
			_, end, _, ok := jsonwalk.WalkString(b, j)
			return jsonwalk.EndIf(ok, end)
		}
		s, end, ok := f.unescape(b, j)
		a.str.s = string(s)
		return jsonwalk.EndIf(ok, end)
	case 1:
		a.hasBool, a.boolean = true, b[j] == 't'
		if a.boolean {
			return jsonwalk.WalkLiteral(b, j, "true")
		}
		return jsonwalk.WalkLiteral(b, j, "false")
	case 2, 3:
		end := jsonwalk.WalkSkip(b, j, &f.stack)
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
				return jsonwalk.WalkArray(b, v, func(e int) int {
					val, end := f.anyValue(b, e, build, depth+1)
					if build {
						a.arr = append(a.arr, val.any())
					}
					return end
				})
			})
		})
	}
	return jsonwalk.WalkSkip(b, j, &f.stack) // kvlistValue: read as nil
}

// otlpParseDouble parses a doubleValue's raw JSON as otlpAnyValue.value does:
// strconv.ParseFloat of it without quotes, which also takes protojson's
// "NaN", "Infinity" and "-Infinity". A plain number goes to jsonwalk.Float,
// which gives the same float without ParseFloat's generality.
func otlpParseDouble(raw []byte) (float64, bool) {
	if raw[0] != '"' {
		if v, end, ok := jsonwalk.Float(raw, 0); ok && end == len(raw) {
			return v, true
		}
	}
	v, err := strconv.ParseFloat(string(bytes.Trim(raw, `"`)), 64)
	return v, err == nil
}

// otlpFastID is otlpID on the raw contents of a JSON string, lowering a
// hex id without an intermediate copy.
func otlpFastID(v []byte, size int) string {
	if len(v) != 2*size || size > 16 {
		return otlpID(string(v), size)
	}
	var buf [32]byte
	var or byte
	for i, c := range v {
		l := otlpLowerHex[c]
		if l == 0 {
			return otlpID(string(v), size)
		}
		buf[i], or = l, or|(l-'0')
	}
	if or == 0 { // all zeros: not an id
		return otlpID(string(v), size)
	}
	return string(buf[:len(v)])
}

// otlpLowerHex maps hex digits to their lowercase form and other bytes to 0.
var otlpLowerHex = func() (t [256]byte) {
	for _, c := range "0123456789abcdef" {
		t[c], t[unicode.ToUpper(c)] = byte(c), byte(c)
	}
	return t
}()

// otlpFastEnum is otlpEnum on the raw value b[j:end] (end < 0: not a
// value), reading a plain in-range number without allocating.
func otlpFastEnum(b []byte, j, end int, prefix string, names []string) (string, error) {
	if end < 0 {
		return "", otlpBad{"bad enum", ""}
	}
	if v, e, ok := jsonwalk.StrictInt(b, j); ok && e == end && v >= 0 && v < int64(len(names)) {
		return names[v], nil
	}
	return otlpEnum(json.RawMessage(b[j:end]), prefix, names)
}
