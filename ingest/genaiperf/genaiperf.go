// Package genaiperf reads the GenAI-Perf / perf_analyzer profile export: the decoder is Format,
// whose doc says which instant each field marks.
package genaiperf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	gojson "github.com/goccy/go-json"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/schema"
)

// Format is the profile export of GenAI-Perf / perf_analyzer
// (profile_export.json): one JSON document
//
//	{"experiments": [{"experiment": {"mode": "concurrency", "value": 10},
//	                  "requests": [REQUEST, …], "window_boundaries": […]}, …],
//	 "version": "…", "service_kind": "openai", "endpoint": "v1/chat/completions"}
//
// where each REQUEST is
//
//	{"timestamp": NS, "sequence_id": N (optional), "request_inputs": {"payload": "<request JSON>"},
//	 "response_timestamps": [NS, …], "response_outputs": [{"response": "<raw body bytes>"}, …]}
//
// All timestamps are perf_analyzer's std::chrono::system_clock read as
// nanoseconds since the Unix epoch: the client host's wall clock.
// "timestamp" is the instant the request was sent → StartNs; each entry of
// "response_timestamps" is the instant one read of the response body
// returned, and the matching "response_outputs" entry holds the bytes read
// then (raw SSE text for streams, which may hold several events or half of
// one; the whole JSON body for a non-streamed response). The other layouts
// GenAI-Perf writes: Triton exports carry {"text_output": "…"} outputs;
// TensorRT-LLM engine exports (service_kind "triton_c_api") carry
// {"output_ids": ID or [ID, …]}, one response per token batch; HuggingFace
// generate responses are whole bodies [{"generated_text": "…"}]; session
// exports add request_inputs.session_id (not read) to any of them.
//
// Each request becomes one client event:
//   - chunks: a response holding at least one SSE event whose choice has a
//     non-empty delta content, reasoning_content/reasoning or tool_calls (or
//     completions text) is a token chunk arriving at that response's
//     timestamp; ChunkTokens counts such events in it (one token per event,
//     which is how vLLM, SGLang and TGI stream). Role-only, usage-only and
//     [DONE] events are not tokens. A non-streamed body has no token times.
//     A Triton text_output, a generate body with text, and an engine
//     response with ids are chunks too, the engine's of as many tokens as
//     ids (a null output_ids, an empty first or last response, is none).
//   - FirstTokenNs/LastTokenNs: the first/last token chunk; EndNs: the last
//     response; HeadersNs is not logged by perf_analyzer.
//   - tokens: usage.completion_tokens/prompt_tokens when a usage block was
//     sent (provenance usage), else the counted token events or ids.
//   - Completed: [DONE] or a finish_reason was seen, a whole non-streamed
//     chat.completion or text_completion body was read (finish_reason or
//     not), or a Triton, engine or generate response with output; and no
//     error. An error
//     object in a response gives the error class (its numeric code as an HTTP
//     status, else its type); a stream cut before its end is interrupted; a
//     request with no response at all is server_error. A request whose
//     outputs are in none of these layouts is rejected ("unknown response
//     layout"), as is a generate body that is not JSON; a document without
//     "experiments" (AIPerf's exports, say) is refused whole.
//   - ResponseID and Model come from the chunks (Model falls back to the
//     request payload's "model"); Stream from the payload's "stream", else
//     from the response shape; Endpoint from the top-level "endpoint"
//     wherever it stands, else from the object type of the responses.
//   - Attrs: "experiment" = "<mode>=<value>", e.g. "concurrency=10".
//
// The document is read with a token walk, one request object at a time, so
// its size does not bound memory. A request is read in place once it is in
// the buffer (genaiperf_request.go), in one pass when its keys come in
// perf_analyzer's order: its OpenAI responses are read as SSE lines in
// their escaped form (genaiperf_read_sse.go, genaiperf_esc*.go) and the
// other layouts' outputs decoded, all accounted for by gpStream. A key
// named twice in a request, its request_inputs or an output entry is
// rejected ("repeated key"). Keys may come in any order: a request read
// before the endpoint and its experiment are known is held as its event
// until they are (genaiperf_held.go); perf_analyzer writes "endpoint" last,
// so a document's events are held until its end. perf_analyzer writes the
// document on one line, so a request's "line" is its 1-based index in the
// document, and a reject has no column (decode.Pos.Col 0): the index is
// not a line to count bytes in. A document refused before its first
// request is a decode.Error at the line and byte column of the file where
// the value or delimiter that could not be read starts. No response text
// is kept: only counted.
type Format struct{}

func (Format) Name() string   { return "genai-perf" }
func (Format) Source() string { return schema.SourceClient }
func (Format) Describe() string {
	return "GenAI-Perf/perf_analyzer profile_export.json: send time, every response's arrival, SSE ids and usage (client wall clock; no header time)"
}

// Sniff claims a JSON object holding "experiments" with "requests" whose
// entries have one of perf_analyzer's request keys: in any key order, the
// first request's first key is in the head, whatever its size.
func (Format) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' || !jsonwalk.HasKey(head, "experiments") || !jsonwalk.HasKey(head, "requests") {
		return false
	}
	for _, key := range gpRequestKeys {
		if jsonwalk.HasKey(head, key) {
			return true
		}
	}
	return false
}

// errNoExperiments refuses a JSON document without "experiments", such as
// AIPerf's exports forced with --format genai-perf.
var errNoExperiments = errors.New(`not a genai-perf profile export: no "experiments" ` +
	`(AIPerf's per-request profile_export.jsonl is read by --format aiperf)`)

// errGPStop ends the walk after a reject that leaves the document unreadable.
var errGPStop = errors.New("genai-perf: stop")

