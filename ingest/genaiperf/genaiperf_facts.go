package genaiperf

import (
	"bytes"
	"strings"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// gpFacts is what one SSE event or non-streamed body tells ttftrace: its
// ids, usage, whether it carries a token and whether it finishes the stream.
// Byte slices point into the event's text.
type gpFacts struct {
	id, object, model []byte
	errorClass        string // "" unless the event is an error object
	usageIn, usageOut int64
	hasIn, hasOut     bool
	token, finished   bool
}

// fromChunk takes the facts of a chunk decoded into structs.
func (f *gpFacts) fromChunk(c *gpChunk) {
	*f = gpFacts{id: []byte(c.ID), object: []byte(c.Object), model: []byte(c.Model)}
	if gpNonEmpty(c.Error) || c.Object == "error" {
		f.errorClass = gpErrorClass(c)
	}
	if c.Usage != nil {
		if c.Usage.CompletionTokens != nil {
			f.usageOut, f.hasOut = *c.Usage.CompletionTokens, true
		}
		if c.Usage.PromptTokens != nil {
			f.usageIn, f.hasIn = *c.Usage.PromptTokens, true
		}
	}
	for _, ch := range c.Choices {
		f.token = f.token || ch.Delta.carriesToken() || ch.Message.carriesToken() || gpNonEmpty(ch.Text)
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			f.finished = true
		}
	}
}

// gpChunkKeys are the keys of gpChunk, in the order parse numbers them.
var gpChunkKeys = []string{"id", "object", "model", "choices", "usage", "error", "type", "code"}

// parse reads the facts of data, an event's JSON, in place; it reports
// false when data is not a valid JSON object or needs the struct decoding
// of decodeChunk, e.g. any error object.
func (f *gpFacts) parse(data []byte, stack *[]byte) bool {
	*f = gpFacts{}
	end, st, grown := jsonwalk.ValueEnd(data, 0, *stack)
	*stack = grown
	if st != jsonwalk.OK || end != len(data) || data[0] != '{' {
		return false
	}
	seen := 0
	return jsonwalk.WalkObject(data, 0, func(key []byte, j int) int {
		k, ok := gpFastKey(key, gpChunkKeys...)
		if !ok || (k >= 0 && seen&(1<<k) != 0) {
			return -1
		}
		if k >= 0 {
			seen |= 1 << k
		}
		return f.member(data, k, j, stack)
	}) >= 0
}

// member reads the value at data[j] of gpChunkKeys[k] (k < 0: another key).
func (f *gpFacts) member(data []byte, k, j int, stack *[]byte) int {
	switch k {
	case 0, 1, 2:
		s, end, ok := jsonwalk.PlainString(data, j)
		if !ok || (k == 1 && string(s) == "error") {
			return -1
		}
		*[]*[]byte{&f.id, &f.object, &f.model}[k] = s
		return end
	case 3:
		return jsonwalk.WalkArray(data, j, func(e int) int { return f.choice(data, e, stack) })
	case 4:
		if string(data[j:min(j+4, len(data))]) == "null" {
			return j + 4 // no usage block, as the struct decoding reads it
		}
		return f.usage(data, j)
	case 5:
		end := jsonwalk.Skip(data, j, stack)
		if gpNonEmpty(data[j:end]) {
			return -1 // an error object: classified by gpErrorClass
		}
		return end
	case 6:
		if data[j] != '"' {
			return -1
		}
	}
	return jsonwalk.Skip(data, j, stack)
}

// gpChoiceKeys are the keys of one choice that parse reads.
var gpChoiceKeys = []string{"delta", "message", "text", "finish_reason"}

// choice reads one element of "choices" at data[j].
func (f *gpFacts) choice(data []byte, j int, stack *[]byte) int {
	seen := 0
	return jsonwalk.WalkObject(data, j, func(key []byte, v int) int {
		k, ok := gpFastKey(key, gpChoiceKeys...)
		if !ok || (k >= 0 && seen&(1<<k) != 0) {
			return -1
		}
		if k >= 0 {
			seen |= 1 << k
		}
		switch k {
		case 0, 1:
			if string(data[v:min(v+4, len(data))]) == "null" {
				return v + 4
			}
			return f.message(data, v, stack)
		case 2:
			end := jsonwalk.Skip(data, v, stack)
			if data[v] != '"' && data[v] != 'n' {
				return -1 // text that is not a string: leave it to the struct decoding
			}
			f.token = f.token || gpNonEmpty(data[v:end])
			return end
		case 3:
			if string(data[v:min(v+4, len(data))]) == "null" {
				return v + 4
			}
			s, end, ok := jsonwalk.PlainString(data, v)
			if !ok {
				return -1
			}
			f.finished = f.finished || len(s) > 0
			return end
		}
		return jsonwalk.Skip(data, v, stack)
	})
}

// gpMessageKeys are the keys of a delta or message whose non-emptiness
// makes a token.
var gpMessageKeys = []string{"content", "reasoning_content", "reasoning", "tool_calls"}

// message reads a delta or message object at data[j].
func (f *gpFacts) message(data []byte, j int, stack *[]byte) int {
	seen := 0
	return jsonwalk.WalkObject(data, j, func(key []byte, v int) int {
		k, ok := gpFastKey(key, gpMessageKeys...)
		if !ok || (k >= 0 && seen&(1<<k) != 0) {
			return -1
		}
		end := jsonwalk.Skip(data, v, stack)
		if k >= 0 {
			seen |= 1 << k
			f.token = f.token || gpNonEmpty(data[v:end])
		}
		return end
	})
}

// usage reads the usage object at data[j].
func (f *gpFacts) usage(data []byte, j int) int {
	seen := 0
	return jsonwalk.WalkObject(data, j, func(key []byte, v int) int {
		k, ok := gpFastKey(key, "prompt_tokens", "completion_tokens")
		if !ok || (k >= 0 && seen&(1<<k) != 0) {
			return -1
		}
		if k < 0 {
			var st []byte
			return jsonwalk.Skip(data, v, &st)
		}
		seen |= 1 << k
		if strings.HasPrefix(string(data[v:min(v+4, len(data))]), "null") {
			return v + 4
		}
		n, end, ok := jsonwalk.Int(data, v)
		if !ok {
			return -1
		}
		if k == 0 {
			f.usageIn, f.hasIn = n, true
		} else {
			f.usageOut, f.hasOut = n, true
		}
		return end
	})
}

// gpFastKey reports whether key, a raw object key, is one of want (returning
// its index) and ok=false when it is escaped or only a case-folded match,
// which the struct decoding would read differently.
func gpFastKey(key []byte, want ...string) (int, bool) {
	if bytes.IndexByte(key, '\\') >= 0 {
		return -1, false
	}
	for i, w := range want {
		if string(key) == w {
			return i, true
		}
		if bytes.EqualFold(key, []byte(w)) {
			return -1, false
		}
	}
	return -1, true
}
