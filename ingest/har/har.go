// Package har reads HTTP Archive 1.2 files: the decoder is Format,
// whose doc says which instant each field marks.
package har

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
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

// harEntry holds the fields read from one entry.
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

// Decode reads the whole document and walks it by the fast path
// (har_fast.go), which hands what it does not reproduce exactly to the
// general route below.
func (h Format) Decode(in *decode.Input, sink decode.Sink) error {
	return h.decode(in, sink, true)
}

// decode reads the document by the fast path when fast is set, else by
// the general route alone.
func (h Format) decode(in *decode.Input, sink decode.Sink, fast bool) error {
	if !fast {
		return h.decodeGeneral(in, in.R, sink)
	}
	data, err := decode.ReadAllSized(in.R, in.Size)
	if err != nil {
		return h.decodeGeneral(in, io.MultiReader(bytes.NewReader(data), decode.ErrReader{Err: err}), sink)
	}
	f := harFast{in: in, sink: sink}
	if f.decode(data) {
		return nil
	}
	return h.decodeGeneral(in, bytes.NewReader(data), &harTail{Sink: sink, n: f.reported})
}

// decodeGeneral walks the document in r to log.entries with encoding/json
// and decodes each entry; the line of an entry is the line its object
// starts on.
func (h Format) decodeGeneral(in *decode.Input, r io.Reader, sink decode.Sink) error {
	li := &decode.LineIndex{R: r}
	dec := json.NewDecoder(li)
	dec.UseNumber()
	endpoints := harEndpoints(in)
	rec := func(line int64, raw []byte) {
		harRecord(in, sink, endpoints, line, raw)
	}
	found, err := harWalk(dec, []string{"log", "entries"}, func() error {
		return decode.JSONArrayElements(dec, li, sink, rec)
	})
	if err != nil && !found {
		return fmt.Errorf("har: not a HAR document: %v", err)
	}
	if err != nil {
		return err // a read error inside the entries
	}
	if !found {
		return errors.New("har: no log.entries array")
	}
	return nil
}

// harEndpoints returns the LLM API paths an input keeps.
func harEndpoints(in *decode.Input) []string {
	if in.Opts.Endpoints == nil {
		return harDefaultEndpoints
	}
	return in.Opts.Endpoints
}

// harRecord decodes one entry, raw, by encoding/json and reports it.
func harRecord(in *decode.Input, sink decode.Sink, endpoints []string, line int64, raw []byte) {
	var e harEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		sink.Reject(line, "invalid json", decode.TruncateDetail(err.Error()))
		return
	}
	ev, skip, reason, detail := e.event(endpoints)
	decode.Emit(in, sink, line, raw, decode.OnWallClock(ev, in, "har", schema.SourceClient), skip, reason, detail)
}

// harTail is a decode.Sink that drops the first n records reported to it: the
// general route's reports of the entries the fast path already reported.
type harTail struct {
	decode.Sink
	n int
}

func (t *harTail) drop() bool {
	if t.n > 0 {
		t.n--
		return true
	}
	return false
}

func (t *harTail) Event(line int64, raw []byte, ev *schema.Event) {
	if !t.drop() {
		t.Sink.Event(line, raw, ev)
	}
}

func (t *harTail) Skip(line int64, reason string) {
	if !t.drop() {
		t.Sink.Skip(line, reason)
	}
}

func (t *harTail) Reject(line int64, reason, detail string) {
	if !t.drop() {
		t.Sink.Reject(line, reason, detail)
	}
}

// harWalk descends through the objects named by path and calls at when the
// value of the last key (an array) has been opened. It reports whether it
// got there.
func harWalk(dec *json.Decoder, path []string, at func() error) (bool, error) {
	if tok, err := dec.Token(); err != nil {
		return false, err
	} else if d, ok := tok.(json.Delim); !ok || d != '{' && d != '[' || len(path) > 0 && d != '{' {
		return false, fmt.Errorf("unexpected %v", tok)
	}
	if len(path) == 0 {
		return true, at()
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false, err
		}
		if key, _ := tok.(string); key == path[0] {
			return harWalk(dec, path[1:], at)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false, err
		}
	}
	return false, errors.New("missing " + path[0])
}