// gpWalker walks the document, reading one request object at a time.
type gpWalker struct {
	sc       *gpScanner
	in       *decode.Input
	sink     decode.Sink
	quick    gpQuick // scratch for the one-pass reading
	index    int64   // requests seen so far
	endpoint string  // the top-level endpoint ("" when none was read)
	// experiments holds each experiment's "mode=value" ("" until read), the
	// one being read last.
	experiments []string
	// endpointKnown is set once the top-level endpoint was read or the
	// document ended; experimentKnown once the experiment being read told
	// its mode or ended. Requests are held until both are (genaiperf_held.go).
	endpointKnown, experimentKnown bool
	held                           []gpRecord
	// experimentsRead is set once the whole "experiments" array was read.
	experimentsRead bool
	// onePassRead counts the requests whose outputs were read in one pass,
	// escaped (genaiperf_request.go).
	onePassRead int64
}

// Decode reads the document; see Format.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	return (&gpWalker{sc: &gpScanner{r: in.R}, in: in, sink: sink}).decode()
}

// decode reads the document and reports its requests.
func (w *gpWalker) decode() error {
	err := w.document()
	w.endpointKnown, w.experimentKnown = true, true
	w.release()
	switch {
	case err == nil && !w.experimentsRead:
		return errNoExperiments
	case err == nil || errors.Is(err, errGPStop):
		return nil
	case w.index == 0:
		return &decode.Error{File: w.in.Name, Pos: w.sc.at(), Err: fmt.Errorf("not a genai-perf profile export: %w", err)}
	case w.experimentsRead:
		return nil // damage after the last request loses nothing
	}
	// The document broke between requests: what was read is kept, and the
	// break is reported once, as the record that could not be read.
	w.index++
	w.sink.Reject(decode.Pos{Line: w.index}, "invalid json", decode.TruncateDetail("document ends early: "+err.Error()))
	return nil
}

func (w *gpWalker) document() error {
	return w.object(func(key string) error {
		switch key {
		case "experiments":
			err := w.array(w.experimentEntry)
			w.experimentsRead = err == nil
			return err
		case "endpoint":
			v, err := w.sc.value()
			if err != nil {
				return err
			}
			var e string
			if json.Unmarshal(v, &e) == nil && e != "" {
				w.endpoint = "/" + strings.TrimPrefix(decode.EndpointPath(e), "/")
			}
			w.endpointKnown = true
			w.release()
			return nil
		}
		return w.skip()
	})
}

func (w *gpWalker) experimentEntry() error {
	w.experiments, w.experimentKnown = append(w.experiments, ""), false
	err := w.object(func(key string) error {
		switch key {
		case "experiment":
			raw, err := w.sc.value()
			if err != nil {
				return err
			}
			var e struct {
				Mode  string      `json:"mode"`
				Value json.Number `json:"value"`
			}
			if gojson.Unmarshal(raw, &e) == nil && e.Mode != "" {
				w.experiments[len(w.experiments)-1] = e.Mode + "=" + e.Value.String()
			}
			w.experimentKnown = true
			w.release()
			return nil
		case "requests":
			return w.array(w.request)
		}
		return w.skip()
	})
	w.experimentKnown = true
	w.release()
	return err
}

// request reads one request object and reports its event or reject.
func (w *gpWalker) request() error {
	w.index++
	ev, raw, reason, detail, ok := w.read()
	if !ok {
		_, err := w.sc.value() // not JSON, or the input ends inside it
		if err == nil {
			err = errors.New("unreadable request")
		}
		w.report(nil, nil, "invalid json", decode.TruncateDetail(err.Error()))
		return errGPStop
	}
	w.report(ev, raw, reason, decode.TruncateDetail(detail))
	return nil
}

// object reads a JSON object, calling member for each key with the scanner
// positioned at its value; member must consume the value.
func (w *gpWalker) object(member func(key string) error) error {
	if err := w.sc.delim('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := w.sc.more(first, '}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		key, err := w.sc.key()
		if err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
	}
	return w.sc.delim('}')
}

// array reads a JSON array, calling elem for each element.
func (w *gpWalker) array(elem func() error) error {
	if err := w.sc.delim('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := w.sc.more(first, ']')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if err := elem(); err != nil {
			return err
		}
	}
	return w.sc.delim(']')
}

// skip consumes one value of any kind without keeping it.
func (w *gpWalker) skip() error {
	_, err := w.sc.value()
	return err
}

// result finishes the stream after its last response and builds the event;
// responses is the number of response timestamps, payload the request JSON
// sent.
func (s *gpStream) result(responses int, payload string) *schema.Event {
	s.finish()
	ev := s.event(responses)
	gpPayload(ev, payload)
	return ev
}

// gpCheckTimes checks that the responses are timed, in order and after start.
func gpCheckTimes(outputs int, times []int64, start int64) (string, string) {
	if outputs > len(times) {
		return "bad response_timestamps", fmt.Sprintf("%d outputs, %d timestamps", outputs, len(times))
	}
	prev := start
	for _, ts := range times {
		if ts < prev {
			return "bad response_timestamps", fmt.Sprintf("%d before %d", ts, prev)
		}
		prev = ts
	}
	return "", ""
}

// gpPayload takes the model and stream flag from the request payload (the
// request JSON perf_analyzer sent), when it has them.
func gpPayload(ev *schema.Event, payload string) {
	if payload == "" {
		return
	}
	var p struct {
		Model  string `json:"model"`
		Stream *bool  `json:"stream"`
	}
	if gojson.Unmarshal([]byte(payload), &p) != nil {
		return
	}
	if ev.Model == "" {
		ev.Model = p.Model
	}
	if p.Stream != nil {
		ev.Stream = p.Stream
	}
}
