package client

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The reader of the ttftrace-client decoder. A line is read in place, in
// one pass that validates it, as goccy/go-json (which decodes as
// encoding/json does) would decode it into clientRecord: keys matched
// exactly, then under case folding, after decoding their escapes;
// repeated keys read in turn (the last wins; null clears a pointer, a
// slice or a map and leaves a string as it was; a second chunks array
// decodes into the elements of the first, a second attrs object adds to
// the first); strings with escapes and invalid UTF-8 decoded as
// encoding/json decodes them; values nested to encoding/json's depth. A
// line it does not read is one that unmarshalling refuses: clientRefuse
// gives the library's words for it. The chunks go to value-typed scratch
// elements, reused line to line, and then straight into the event's lists.

// clientLine is one line of the format as read; see Format.
type clientLine struct {
	requestID, traceID, model, endpoint, errorText string

	start                      *string
	stream                     *bool
	status                     *int32
	promptTokens, outputTokens *int64
	headersMs, endMs           *float64
	chunks                     []clientChunk     // the reader's scratch: valid until the next line
	attrs                      map[string]string // kept attributes; nil when none
}

// clientChunk is one received chunk: its arrival in ms after start, its kind
// and, optionally, the tokens it carried.
type clientChunk struct {
	tMs       float64
	tokens    int32
	hasTMs    bool
	hasTokens bool
	class     int8   // clientKind of the kind
	other     string // a kind of class clientKindOther
}

// clientReader reads client lines in place; its scratch is reused line to line.
type clientReader struct {
	chunks   []clientChunk      // the chunks array as decoded so far
	used     int                // elements of chunks' array written since the line began (the rest are stale)
	stack    []byte             // scratch for the JSON scanner
	offs     []int64            // scratch chunk offsets
	toks     []int32            // scratch chunk tokens
	interned decode.InternTable // repeated values (model, endpoint, attributes)
}

// clientFields are the record's keys, by index (clientRecord's JSON names).
var clientFields = []string{"request_id", "trace_id", "start", "model", "endpoint", "stream", "status",
	"error", "prompt_tokens", "output_tokens", "headers_ms", "end_ms", "chunks", "attrs"}

// clientChunkFields are a chunk's keys, by index.
var clientChunkFields = []string{"t_ms", "tokens", "kind"}

// read fills rec from line, a JSON object, and reports false for a line
// unmarshalling into clientRecord refuses.
func (c *clientReader) read(line []byte, rec *clientLine) bool {
	c.chunks, c.used = c.chunks[:0], 0
	*rec = clientLine{}
	end := jsonwalk.WalkObject(line, 0, func(key []byte, j int) int {
		k, ok := jsonwalk.FieldIndex(key, clientFields)
		switch {
		case !ok:
			return -1
		case k < 0:
			return jsonwalk.SkipAt(line, j, 1, &c.stack)
		}
		return c.field(line, k, j, rec)
	})
	rec.chunks = c.chunks
	if len(rec.attrs) == 0 {
		rec.attrs = nil
	}
	return end == len(line)
}

