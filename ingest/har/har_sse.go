package har

import (
	"encoding/json"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// harChunk is one SSE event (or a whole JSON response) of the OpenAI chat,
// completions and Responses APIs, Anthropic messages and TGI generate, with
// only the fields that count: ids, model, finish marks, usage and whether
// it carried output (never the output itself).
type harChunk struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Type    string `json:"type"`
	Choices []struct {
		Delta struct {
			Content          string          `json:"content"`
			ReasoningContent string          `json:"reasoning_content"`
			Reasoning        string          `json:"reasoning"`
			ToolCalls        json.RawMessage `json:"tool_calls"`
		} `json:"delta"`
		Text         string `json:"text"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *harUsage `json:"usage"`
	Token *struct {
		Text    string `json:"text"`
		Special bool   `json:"special"`
	} `json:"token"`
	Details *struct {
		FinishReason    string `json:"finish_reason"`
		GeneratedTokens *int64 `json:"generated_tokens"`
	} `json:"details"`
	Message  *harEnvelope `json:"message"`  // Anthropic message_start
	Response *harEnvelope `json:"response"` // Responses API response.*
}

type harEnvelope struct {
	ID    string    `json:"id"`
	Model string    `json:"model"`
	Usage *harUsage `json:"usage"`
}

type harUsage struct {
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
	InputTokens      *int64 `json:"input_tokens"`
	OutputTokens     *int64 `json:"output_tokens"`
}

// content reports whether the chunk carried output: content, reasoning or
// a tool call.
func (c *harChunk) content() bool {
	for _, ch := range c.Choices {
		tc := strings.TrimSpace(string(ch.Delta.ToolCalls))
		if ch.Delta.Content != "" || ch.Delta.ReasoningContent != "" || ch.Delta.Reasoning != "" || ch.Text != "" ||
			tc != "" && tc != "null" && tc != "[]" {
			return true
		}
	}
	if c.Token != nil && !c.Token.Special && c.Token.Text != "" {
		return true
	}
	return c.Type == "content_block_delta" || strings.HasPrefix(c.Type, "response.") && strings.HasSuffix(c.Type, ".delta")
}

// finished reports whether the chunk marks the end of the response.
func (c *harChunk) finished() bool {
	for _, ch := range c.Choices {
		if ch.FinishReason != "" {
			return true
		}
	}
	return c.Details != nil && c.Details.FinishReason != "" || c.Type == "message_stop" || c.Type == "response.completed"
}

// apply records ids, model and usage tokens on ev.
func (c *harChunk) apply(ev *schema.Event) {
	for _, env := range []*harEnvelope{{ID: c.ID, Model: c.Model, Usage: c.Usage}, c.Message, c.Response} {
		if env == nil {
			continue
		}
		if ev.ResponseID == "" {
			ev.ResponseID = env.ID
		}
		if ev.Model == "" {
			ev.Model = env.Model
		}
		if u := env.Usage; u != nil {
			if p := decode.FirstSet(u.PromptTokens, u.InputTokens); p != nil {
				ev.PromptTokens, ev.PromptTokensSource = p, schema.TokensUsage
			}
			if o := decode.FirstSet(u.CompletionTokens, u.OutputTokens); o != nil {
				ev.OutputTokens, ev.OutputTokensSource = o, schema.TokensUsage
			}
		}
	}
	if c.Details != nil && c.Details.GeneratedTokens != nil {
		ev.OutputTokens, ev.OutputTokensSource = c.Details.GeneratedTokens, schema.TokensUsage
	}
}

// harSSE counts the output chunks of an SSE body and looks for its end.
func harSSE(ev *schema.Event, text string) {
	var chunks int64
	done := false
	for _, line := range strings.Split(text, "\n") {
		payload, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "data:")
		if !ok {
			continue
		}
		payload = strings.TrimSpace(payload)
		if payload == "[DONE]" {
			done = true
			continue
		}
		var c harChunk
		if json.Unmarshal([]byte(payload), &c) != nil {
			continue
		}
		c.apply(ev)
		if c.content() {
			chunks++
		}
		done = done || c.finished()
	}
	if ev.OutputTokens == nil && chunks > 0 {
		ev.OutputTokens, ev.OutputTokensSource = decode.Ptr(chunks), schema.TokensCounted
	}
	ev.Completed = decode.Ptr(done && ev.Error == schema.ErrorNone)
	if !done && ev.Error == schema.ErrorNone {
		ev.Error = schema.ErrorInterrupted
	}
}
