package har

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The bodies of the fast path: the request body for model and stream, the
// response body for ids, usage, counted chunks and completion, each read
// from a reused buffer holding its unescaped text. A body or SSE event the
// walkers below do not reproduce exactly goes to encoding/json, as in the
// general route (har.go, har_sse.go).

// harBodyFields are the request body keys read: model and stream.
var harBodyFields = newHarNames("model", "stream")

// requestBody reads model and stream from the request body as
// harEntry.requestBody does; false when the body cannot be unescaped
// exactly.
func (f *harFast) requestBody(ev *schema.Event, box *harBox) bool {
	text := f.e.post.text
	if len(text) == 0 {
		return true
	}
	if !f.e.post.exact {
		return false
	}
	model, stream, ok := f.requestFields(text)
	if !ok {
		var body struct {
			Model  string `json:"model"`
			Stream *bool  `json:"stream"`
		}
		if json.Unmarshal(text, &body) == nil {
			ev.Model, ev.Stream = body.Model, body.Stream
		}
		return true
	}
	ev.Model, ev.Stream = "", nil
	if len(model) > 0 {
		ev.Model = f.intern(model)
	}
	if stream >= 0 {
		box.stream = stream == 1
		ev.Stream = &box.stream
	}
	return true
}

// requestFields reads the request body text, one JSON object: model (nil
// when missing or null) and stream (-1 when missing or null, else 0 or 1);
// ok is false when the body needs encoding/json.
func (f *harFast) requestFields(text []byte) (model []byte, stream int, ok bool) {
	stream = -1
	end := jsonwalk.WalkObject(text, 0, func(key []byte, j int) int {
		k, ok := harKey(key, harBodyFields)
		switch {
		case !ok || k == 0 && model != nil || k == 1 && stream >= 0:
			return -1
		case k < 0:
			return harSkip(text, j, &f.stack)
		case text[j] == 'n':
			return jsonwalk.WalkLiteral(text, j, "null")
		case k == 0:
			s, end, plain, ok := harString(text, j)
			if !ok || !plain {
				return -1
			}
			model = s
			return end
		case text[j] == 't':
			stream = 1
			return jsonwalk.WalkLiteral(text, j, "true")
		}
		stream = 0
		return jsonwalk.WalkLiteral(text, j, "false")
	})
	return model, stream, end >= 0 && jsonwalk.SkipWS(text, end) == len(text)
}

// responseBody reads the captured response body as harEntry.responseBody
// does; false when it cannot be unescaped exactly.
func (f *harFast) responseBody(ev *schema.Event, box *harBox) bool {
	text := f.e.text.text
	if len(text) == 0 {
		return true
	}
	mime, ok1 := f.text(f.e.mime)
	enc, ok2 := f.text(f.e.encoding)
	if !ok1 || !ok2 {
		return false
	}
	sse := bytes.Contains(mime, []byte("text/event-stream"))
	if !sse && (ev.Status == nil || *ev.Status >= 300) {
		return true // the general route reads the body only to drop what it read
	}
	ok := f.e.text.exact
	if !ok {
		return false
	}
	if string(enc) == "base64" {
		if text, ok = f.base64(text); !ok {
			return true
		}
	}
	if len(text) == 0 {
		return true
	}
	if sse {
		box.stream = true
		ev.Stream = &box.stream
		f.sse(ev, box, text)
		return true
	}
	if c := &f.chunkBuf; f.chunk(text, c) {
		f.apply(ev, box, c)
	} else {
		var s harChunk
		if json.Unmarshal(text, &s) != nil {
			return true
		}
		s.apply(ev)
	}
	box.completed = true
	ev.Completed = &box.completed
	return true
}

// base64 decodes text into f.b64 as base64.StdEncoding.DecodeString does;
// false when it fails.
func (f *harFast) base64(text []byte) ([]byte, bool) {
	if n := base64.StdEncoding.DecodedLen(len(text)); cap(f.b64) < n {
		f.b64 = make([]byte, n)
	}
	n, err := base64.StdEncoding.Decode(f.b64[:cap(f.b64)], text)
	return f.b64[:n], err == nil
}

// sse counts the output chunks of an SSE body and looks for its end, as
// harSSE does.
func (f *harFast) sse(ev *schema.Event, box *harBox, text []byte) {
	var chunks int64
	done := false
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		payload, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:"))
		if !ok {
			continue
		}
		content, finished := f.sseEvent(ev, box, bytes.TrimSpace(payload))
		if content {
			chunks++
		}
		done = done || finished
	}
	if ev.OutputTokens == nil && chunks > 0 {
		box.output = chunks
		ev.OutputTokens, ev.OutputTokensSource = &box.output, schema.TokensCounted
	}
	box.completed = done && ev.Error == schema.ErrorNone
	ev.Completed = &box.completed
	if !done && ev.Error == schema.ErrorNone {
		ev.Error = schema.ErrorInterrupted
	}
}

// sseEvent reads the payload of one data: line onto ev and reports whether
// it carried output and whether it ends the response.
func (f *harFast) sseEvent(ev *schema.Event, box *harBox, payload []byte) (content, finished bool) {
	if string(payload) == "[DONE]" {
		return false, true
	}
	if c := &f.chunkBuf; f.chunk(payload, c) {
		f.apply(ev, box, c)
		return c.content, c.finished
	}
	var g harChunk
	if json.Unmarshal(payload, &g) != nil {
		return false, false
	}
	g.apply(ev)
	return g.content(), g.finished()
}

// apply records ids, model and usage tokens of c on ev as harChunk.apply
// does.
func (f *harFast) apply(ev *schema.Event, box *harBox, c *harFastChunk) {
	for i := range c.env {
		e := &c.env[i]
		if !e.set {
			continue
		}
		if ev.ResponseID == "" && len(e.id) > 0 {
			ev.ResponseID = string(e.id)
		}
		if ev.Model == "" && len(e.model) > 0 {
			ev.Model = f.intern(e.model)
		}
		if p, ok := e.usage.first(0, 2); ok {
			box.prompt = p
			ev.PromptTokens, ev.PromptTokensSource = &box.prompt, schema.TokensUsage
		}
		if o, ok := e.usage.first(1, 3); ok {
			box.output = o
			ev.OutputTokens, ev.OutputTokensSource = &box.output, schema.TokensUsage
		}
	}
	if c.hasGenerated {
		box.output = c.generated
		ev.OutputTokens, ev.OutputTokensSource = &box.output, schema.TokensUsage
	}
}