// field reads the value at line[j] of record field k (clientFields) into rec
// and returns the index after it, or -1.
func (c *clientReader) field(line []byte, k, j int, rec *clientLine) int {
	switch k {
	case 0, 1, 3, 4, 7:
		return c.stringField(line, k, j, rec)
	case 12:
		return c.chunkList(line, j)
	case 13:
		return c.attrList(line, j, rec)
	}
	if line[j] == 'n' {
		rec.clear(k)
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	switch k {
	case 2:
		s, end, ok := jsonwalk.Text(line, j)
		rec.start = decode.Ptr(string(s))
		return jsonwalk.EndIf(ok, end)
	case 5:
		return clientBool(line, j, &rec.stream)
	case 6:
		v, end, ok := jsonwalk.StrictInt(line, j)
		rec.status = decode.Ptr(int32(v))
		return jsonwalk.EndIf(ok && v == int64(int32(v)), end)
	case 8, 9:
		v, end, ok := jsonwalk.StrictInt(line, j)
		*clientPick(k == 8, &rec.promptTokens, &rec.outputTokens) = &v
		return jsonwalk.EndIf(ok, end)
	}
	f, end, ok := jsonwalk.Float(line, j)
	*clientPick(k == 10, &rec.headersMs, &rec.endMs) = &f
	return jsonwalk.EndIf(ok, end)
}

// clear sets pointer field k (clientFields) to nil, as null does.
func (rec *clientLine) clear(k int) {
	switch k {
	case 2:
		rec.start = nil
	case 5:
		rec.stream = nil
	case 6:
		rec.status = nil
	case 8, 9:
		*clientPick(k == 8, &rec.promptTokens, &rec.outputTokens) = nil
	default:
		*clientPick(k == 10, &rec.headersMs, &rec.endMs) = nil
	}
}

// clientPick returns a when first, else b.
func clientPick[T any](first bool, a, b *T) *T {
	if first {
		return a
	}
	return b
}

// stringField reads string field k (clientFields) at line[j]; null leaves
// the field as it was.
func (c *clientReader) stringField(line []byte, k, j int, rec *clientLine) int {
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	b, end, ok := jsonwalk.Text(line, j)
	if !ok {
		return -1
	}
	switch k {
	case 0:
		rec.requestID = string(b)
	case 1:
		rec.traceID = string(b)
	case 3:
		rec.model = c.interned.Get(b)
	case 4:
		rec.endpoint = c.interned.Get(b)
	default:
		rec.errorText = c.interned.Get(b)
	}
	return end
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

// chunkList reads the chunks array (or null) at line[j] as encoding/json
// decodes it into a slice that may hold an earlier array of the line:
// element i is decoded into the element i that array's storage holds, and
// the slice ends at the new array's length; null empties the storage.
func (c *clientReader) chunkList(line []byte, j int) int {
	if line[j] == 'n' {
		c.chunks, c.used = c.chunks[:0], 0
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	n := 0
	end := jsonwalk.WalkArray(line, j, func(e int) int {
		if n == len(c.chunks) {
			if n < c.used {
				c.chunks = c.chunks[:n+1] // the element an earlier array of the line left
			} else {
				c.chunks = append(c.chunks, clientChunk{})
				c.used = n + 1
			}
		}
		n++
		return c.chunk(line, e, &c.chunks[n-1])
	})
	c.chunks = c.chunks[:n]
	return end
}

// chunk reads one chunks element at line[j] into ch: the members it has
// replace ch's (null clears t_ms and tokens, leaves kind), null leaves ch.
func (c *clientReader) chunk(line []byte, j int, ch *clientChunk) int {
	if end, ok := clientChunkCompact(line, j, ch); ok {
		return end
	}
	if line[j] == 'n' {
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	return jsonwalk.WalkObject(line, j, func(key []byte, v int) int {
		k, ok := jsonwalk.FieldIndex(key, clientChunkFields)
		switch {
		case !ok:
			return -1
		case k < 0:
			return jsonwalk.SkipAt(line, v, 3, &c.stack)
		case line[v] == 'n' && k == 2:
			return jsonwalk.WalkLiteral(line, v, "null")
		case line[v] == 'n':
			ch.hasTMs = ch.hasTMs && k != 0
			ch.hasTokens = ch.hasTokens && k != 1
			return jsonwalk.WalkLiteral(line, v, "null")
		case k == 0:
			f, end, ok := jsonwalk.Float(line, v)
			ch.tMs, ch.hasTMs = f, true
			return jsonwalk.EndIf(ok, end)
		case k == 1:
			n, end, ok := jsonwalk.StrictInt(line, v)
			ch.tokens, ch.hasTokens = int32(n), true
			return jsonwalk.EndIf(ok && n == int64(int32(n)), end)
		}
		s, end, ok := jsonwalk.Text(line, v)
		if ch.class = clientKind(s); ch.class == clientKindOther {
			ch.other = string(s)
		}
		return jsonwalk.EndIf(ok, end)
	})
}

// clientChunkCompact reads a chunk written the way ttftrace's client writes
// it, {"t_ms":N,"tokens":N,"kind":"K"} (tokens optional) with a kind
// clientKind knows, without the generic walk; ok is false for any other
// layout, which chunk reads.
func clientChunkCompact(line []byte, j int, ch *clientChunk) (int, bool) {
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
	q := bytes.IndexByte(line[i:], '"')
	if q < 0 || !clientHasAt(line, i+q, `"}`) {
		return 0, false
	}
	class := clientKind(line[i : i+q])
	if class == clientKindOther {
		return 0, false
	}
	ch.tMs, ch.hasTMs, ch.class = ms, true, class
	if hasTokens {
		ch.tokens, ch.hasTokens = int32(tokens), true
	}
	return i + q + 2, true
}

// clientHasAt reports whether b holds s at i.
func clientHasAt(b []byte, i int, s string) bool {
	return i <= len(b) && len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

// attrList reads the attrs object (or null) at line[j] into rec.attrs: a
// string, number or boolean is kept as a string, null, an object or an
// array removes the key; null for the whole clears them.
func (c *clientReader) attrList(line []byte, j int, rec *clientLine) int {
	if line[j] == 'n' {
		rec.attrs = nil
		return jsonwalk.WalkLiteral(line, j, "null")
	}
	return jsonwalk.WalkObject(line, j, func(key []byte, v int) int {
		key, ok := jsonwalk.KeyText(key)
		if !ok {
			return -1
		}
		var value []byte
		end := -1
		switch line[v] {
		case '"':
			value, end, ok = jsonwalk.Text(line, v)
			end = jsonwalk.EndIf(ok, end)
		case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			end = jsonwalk.SkipAt(line, v, 2, &c.stack)
			value = line[v:max(end, v)]
		default: // null, objects and arrays are not kept
			end = jsonwalk.SkipAt(line, v, 2, &c.stack)
			delete(rec.attrs, string(key))
			return end
		}
		if rec.attrs == nil {
			rec.attrs = make(map[string]string)
		}
		rec.attrs[c.interned.Get(key)] = c.interned.Get(value)
		return end
	})
}
