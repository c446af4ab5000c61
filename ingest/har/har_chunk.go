package har

import (
	"bytes"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// chunk is what one SSE event (or a whole JSON response) of the OpenAI
// chat, completions and Responses APIs, Anthropic messages or TGI generate
// gives: ids, model, finish marks, usage and whether it carried output
// (only whether a text is empty is kept, never the text). It is read as
// encoding/json decodes the event into this struct (the rules of
// har_entry.go):
//
//	struct {
//		ID, Model, Type string
//		Choices []struct {
//			Delta struct {
//				Content, ReasoningContent, Reasoning string
//				ToolCalls json.RawMessage
//			}
//			Text, FinishReason string
//		}
//		Usage    *usage // prompt_tokens, completion_tokens, input_tokens, output_tokens: *int64
//		Token    *struct{ Text string; Special bool }            // TGI
//		Details  *struct{ FinishReason string; GeneratedTokens *int64 } // TGI
//		Message  *struct{ ID, Model string; Usage *usage }       // Anthropic message_start
//		Response *struct{ ID, Model string; Usage *usage }       // Responses API response.*
//	}
type chunk struct {
	env     [3]envelope // the event's own id, model and usage; its message; its response
	typ     []byte
	choices []choice
	token   struct{ set, text, special bool }
	details struct{ set, finish, hasGenerated bool }
	tokens  int64 // details.generated_tokens, when hasGenerated
}

// envelope is one set of id, model and usage.
type envelope struct {
	set       bool
	id, model []byte
	usage     usage
}

// usage holds the counts present of usageNames.
type usage struct {
	set bool
	v   [4]int64
	has [4]bool
}

// choice is one element of choices: whether each text is not empty, and
// the tool calls as written.
type choice struct {
	content, reasoningContent, reasoning, text, finish bool
	toolCalls                                          []byte
}

// The JSON names of the fields of an event's structs, by index.
var (
	chunkNames    = []string{"id", "model", "type", "choices", "usage", "token", "details", "message", "response"}
	usageNames    = []string{"prompt_tokens", "completion_tokens", "input_tokens", "output_tokens"}
	choiceNames   = []string{"delta", "text", "finish_reason"}
	deltaNames    = []string{"content", "reasoning_content", "reasoning", "tool_calls"}
	tokenNames    = []string{"text", "special"}
	detailsNames  = []string{"finish_reason", "generated_tokens"}
	envelopeNames = []string{"id", "model", "usage"}
)

// chunk reads the event b into r.c; false when json.Unmarshal would fail.
func (r *reader) chunk(b []byte) bool {
	clear(r.c.choices[:cap(r.c.choices)])
	r.c = chunk{choices: r.c.choices[:0]}
	r.c.env[0].set = true
	c := &r.c
	i := jsonwalk.SkipWS(b, 0)
	end := r.object(b, i, chunkNames, func(k, j int) int {
		switch k {
		case 0, 1, 2:
			return r.str(b, j, []*[]byte{&c.env[0].id, &c.env[0].model, &c.typ}[k])
		case 3:
			return r.choices(b, j)
		case 4:
			return r.usage(b, j, &c.env[0].usage)
		case 5:
			return r.token(b, j)
		case 6:
			return r.details(b, j)
		}
		return r.envelope(b, j, &c.env[k-6])
	})
	return r.whole(b, i, end)
}

// nonEmpty reads the string (or null) at b[j]: *dst tells whether it is
// not empty.
func (r *reader) nonEmpty(b []byte, j int, dst *bool) int {
	switch b[j] {
	case 'n':
		return null(b, j)
	case '"':
	default:
		return -1
	}
	end, st := jsonwalk.StringEnd(b, j)
	*dst = end-j > len(`""`) // any escape or byte decodes to something
	return jsonwalk.EndIf(st == jsonwalk.OK, end)
}

// count reads the *int64 (or null) at b[j].
func (r *reader) count(b []byte, j int, v *int64, has *bool) int {
	if b[j] == 'n' {
		*has = false
		return null(b, j)
	}
	n, end, ok := jsonwalk.StrictInt(b, j)
	if !ok {
		return -1
	}
	*v, *has = n, true
	return end
}

// usage reads the *usage (or null) at b[j] into u.
func (r *reader) usage(b []byte, j int, u *usage) int {
	if b[j] == 'n' {
		*u = usage{}
		return null(b, j)
	}
	u.set = true
	return r.object(b, j, usageNames, func(k, j int) int {
		return r.count(b, j, &u.v[k], &u.has[k])
	})
}

// envelope reads a message or response (or null) at b[j] into e.
func (r *reader) envelope(b []byte, j int, e *envelope) int {
	if b[j] == 'n' {
		*e = envelope{}
		return null(b, j)
	}
	e.set = true
	return r.object(b, j, envelopeNames, func(k, j int) int {
		switch k {
		case 0:
			return r.str(b, j, &e.id)
		case 1:
			return r.str(b, j, &e.model)
		}
		return r.usage(b, j, &e.usage)
	})
}

// token reads TGI's token (or null) at b[j].
func (r *reader) token(b []byte, j int) int {
	t := &r.c.token
	if b[j] == 'n' {
		*t = struct{ set, text, special bool }{}
		return null(b, j)
	}
	t.set = true
	return r.object(b, j, tokenNames, func(k, j int) int {
		if k == 0 {
			return r.nonEmpty(b, j, &t.text)
		}
		switch b[j] {
		case 'n':
			return null(b, j)
		case 't':
			t.special = true
			return jsonwalk.WalkLiteral(b, j, "true")
		case 'f':
			t.special = false
			return jsonwalk.WalkLiteral(b, j, "false")
		}
		return -1
	})
}

// details reads TGI's details (or null) at b[j].
func (r *reader) details(b []byte, j int) int {
	d := &r.c.details
	if b[j] == 'n' {
		*d = struct{ set, finish, hasGenerated bool }{}
		return null(b, j)
	}
	d.set = true
	return r.object(b, j, detailsNames, func(k, j int) int {
		if k == 0 {
			return r.nonEmpty(b, j, &d.finish)
		}
		return r.count(b, j, &r.c.tokens, &d.hasGenerated)
	})
}

// choices reads the choices list (or null) at b[j] (decodeList).
func (r *reader) choices(b []byte, j int) int {
	return decodeList(b, j, &r.c.choices, func(ch *choice, j int) int {
		return r.object(b, j, choiceNames, func(k, j int) int {
			switch k {
			case 0:
				return r.object(b, j, deltaNames, func(k, j int) int { return r.delta(b, k, j, ch) })
			case 1:
				return r.nonEmpty(b, j, &ch.text)
			}
			return r.nonEmpty(b, j, &ch.finish)
		})
	})
}

// delta reads field k of a choice's delta at b[j].
func (r *reader) delta(b []byte, k, j int, ch *choice) int {
	if k < 3 {
		return r.nonEmpty(b, j, []*bool{&ch.content, &ch.reasoningContent, &ch.reasoning}[k])
	}
	end := r.skip(b, j) // a json.RawMessage: any value, as written
	if end >= 0 {
		ch.toolCalls = b[j:end]
	}
	return end
}

// content reports whether the event carried output: content, reasoning or
// a tool call.
func (c *chunk) content() bool {
	for _, ch := range c.choices {
		tc := string(ch.toolCalls)
		if ch.content || ch.reasoningContent || ch.reasoning || ch.text || tc != "" && tc != "null" && tc != "[]" {
			return true
		}
	}
	if c.token.set && !c.token.special && c.token.text {
		return true
	}
	return string(c.typ) == "content_block_delta" ||
		bytes.HasPrefix(c.typ, []byte("response.")) && bytes.HasSuffix(c.typ, []byte(".delta"))
}

// finished reports whether the event marks the end of the response.
func (c *chunk) finished() bool {
	for _, ch := range c.choices {
		if ch.finish {
			return true
		}
	}
	return c.details.set && c.details.finish || string(c.typ) == "message_stop" || string(c.typ) == "response.completed"
}

// apply records the ids, model and usage counts of the event in r.c on ev:
// the first id and model, the last counts.
func (r *reader) apply(ev *schema.Event) {
	c := &r.c
	for i := range c.env {
		e := &c.env[i]
		if !e.set {
			continue
		}
		if ev.ResponseID == "" {
			ev.ResponseID = string(e.id)
		}
		if ev.Model == "" {
			ev.Model = r.intern.Get(e.model)
		}
		if !e.usage.set {
			continue
		}
		if p, ok := e.usage.first(0, 2); ok {
			ev.PromptTokens, ev.PromptTokensSource = r.arena.Int64(p), schema.TokensUsage
		}
		if o, ok := e.usage.first(1, 3); ok {
			ev.OutputTokens, ev.OutputTokensSource = r.arena.Int64(o), schema.TokensUsage
		}
	}
	if c.details.set && c.details.hasGenerated {
		ev.OutputTokens, ev.OutputTokensSource = r.arena.Int64(c.tokens), schema.TokensUsage
	}
}

// first returns the first count present of usageNames[a] and [b].
func (u *usage) first(a, b int) (int64, bool) {
	switch {
	case u.has[a]:
		return u.v[a], true
	case u.has[b]:
		return u.v[b], true
	}
	return 0, false
}
