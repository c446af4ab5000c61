package client

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The fast path of the ttftrace-client decoder. Profiling showed the time in
// goccy/go-json unmarshalling every chunk into a struct with pointer fields
// (three allocations per chunk) and the chunks slice growing; here a line is
// validated once by jsonwalk.ValueEnd and then read in place: the chunks go
// straight into the offset and token lists, scalar fields into the record.
// Whatever the fast path does not reproduce exactly (escaped, non-ASCII or
// case-folded keys, duplicate keys, mistyped or out-of-range values, escapes
// it cannot decode, any chunk the general route would reject) sends the line
// to the general route, so events, rejects and reasons are the same either
// way; TestClientFastMatchesGeneral and FuzzClientFast check it.

// clientFastRecord is what the fast path reads besides clientRecord's
// scalar fields: the chunks as event lists and the kept attributes.
type clientFastRecord struct {
	chunks  int               // chunks in the record, token-carrying or not
	offsets []int64           // token chunks' offsets after start (ns); nil when none
	tokens  []int32           // their tokens; nil unless a token chunk has "tokens"
	attrs   map[string]string // kept attributes; nil when none
}

// clientFast reads client lines in place; its scratch is reused line to line.
type clientFast struct {
	out      clientFastRecord
	stack    []byte            // scratch for the JSON scanner
	offs     []int64           // scratch chunk offsets
	toks     []int32           // scratch chunk tokens
	counted  bool              // a token chunk had "tokens"
	text     []byte            // scratch for unescaping
	attrs    []clientAttr      // scratch attributes
	interned map[string]string // repeated values (model, endpoint, attributes)
}

// clientAttr is one attribute of a line: its raw key and kept value
// (keep false for null, objects and arrays).
type clientAttr struct {
	key   []byte
	value string
	keep  bool
}

// clientFields are the record keys the fast path reads, by index.
var clientFields = []string{"request_id", "trace_id", "start", "model", "endpoint", "stream", "status",
	"error", "prompt_tokens", "output_tokens", "headers_ms", "end_ms", "chunks", "attrs"}

// read fills rec from line, a JSON object, and reports false when the line
// needs the general route. It validates the line as it reads it.
func (c *clientFast) read(line []byte, rec *clientRecord) bool {
	c.offs, c.toks, c.counted, c.attrs = c.offs[:0], c.toks[:0], false, c.attrs[:0]
	c.out = clientFastRecord{}
	seen := 0
	end := jsonwalk.WalkObject(line, 0, func(key []byte, j int) int {
		k, ok := jsonwalk.StructKey(key, clientFields)
		switch {
		case !ok || (k >= 0 && seen&(1<<k) != 0):
			return -1
		case k < 0:
			return jsonwalk.WalkSkip(line, j, &c.stack)
		}
		seen |= 1 << k
		return c.field(line, k, j, rec)
	})
	if end != len(line) {
		return false
	}
	c.finish()
	rec.fast = &c.out
	return true
}

