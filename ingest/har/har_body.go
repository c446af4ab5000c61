package har

import (
	"bytes"
	"encoding/base64"

	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// The captured bodies: the request body for model and stream, the
// response body for ids, model, usage, counted chunks and completion. Each
// is read as encoding/json decodes it (json.Unmarshal of the whole body,
// or of each SSE event): a body or event that is not one JSON value, or
// holds a value of the wrong type, gives nothing. The text is never kept.

// whole reports whether a walk of the value at b[i] that returned end read
// all of b, one JSON value with white space around it, as json.Unmarshal
// wants it.
func (r *reader) whole(b []byte, i, end int) bool {
	end = r.walked(b, i, end)
	return end >= 0 && jsonwalk.SkipWS(b, end) == len(b)
}

// bodyNames are the request body's keys read: model and stream.
var bodyNames = []string{"model", "stream"}

// requestBody reads model and stream from a JSON request body.
func (r *reader) requestBody(ev *schema.Event) {
	b := r.e.post
	if len(b) == 0 {
		return
	}
	var model []byte
	var stream *bool
	i := jsonwalk.SkipWS(b, 0)
	end := r.object(b, i, bodyNames, func(k, j int) int {
		switch {
		case k == 0:
			return r.str(b, j, &model)
		case b[j] == 'n':
			stream = nil
			return null(b, j)
		case b[j] == 't':
			stream = r.arena.Bool(true)
			return jsonwalk.WalkLiteral(b, j, "true")
		case b[j] == 'f':
			stream = r.arena.Bool(false)
			return jsonwalk.WalkLiteral(b, j, "false")
		}
		return -1
	})
	if r.whole(b, i, end) {
		ev.Model, ev.Stream = r.intern.Get(model), stream
	}
}

// responseBody reads a captured SSE or JSON response body (base64-decoded
// when so encoded).
func (r *reader) responseBody(ev *schema.Event) {
	text := r.e.text
	if string(r.e.encoding) == "base64" {
		if need := base64.StdEncoding.DecodedLen(len(text)); cap(r.b64) < need {
			r.b64 = make([]byte, need)
		}
		n, err := base64.StdEncoding.Decode(r.b64[:cap(r.b64)], text)
		if err != nil {
			return
		}
		text = r.b64[:n]
	}
	if len(text) == 0 {
		return
	}
	if bytes.Contains(r.e.mime, []byte("text/event-stream")) {
		ev.Stream = r.arena.Bool(true)
		r.sse(ev, text)
		return
	}
	if ev.Status != nil && *ev.Status < 300 && r.chunk(text) {
		r.apply(ev)
		ev.Completed = r.arena.Bool(true)
	}
}

// sse counts the output chunks of an SSE body (data: lines) and looks for
// its end: [DONE], a finish reason or a stop event.
func (r *reader) sse(ev *schema.Event, text []byte) {
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
		payload = bytes.TrimSpace(payload)
		if string(payload) == "[DONE]" {
			done = true
			continue
		}
		if !r.chunk(payload) {
			continue
		}
		r.apply(ev)
		if r.c.content() {
			chunks++
		}
		done = done || r.c.finished()
	}
	if ev.OutputTokens == nil && chunks > 0 {
		ev.OutputTokens, ev.OutputTokensSource = r.arena.Int64(chunks), schema.TokensCounted
	}
	ev.Completed = r.arena.Bool(done && ev.Error == schema.ErrorNone)
	if !done && ev.Error == schema.ErrorNone {
		ev.Error = schema.ErrorInterrupted
	}
}
