package jsonwalk

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// FieldIndex returns the index in names (the JSON names of a struct's
// fields) of the raw key (between its quotes) as encoding/json matches it
// when decoding into that struct: escapes decoded, the exact name first,
// else a name equal under Unicode case folding (bytes.EqualFold, the
// Kelvin sign included); -1 for a key the struct ignores; ok false for a
// key that is not a valid JSON string.
func FieldIndex(key []byte, names []string) (k int, ok bool) {
	if key, ok = KeyText(key); !ok {
		return -1, false
	}
	for i, name := range names {
		if string(key) == name {
			return i, true
		}
	}
	for i, name := range names {
		if bytes.EqualFold(key, []byte(name)) {
			return i, true
		}
	}
	return -1, true
}

// KeyText returns the raw key (between its quotes) as encoding/json
// decodes it: escapes decoded, invalid UTF-8 and lone surrogates replaced
// by U+FFFD; a key with neither is returned as it is. ok is false for a key
// that is not a valid JSON string.
func KeyText(key []byte) (text []byte, ok bool) {
	if bytes.IndexByte(key, '\\') < 0 && utf8.Valid(key) {
		return key, true
	}
	if text, ok = AppendUnescapedText(nil, key); ok {
		return text, true
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// Text returns the JSON string at b[j] as encoding/json decodes it into a
// Go string (escapes decoded; invalid UTF-8 and lone surrogates become
// U+FFFD) and the index past it; ok is false when b[j] does not start a
// valid string. A plain string is returned as a part of b; one with
// escapes or invalid UTF-8 is copied.
func Text(b []byte, j int) (s []byte, end int, ok bool) {
	s, end, plain, ok := WalkString(b, j)
	if !ok || plain {
		return s, end, ok
	}
	if t, ok := AppendUnescapedText(nil, s); ok {
		return t, end, true
	}
	var t string // what AppendUnescapedText leaves (bad surrogates, invalid UTF-8)
	err := json.Unmarshal(b[j:end], &t)
	return []byte(t), end, err == nil
}

// IsNumber reports whether s is exactly one JSON number, as encoding/json
// checks a string decoded into a json.Number.
func IsNumber(s []byte) bool {
	if len(s) == 0 || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	end, st := NumberEnd(s, 0)
	last := s[len(s)-1]
	return end == len(s) && st != Bad && last >= '0' && last <= '9' // "1." and "1e" end in no digit
}