// field reads the value at line[j] of record field k (clientFields) into rec
// and returns the index after it, or -1.
func (c *clientFast) field(line []byte, k, j int, rec *clientRecord) int {
	if line[j] == 'n' { // null leaves a string empty, a pointer, slice or map nil
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	switch k {
	case 0, 1, 2, 3, 4, 7:
		return c.stringField(line, k, j, rec)
	case 5:
		return clientBool(line, j, &rec.Stream)
	case 6:
		v, end, ok := jsonwalk.StrictInt(line, j)
		if !ok || v != int64(int32(v)) {
			return -1
		}
		rec.Status = decode.Ptr(int32(v))
		return end
	case 8, 9:
		v, end, ok := jsonwalk.StrictInt(line, j)
		if !ok {
			return -1
		}
		if k == 8 {
			rec.PromptTokens = decode.Ptr(v)
		} else {
			rec.OutputTokens = decode.Ptr(v)
		}
		return end
	case 10, 11:
		f, end, ok := jsonwalk.Float(line, j)
		if !ok {
			return -1
		}
		if k == 10 {
			rec.HeadersMs = decode.Ptr(f)
		} else {
			rec.EndMs = decode.Ptr(f)
		}
		return end
	case 12:
		return jsonwalk.WalkArray(line, j, func(e int) int { return c.chunk(line, e) })
	}
	return c.attrList(line, j)
}

// stringField reads string field k (clientFields) at line[j].
func (c *clientFast) stringField(line []byte, k, j int, rec *clientRecord) int {
	b, end, ok := c.unescape(line, j)
	if !ok {
		return -1
	}
	switch k {
	case 0:
		rec.RequestID = string(b)
	case 1:
		rec.TraceID = string(b)
	case 2:
		rec.Start = decode.Ptr(string(b))
	case 3:
		rec.Model = c.intern(b)
	case 4:
		rec.Endpoint = c.intern(b)
	default:
		rec.Error = c.intern(b)
	}
	return end
}

// unescape returns the contents of the string literal at line[j] (in the
// scratch buffer when it had escapes); ok is false for anything else or a
// string the full decoder would read differently.
func (c *clientFast) unescape(line []byte, j int) ([]byte, int, bool) {
	s, end, plain, ok := jsonwalk.WalkString(line, j)
	if plain || !ok {
		return s, end, ok
	}
	c.text, ok = jsonwalk.AppendUnescaped(c.text[:0], line[j:end])
	return c.text, end, ok
}

// clientBool reads true or false at line[j] into *dst.
func clientBool(line []byte, j int, dst **bool) int {
	switch line[j] {
	case 't':
		*dst = decode.Ptr(true)
		return jsonwalk.WalkLiteral(line, j, "true")
	case 'f':
		*dst = decode.Ptr(false)
		return jsonwalk.WalkLiteral(line, j, "false")
	}
	return -1
}

// clientInternMax bounds the interned strings of one input.
const clientInternMax = 1024

// intern returns b as a string, shared with earlier equal values.
func (c *clientFast) intern(b []byte) string {
	if s, ok := c.interned[string(b)]; ok {
		return s
	}
	s := string(b)
	if c.interned == nil {
		c.interned = make(map[string]string)
	}
	if len(c.interned) < clientInternMax {
		c.interned[s] = s
	}
	return s
}

// Chunk keys by their bit in a chunk's seen mask.
const (
	clientTMs = 1 << iota
	clientTokens
	clientKind
)

// chunk reads one chunks element at line[j] into the scratch lists, as
// clientRecord.chunks would; it returns -1 for anything that route would
// reject or decode differently.
func (c *clientFast) chunk(line []byte, j int) int {
	if end, ok := c.chunkCompact(line, j); ok {
		return end
	}
	var ms float64
	var tokens int64
	var kind []byte
	seen, hasTokens := 0, false
	end := jsonwalk.WalkObject(line, j, func(key []byte, v int) int {
		bit := clientChunkKey(key)
		switch {
		case bit < 0 || seen&bit != 0:
			return -1
		case bit == 0:
			return jsonwalk.WalkSkip(line, v, &c.stack)
		}
		seen |= bit
		switch bit {
		case clientTMs:
			f, end, ok := jsonwalk.Float(line, v)
			ms = f
			return jsonwalk.EndIf(ok, end)
		case clientTokens:
			if line[v] == 'n' {
				return jsonwalk.WalkLiteral(line, v, "null")
			}
			n, end, ok := jsonwalk.StrictInt(line, v)
			tokens, hasTokens = n, true
			return jsonwalk.EndIf(ok && n == int64(int32(n)), end)
		}
		s, end, plain, ok := jsonwalk.WalkString(line, v)
		kind = s
		return jsonwalk.EndIf(plain && ok, end)
	})
	if end < 0 || seen&clientTMs == 0 || !c.addChunk(ms, tokens, hasTokens, kind) {
		return -1
	}
	c.out.chunks++
	return end
}

// chunkCompact reads a chunk written the way ttftrace's client writes it,
// {"t_ms":N,"tokens":N,"kind":"K"} (tokens optional), without the generic
// walk; ok is false for any other layout, which chunk reads.
func (c *clientFast) chunkCompact(line []byte, j int) (int, bool) {
	const head, tokensKey, kindKey = `{"t_ms":`, `,"tokens":`, `,"kind":"`
	if !clientHasAt(line, j, head) {
		return 0, false
	}
	ms, i, ok := jsonwalk.Float(line, j+len(head))
	if !ok {
		return 0, false
	}
	var tokens int64
	hasTokens := clientHasAt(line, i, tokensKey)
	if hasTokens {
		if tokens, i, ok = jsonwalk.StrictInt(line, i+len(tokensKey)); !ok || tokens != int64(int32(tokens)) {
			return 0, false
		}
	}
	if !clientHasAt(line, i, kindKey) {
		return 0, false
	}
	i += len(kindKey)
	q := bytes.IndexByte(line[i:], '"') // addChunk takes only plain kind names
	if q < 0 || !clientHasAt(line, i+q, `"}`) || !c.addChunk(ms, tokens, hasTokens, line[i:i+q]) {
		return 0, false
	}
	c.out.chunks++
	return i + q + 2, true
}

// clientHasAt reports whether b holds s at i.
func clientHasAt(b []byte, i int, s string) bool {
	return i <= len(b) && len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

// clientChunkKey returns the seen bit of a chunk key, 0 for a key struct
// decoding ignores, and -1 for one it might match after folding or unescaping.
func clientChunkKey(key []byte) int {
	switch string(key) {
	case "t_ms":
		return clientTMs
	case "tokens":
		return clientTokens
	case "kind":
		return clientKind
	}
	if _, ok := jsonwalk.StructKey(key, clientChunkFields); !ok {
		return -1
	}
	return 0
}

var clientChunkFields = []string{"t_ms", "tokens", "kind"}

// addChunk lists one chunk as clientRecord.chunks does, and reports false
// where that would reject it.
func (c *clientFast) addChunk(ms float64, tokens int64, hasTokens bool, kind []byte) bool {
	off, ok := clientMsToNs(ms)
	if !ok {
		return false
	}
	switch string(kind) {
	case "role", "usage":
		return true
	case "content", "reasoning", "tool_call":
	default:
		return false
	}
	k := int32(1)
	if hasTokens {
		if k = int32(tokens); k < 0 {
			return false
		}
		c.counted = true
	}
	if k != 0 {
		c.offs = append(c.offs, off)
		c.toks = append(c.toks, k)
	}
	return true
}

// attrList reads the attrs object at line[j] into the scratch attributes.
func (c *clientFast) attrList(line []byte, j int) int {
	return jsonwalk.WalkObject(line, j, func(key []byte, v int) int {
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) || len(c.attrs) >= 64 {
			return -1
		}
		for _, a := range c.attrs {
			if bytes.Equal(a.key, key) {
				return -1
			}
		}
		a := clientAttr{key: key}
		end := -1
		switch line[v] {
		case '"':
			b, e, ok := c.unescape(line, v)
			if !ok {
				return -1
			}
			a.value, a.keep, end = c.intern(b), true, e
		case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			end = jsonwalk.WalkSkip(line, v, &c.stack)
			a.keep = end >= 0
			if a.keep {
				a.value = c.intern(line[v:end])
			}
		default: // null, objects and arrays are not kept
			end = jsonwalk.WalkSkip(line, v, &c.stack)
		}
		c.attrs = append(c.attrs, a)
		return end
	})
}

// finish copies the scratch lists into the record's own storage, which the
// event keeps.
func (c *clientFast) finish() {
	if len(c.offs) > 0 {
		c.out.offsets = slices.Clone(c.offs)
		if c.counted {
			c.out.tokens = slices.Clone(c.toks)
		}
	}
	for _, a := range c.attrs {
		if !a.keep {
			continue
		}
		if c.out.attrs == nil {
			c.out.attrs = make(map[string]string, len(c.attrs))
		}
		c.out.attrs[c.intern(a.key)] = a.value
	}
}
