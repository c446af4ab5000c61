package har

import (
	"bytes"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The fast reading of one SSE event (or a whole JSON response body) into
// the facts harChunk gives: ids, model, usage, whether it carried output
// and whether it ends the response. Only the emptiness of output strings
// is looked at, never their text.

// harFastChunk is what harChunk's methods read from one event.
type harFastChunk struct {
	env          [3]harFastEnv // the event itself, its message, its response
	content      bool
	finished     bool
	generated    int64 // details.generated_tokens, when hasGenerated
	hasGenerated bool
}

// harFastEnv is one envelope of ids, model and usage (harEnvelope).
type harFastEnv struct {
	set       bool
	id, model []byte
	usage     harFastUsage
}

// harFastUsage holds the usage counts present: prompt_tokens,
// completion_tokens, input_tokens, output_tokens.
type harFastUsage struct {
	v   [4]int64
	has [4]bool
}

// first returns the first count present of a and b.
func (u *harFastUsage) first(a, b int) (int64, bool) {
	switch {
	case u.has[a]:
		return u.v[a], true
	case u.has[b]:
		return u.v[b], true
	}
	return 0, false
}

// The keys of the objects of an event, by index.
var (
	harChunkFields    = newHarNames("id", "model", "type", "choices", "usage", "token", "details", "message", "response")
	harUsageFields    = newHarNames("prompt_tokens", "completion_tokens", "input_tokens", "output_tokens")
	harChoiceFields   = newHarNames("delta", "text", "finish_reason")
	harDeltaFields    = newHarNames("content", "reasoning_content", "reasoning", "tool_calls")
	harTokenFields    = newHarNames("text", "special")
	harDetailsFields  = newHarNames("finish_reason", "generated_tokens")
	harEnvelopeFields = newHarNames("id", "model", "usage")
)

// chunkReader walks one event's JSON in b.
type chunkReader struct {
	b     []byte
	stack *[]byte
	c     *harFastChunk
	typ   []byte
}

// chunk reads the event b, one JSON object with nothing after it, into c
// (reset first); false when it needs encoding/json.
func (f *harFast) chunk(b []byte, c *harFastChunk) bool {
	*c = harFastChunk{}
	c.env[0].set = true
	r := chunkReader{b: b, stack: &f.stack, c: c}
	end := r.object(0, harChunkFields, r.field)
	if end < 0 || jsonwalk.SkipWS(b, end) != len(b) {
		return false
	}
	t := r.typ
	if string(t) == "content_block_delta" || bytes.HasPrefix(t, []byte("response.")) && bytes.HasSuffix(t, []byte(".delta")) {
		c.content = true
	}
	if string(t) == "message_stop" || string(t) == "response.completed" {
		c.finished = true
	}
	return true
}

// object walks the object (or null) at b[j] as harFast.object does.
func (r *chunkReader) object(j int, names *harNames, field func(k, j int) int) int {
	b := r.b
	if j < len(b) && b[j] == 'n' {
		return jsonwalk.WalkLiteral(b, j, "null")
	}
	seen := 0
	return jsonwalk.WalkObject(b, j, func(key []byte, j int) int {
		k, ok := harKey(key, names)
		switch {
		case !ok || k >= 0 && seen&(1<<k) != 0:
			return -1
		case k < 0:
			return harSkip(b, j, r.stack)
		}
		seen |= 1 << k
		return field(k, j)
	})
}

// field reads field k (harChunkFields) of the event at b[j].
func (r *chunkReader) field(k, j int) int {
	switch k {
	case 0:
		return r.plain(j, &r.c.env[0].id)
	case 1:
		return r.plain(j, &r.c.env[0].model)
	case 2:
		return r.plain(j, &r.typ)
	case 3:
		return r.choices(j)
	case 4:
		return r.usage(j, &r.c.env[0].usage)
	case 5:
		return r.token(j)
	case 6:
		return r.details(j)
	}
	return r.envelope(j, &r.c.env[k-6])
}

// plain reads the string (or null) at b[j] into dst, when it needs no
// unescaping; -1 otherwise.
func (r *chunkReader) plain(j int, dst *[]byte) int {
	if r.b[j] == 'n' {
		return jsonwalk.WalkLiteral(r.b, j, "null")
	}
	s, end, plain, ok := harString(r.b, j)
	if !ok || !plain {
		return -1
	}
	*dst = s
	return end
}

// nonEmpty reads the string (or null) at b[j] and sets *dst when it is not
// empty; -1 for any other value.
func (r *chunkReader) nonEmpty(j int, dst *bool) int {
	if r.b[j] == 'n' {
		return jsonwalk.WalkLiteral(r.b, j, "null")
	}
	end, _, _ := harStringEnd(r.b, j)
	if end < 0 {
		return -1
	}
	if end-j > 2 {
		*dst = true
	}
	return end
}

// count reads the integer (or null) at b[j] into *dst; -1 for any other
// value or one out of int64's range.
func (r *chunkReader) count(j int, dst *int64, has *bool) int {
	if r.b[j] == 'n' {
		return jsonwalk.WalkLiteral(r.b, j, "null")
	}
	v, end, ok := jsonwalk.StrictInt(r.b, j)
	if !ok {
		return -1
	}
	*dst, *has = v, true
	return end
}

// usage reads a usage object into u.
func (r *chunkReader) usage(j int, u *harFastUsage) int {
	return r.object(j, harUsageFields, func(k, j int) int {
		return r.count(j, &u.v[k], &u.has[k])
	})
}

// envelope reads a message or response object into e.
func (r *chunkReader) envelope(j int, e *harFastEnv) int {
	if r.b[j] != 'n' {
		e.set = true
	}
	return r.object(j, harEnvelopeFields, func(k, j int) int {
		switch k {
		case 0:
			return r.plain(j, &e.id)
		case 1:
			return r.plain(j, &e.model)
		}
		return r.usage(j, &e.usage)
	})
}

// choices reads the choices list: whether any carried output or a finish
// reason.
func (r *chunkReader) choices(j int) int {
	if r.b[j] == 'n' {
		return jsonwalk.WalkLiteral(r.b, j, "null")
	}
	return jsonwalk.WalkArray(r.b, j, func(j int) int {
		return r.object(j, harChoiceFields, func(k, j int) int {
			switch k {
			case 0:
				return r.object(j, harDeltaFields, r.delta)
			case 1:
				return r.nonEmpty(j, &r.c.content)
			}
			return r.nonEmpty(j, &r.c.finished)
		})
	})
}

// delta reads field k (harDeltaFields) of a choice's delta.
func (r *chunkReader) delta(k, j int) int {
	if k < 3 {
		return r.nonEmpty(j, &r.c.content)
	}
	end := harSkip(r.b, j, r.stack)
	if end < 0 {
		return -1
	}
	if tc := string(r.b[j:end]); tc != "null" && tc != "[]" {
		r.c.content = true
	}
	return end
}

// token reads TGI's token object: output when not special and not empty.
func (r *chunkReader) token(j int) int {
	var text, special bool
	end := r.object(j, harTokenFields, func(k, j int) int {
		if k == 0 {
			return r.nonEmpty(j, &text)
		}
		switch r.b[j] {
		case 'n':
			return jsonwalk.WalkLiteral(r.b, j, "null")
		case 't':
			special = true
			return jsonwalk.WalkLiteral(r.b, j, "true")
		}
		return jsonwalk.WalkLiteral(r.b, j, "false")
	})
	if text && !special {
		r.c.content = true
	}
	return end
}

// details reads TGI's details object: its finish reason and generated
// token count.
func (r *chunkReader) details(j int) int {
	return r.object(j, harDetailsFields, func(k, j int) int {
		if k == 0 {
			return r.nonEmpty(j, &r.c.finished)
		}
		return r.count(j, &r.c.generated, &r.c.hasGenerated)
	})
}
