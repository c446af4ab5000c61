// Package har reads HTTP Archive 1.2 files: the decoder is Format,
// whose doc says which instant each field marks.
package har

import (
	"bytes"
	"encoding/json"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes HTTP Archive 1.2 files (client source): one record per
// log.entries[] element, kept only for LLM API paths. Fields and the instants
// they mark, from the HAR 1.2 specification (w3c-webperf "HTTP Archive (HAR)
// format", section "timings"):
//
//   - startedDateTime: ISO 8601 date with zone when the request started
//     (the first timing phase, blocked, begins) → start.
//   - timings, ms, -1 where a phase does not apply: blocked (queued), dns,
//     connect (includes ssl: ssl is already counted in connect), send, wait
//     (waiting for the first response byte), receive. The response headers
//     arrive at the end of wait: headers = start + blocked + dns + connect +
//     send + wait, summing the phases that are not -1 (nil when wait is -1
//     or there was no response).
//   - time: ms of the whole request, the sum of the phases → end = start +
//     time (or the sum of the phases when time is absent).
//   - response.status → status; 0 means no response was received
//     (interrupted).
//   - request headers x-request-id → RequestID, traceparent → TraceID;
//     response headers x-request-id (OpenAI's req_…), request-id
//     (Anthropic), x-litellm-call-id → RequestID when none, else OtherIDs.
//   - request body (JSON): model and stream only.
//   - response.content.text (when the tool captured it): for an SSE body
//     (text/event-stream) the data: events are counted: content, reasoning
//     and tool-call chunks give counted output tokens (usage tokens when a
//     usage event carries them) and [DONE], a finish reason or a stop event
//     marks completion. HAR has no per-chunk times, so no first_token. For a
//     JSON body, id, model and usage. The text itself is never kept.
//
// Entries whose URL path does not end in an LLM API path (decode.Options.Endpoints,
// else /v1/chat/completions, /v1/completions, /chat/completions,
// /completions, /v1/responses, /generate, /generate_stream, /v1/messages)
// are skips.
//
// An input that is no HAR document is an error (decode.Error) at the line
// and column where the JSON decoder stopped reading it. A reject's column
// is its entry's '{'; in a damaged entries array, the byte encoding/json
// refuses (just past the input when it ends early).
type Format struct{}

func (Format) Name() string   { return "har" }
func (Format) Source() string { return schema.SourceClient }
func (Format) Describe() string {
	return "HAR 1.2 (browser/devtools/proxy capture): start, time to headers, end, status, ids, counted SSE chunks; no per-chunk times, so no TTFT"
}

// harDefaultEndpoints are the LLM API paths kept when decode.Options.Endpoints is nil.
var harDefaultEndpoints = []string{"/v1/chat/completions", "/v1/completions", "/chat/completions",
	"/completions", "/v1/responses", "/generate", "/generate_stream", "/v1/messages"}

// Sniff claims a JSON object whose first key is "log".
func (Format) Sniff(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	return bytes.HasPrefix(t, []byte(`"log"`))
}

// harEntry is the entry as encoding/json decodes it: the reader
// (har_entry.go) reads an entry's bytes as encoding/json decodes them into
// this struct, and an entry it refuses (a value of a wrong type) is
// rejected in the words of json.Unmarshal into it (reader.refuse).
type harEntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            json.Number `json:"time"`
	Request         struct {
		URL      string      `json:"url"`
		Method   string      `json:"method"`
		Headers  []harHeader `json:"headers"`
		PostData *struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int         `json:"status"`
		Headers []harHeader `json:"headers"`
		Content struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
	Timings map[string]json.Number `json:"timings"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// harEndpoints returns the LLM API paths an input keeps.
func harEndpoints(in *decode.Input) []string {
	if in.Opts.Endpoints == nil {
		return harDefaultEndpoints
	}
	return in.Opts.Endpoints
}
