package genaiperf

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

// gpChunkKeys are the keys of gpChunk, in the order the escaped reading
// numbers them (genaiperf_esc_facts.go).
var gpChunkKeys = []string{"id", "object", "model", "choices", "usage", "error", "type", "code"}

// gpChoiceKeys are the keys of one choice that the escaped reading reads.
var gpChoiceKeys = []string{"delta", "message", "text", "finish_reason"}

// gpMessageKeys are the keys of a delta or message whose non-emptiness
// makes a token.
var gpMessageKeys = []string{"content", "reasoning_content", "reasoning", "tool_calls"}
