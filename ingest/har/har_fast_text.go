package har

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// String and key readers of the har fast path, each one pass over the
// bytes where the shared helpers take two: the profile of the first fast
// path had a third of its time in jsonwalk.StringEnd, the plain-string check
// after it, jsonwalk.StructKey's case-folded comparisons and the unescaping of
// the captured bodies.

// harNames is the list of keys of a struct the fast path reads, with the
// first bytes they start with in either case.
type harNames struct {
	list  []string
	first [256]bool
}

// newHarNames returns the harNames of the JSON names of a struct's fields.
func newHarNames(names ...string) *harNames {
	n := &harNames{list: names}
	for _, name := range names {
		n.first[name[0]] = true
		if c := name[0] | 0x20; c >= 'a' && c <= 'z' {
			n.first[c], n.first[c&^0x20] = true, true
		}
	}
	return n
}

// harKey answers as jsonwalk.StructKey does: the index of key (raw) in names,
// -1 for a key struct decoding ignores, ok false for one it might match
// after unescaping or folding case. It is sure of more keys: one whose
// first byte is plain ASCII and starts no name, in either case, matches
// none however it goes on, escapes or not. Only names of key's length can
// match a plain ASCII key, exactly or folded.
func harKey(key []byte, names *harNames) (int, bool) {
	if len(key) > 0 && key[0] < 0x80 && key[0] != '\\' && !names.first[key[0]] {
		return -1, true
	}
	for i, n := range names.list {
		if len(n) == len(key) && string(key) == n {
			return i, true
		}
	}
	for _, c := range key {
		if c == '\\' || c >= 0x80 {
			return -1, false
		}
	}
	for _, n := range names.list {
		if len(n) == len(key) && harASCIIFold(key, n) {
			return -1, false
		}
	}
	return -1, true
}

// harASCIIFold reports whether the ASCII strings a and b (of one length)
// are equal under case folding, as bytes.EqualFold says for ASCII.
func harASCIIFold(a []byte, b string) bool {
	for i := range a {
		x, y := a[i], b[i]
		if x != y && (x|0x20 != y|0x20 || x|0x20 < 'a' || x|0x20 > 'z') {
			return false
		}
	}
	return true
}

// harStrStop marks the bytes that end a run of plain ASCII string bytes:
// '"', '\\', control bytes and non-ASCII bytes.
var harStrStop = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c < 0x20 || c == '"' || c == '\\' || c >= 0x80
	}
	return t
}()

// harString is jsonwalk.WalkString in one pass: the raw contents of the string
// literal at b[j] and the index past it; ok is false when b[j] does not
// start a valid string, plain false when the contents have escapes or
// invalid UTF-8.
func harString(b []byte, j int) (s []byte, end int, plain, ok bool) {
	end, esc, high := harStringEnd(b, j)
	if end < 0 {
		return nil, j, false, false
	}
	s = b[j+1 : end-1]
	return s, end, !esc && (!high || utf8.Valid(s)), true
}

// harStringEnd returns the index past the valid string literal at b[j],
// or -1, and whether its contents hold escapes or non-ASCII bytes. Runs of
// plain bytes are skipped eight at a time.
func harStringEnd(b []byte, j int) (end int, esc, high bool) {
	if j >= len(b) || b[j] != '"' {
		return -1, false, false
	}
	for i := j + 1; ; {
		i = harPlainRun(b, i)
		if i >= len(b) {
			return -1, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, high
		case c >= 0x80:
			high = true
			i++
			continue
		case c < 0x20:
			return -1, false, false
		}
		n := harEscapeLen(b, i)
		if n == 0 {
			return -1, false, false
		}
		esc = true
		i += n
	}
}

// harPlainRun returns the index of the first byte at or after i that is
// '"', '\\', a control byte or non-ASCII, or len(b).
func harPlainRun(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := jsonwalk.ASCIIStop(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && !harStrStop[b[i]] {
		i++
	}
	return i
}

// harEscapeLen returns the length of the valid escape at b[i] (a '\\'),
// or 0.
func harEscapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+5 >= len(b) {
			return 0
		}
		for _, h := range b[i+2 : i+6] {
			if jsonwalk.Hex(h) < 0 {
				return 0
			}
		}
		return 6
	}
	return 0
}

// harUnescape validates the string literal at b[j] and unescapes its
// contents into dst (replacing what dst held), in one pass: runs of plain
// bytes are copied eight at a time as harPlainRun finds their end. end is
// the index past the literal, -1 when it is not a valid string; exact is
// false when the contents hold what jsonwalk.AppendUnescaped declines (a UTF-16
// surrogate escape or invalid UTF-8).
func harUnescape(dst, b []byte, j int) (out []byte, end int, exact bool) {
	if j >= len(b) || b[j] != '"' {
		return dst[:0], -1, false
	}
	out = dst[:cap(dst)]
	w, i := 0, j+1
	exact, high := true, false
	for {
		out, w, i = harCopyRun(out, w, b, i)
		if i >= len(b) {
			return out[:0], -1, false
		}
		if w+utf8.UTFMax > len(out) {
			out = harGrow(out, w)
		}
		switch c := b[i]; {
		case c == '"':
			return out[:w], i + 1, exact && (!high || utf8.Valid(out[:w]))
		case c >= 0x80:
			out[w] = c
			w, i, high = w+1, i+1, true
			continue
		case c < 0x20:
			return out[:0], -1, false
		}
		switch harEscapeLen(b, i) {
		case 2:
			out[w] = harUnescapeByte[b[i+1]]
			w, i = w+1, i+2
		case 6:
			r := jsonwalk.Hex(b[i+2])<<12 | jsonwalk.Hex(b[i+3])<<8 | jsonwalk.Hex(b[i+4])<<4 | jsonwalk.Hex(b[i+5])
			exact = exact && (r < 0xD800 || r >= 0xE000)
			w += utf8.EncodeRune(out[w:], r)
			i += 6
		default:
			return out[:0], -1, false
		}
	}
}

// harCopyRun copies the run of plain string bytes at b[i] to out[w:], as
// harPlainRun finds it, growing out as needed, and returns out and the
// indexes past the run.
func harCopyRun(out []byte, w int, b []byte, i int) ([]byte, int, int) {
	for i+8 <= len(b) {
		if w+8 > len(out) {
			out = harGrow(out, w)
		}
		v := binary.LittleEndian.Uint64(b[i:])
		binary.LittleEndian.PutUint64(out[w:], v)
		if m := jsonwalk.ASCIIStop(v); m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			return out, w + n, i + n
		}
		w, i = w+8, i+8
	}
	for i < len(b) && !harStrStop[b[i]] {
		if w >= len(out) {
			out = harGrow(out, w)
		}
		out[w] = b[i]
		w, i = w+1, i+1
	}
	return out, w, i
}

// harGrow returns out with its first w bytes and room for more.
func harGrow(out []byte, w int) []byte {
	out = append(out[:w], make([]byte, len(out)+64)...)
	return out[:cap(out)]
}

// harUnescapeByte maps the letter of a two-byte escape to its byte.
var harUnescapeByte = func() (t [256]byte) {
	t['"'], t['\\'], t['/'] = '"', '\\', '/'
	t['b'], t['f'], t['n'], t['r'], t['t'] = '\b', '\f', '\n', '\r', '\t'
	return t
}()
