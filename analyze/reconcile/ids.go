package reconcile

import (
	"strings"

	"github.com/ttftrace/ttftrace/dataset"
)

// idKey returns the join key of id, normalizeID(id) as a ColumnsID, and
// false for none. The usual ids — a UUID or 32 hex digits in any case, after
// any "chatcmpl-" or "cmpl-" — are packed straight from id, without
// building the normalized string (normalizeID's lowercase hex without
// dashes packs to the same ColumnsID).
func idKey(id string) (dataset.ColumnsID, bool) {
	body := id
	for _, p := range []string{"chatcmpl-", "cmpl-"} {
		if len(body) > len(p) && strings.HasPrefix(body, p) {
			body = body[len(p):]
			break
		}
	}
	if v, ok := packHexID(body); ok {
		return v, true
	}
	key := normalizeID(id)
	return dataset.ColumnsIDOf(key), key != ""
}

// packHexID packs a UUID (8-4-4-4-12 hex digits) or 32 hex digits, in any
// case, into the ColumnsID of their lowercase digits (as dataset.PackHex32
// packs them), folding the case as it packs, eight digits at a time
// (dataset.PackHexWords): every id of a production week passes here while
// the dataset is read.
func packHexID(s string) (dataset.ColumnsID, bool) {
	switch {
	case len(s) == 32:
		return dataset.PackHexWords([4]uint64{load(s[:8]), load(s[8:16]), load(s[16:24]), load(s[24:])}, true)
	case len(s) == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-':
		return dataset.PackHexWords([4]uint64{load(s[:8]), load(s[9:13]) | load(s[14:18])<<32,
			load(s[19:23]) | load(s[24:28])<<32, load(s[28:])}, true)
	}
	return dataset.ColumnsID{}, false
}

// load returns the bytes of s (at most 8) as a little-endian number.
func load(s string) uint64 {
	var x uint64
	for i := len(s) - 1; i >= 0; i-- {
		x = x<<8 | uint64(s[i])
	}
	return x
}

// normalizeID returns the join key of a request or response id, or "" for
// none. vLLM builds response ids as "chatcmpl-<request id>" and
// "cmpl-<request id>", so those prefixes are dropped. A UUID (with or without
// dashes) or a long hex id is folded to lowercase hex without dashes, also
// after a "req_" or "req-" prefix ("req_" kept), so that "REQ_3F2A…" from one
// log meets "req_3f2a…" from another. Other ids, such as OpenAI's and
// Anthropic's base62 "req_011C…", are case sensitive and kept as they are.
// "-" (nginx's empty value) is no id.
func normalizeID(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return ""
	}
	for _, p := range []string{"chatcmpl-", "cmpl-"} {
		if len(s) > len(p) && strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	prefix, body := "", s
	if len(s) > 4 && strings.EqualFold(s[:3], "req") && (s[3] == '_' || s[3] == '-') {
		prefix, body = "req_", s[4:]
	}
	if hex, ok := foldHex(body); ok {
		return prefix + hex
	}
	return s
}

// foldHex returns s as lowercase hex without dashes when s is a UUID
// (8-4-4-4-12 hex digits) or 16 or more hex digits, and false otherwise.
func foldHex(s string) (string, bool) {
	dashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-':
			if i != 8 && i != 13 && i != 18 && i != 23 {
				return "", false
			}
			dashes++
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return "", false
		}
	}
	switch {
	case dashes == 4 && len(s) == 36:
	case dashes == 0 && len(s) >= 16:
	default:
		return "", false
	}
	if dashes == 0 && !hasUpper(s) {
		return s, true
	}
	b := make([]byte, 0, len(s)-dashes)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '-':
		case c >= 'A' && c <= 'F':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b), true
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}