// event builds the event of one entry, or a skip or reject reason.
func (e *harEntry) event(endpoints []string) (ev *schema.Event, skip, reason, detail string) {
	u, err := url.Parse(e.Request.URL)
	if err != nil {
		return nil, "", "bad url", e.Request.URL
	}
	if !harLLMPath(u.Path, endpoints) {
		return nil, "not an LLM endpoint", "", ""
	}
	start, err := textscan.ParseNs(time.RFC3339Nano, e.StartedDateTime, time.UTC)
	if err != nil {
		return nil, "", textscan.TimeReason(err, "bad timestamp"), e.StartedDateTime
	}
	ev = &schema.Event{StartNs: decode.Ptr(start), Endpoint: u.Path}
	if r, d := e.instants(ev, start); r != "" {
		return nil, "", r, d
	}
	e.ids(ev)
	e.requestBody(ev)
	if e.Response.Status > 0 {
		ev.Status = decode.Ptr(int32(e.Response.Status))
		ev.Error = decode.ErrorClass(e.Response.Status)
	} else {
		ev.Error, ev.Completed = schema.ErrorInterrupted, decode.Ptr(false)
	}
	e.responseBody(ev)
	return ev, "", "", ""
}

// harLLMPath reports whether path ends in one of the endpoints.
func harLLMPath(path string, endpoints []string) bool {
	for _, p := range endpoints {
		if p != "" && strings.HasSuffix(path, p) {
			return true
		}
	}
	return false
}

// instants sets headers and end from the timings.
func (e *harEntry) instants(ev *schema.Event, start int64) (string, string) {
	var sum, beforeHeaders int64
	for _, k := range []string{"blocked", "dns", "connect", "send", "wait", "receive"} {
		v, ok := e.Timings[k]
		if !ok {
			continue
		}
		ns, ok := textscan.DecimalScaled(v.String(), 6)
		if !ok || ns < -1e6 {
			return "bad timing", k + "=" + v.String()
		}
		if ns < 0 { // -1: does not apply
			continue
		}
		sum += ns
		if k != "receive" {
			beforeHeaders += ns
		}
	}
	if w, ok := textscan.DecimalScaled(e.Timings["wait"].String(), 6); ok && w >= 0 && e.Response.Status > 0 {
		ev.HeadersNs = decode.Ptr(start + beforeHeaders)
	}
	if e.Time != "" {
		total, ok := textscan.DecimalScaled(e.Time.String(), 6)
		if !ok || total < 0 {
			return "bad timing", "time=" + e.Time.String()
		}
		sum = total
	}
	ev.EndNs = decode.Ptr(start + sum)
	return "", ""
}

// ids reads the id headers of request and response.
func (e *harEntry) ids(ev *schema.Event) {
	for _, h := range e.Request.Headers {
		switch strings.ToLower(h.Name) {
		case "x-request-id":
			ev.RequestID = h.Value
		case "traceparent":
			ev.TraceID = decode.TraceIDFromTraceparent(h.Value)
		}
	}
	for _, h := range e.Response.Headers {
		switch strings.ToLower(h.Name) {
		case "x-request-id", "request-id", "x-litellm-call-id":
			if ev.RequestID == "" {
				ev.RequestID = h.Value
			} else if h.Value != ev.RequestID {
				ev.OtherIDs = append(ev.OtherIDs, h.Value)
			}
		}
	}
}

// requestBody reads model and stream from a JSON request body.
func (e *harEntry) requestBody(ev *schema.Event) {
	if e.Request.PostData == nil || e.Request.PostData.Text == "" {
		return
	}
	var body struct {
		Model  string `json:"model"`
		Stream *bool  `json:"stream"`
	}
	if json.Unmarshal([]byte(e.Request.PostData.Text), &body) == nil {
		ev.Model, ev.Stream = body.Model, body.Stream
	}
}

// responseBody reads a captured SSE or JSON response body.
func (e *harEntry) responseBody(ev *schema.Event) {
	c := e.Response.Content
	text := c.Text
	if c.Encoding == "base64" {
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return
		}
		text = string(b)
	}
	if text == "" {
		return
	}
	if strings.Contains(c.MimeType, "text/event-stream") {
		ev.Stream = decode.Ptr(true)
		harSSE(ev, text)
		return
	}
	var s harChunk
	if json.Unmarshal([]byte(text), &s) == nil && ev.Status != nil && *ev.Status < 300 {
		s.apply(ev)
		ev.Completed = decode.Ptr(true)
	}
}
