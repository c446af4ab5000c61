// Package vllmbench reads the result file of vllm bench serve: the decoder is Format,
// whose doc says which instant each field marks.
package vllmbench

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes the result file of `vllm bench serve --save-result
// --save-detailed` (vllm/benchmarks/serve.py, formerly
// benchmarks/benchmark_serving.py): one JSON object with run-level keys
// ("date", "backend", "endpoint_type", "label", "model_id", "num_prompts",
// "request_throughput", "mean_ttft_ms", …) and, with --save-detailed, one list
// per request field, index i being request i:
//
//	start_times[i]  time.perf_counter() in seconds when the request was sent      → start
//	ttfts[i]        seconds from start to the first chunk carrying "choices"      → first_token = start + ttft
//	itls[i]         seconds between consecutive such chunks (one list per request) → chunk offsets: ttft, ttft+itl[0], …
//	latencies[i]    seconds from start to vLLM's last clock reading (newer vLLM)   → end = last_token = start + latency
//	input_lens[i]   prompt tokens (the server's usage.prompt_tokens when sent)    → PromptTokens
//	output_lens[i]  output tokens: usage.completion_tokens, else the client's
//	                tokenizer count of the text; 0 for a failed request           → OutputTokens
//	errors[i]       "" on success, else the HTTP reason phrase or a Python traceback
//	generated_texts never read, never stored
//
// perf_counter has an arbitrary origin, so start times are rebased to the
// earliest one in the file and Clock is schema.ClockRelative: such events
// never join with other sources, but their durations are sound. Without
// start_times (older vLLM) every start is 0. Without latencies, end is the
// last chunk (start + ttft + Σ itl). vLLM never times [DONE]; its
// completions backend stops its clock at the last chunk carrying choices,
// but its chat backend (async_request_openai_chat_completions, in
// benchmarks/backend_request_func.py and vllm/benchmarks/lib/
// endpoint_request_func.py) moved the clock on every other message too, the
// usage-only chunk included, until recent versions ("Only token chunks
// advance the request end"), so latency can end after the last chunk of
// itls. last_token is set to the recorded end either way. For chat backends vLLM's first chunk may be the role-only one:
// its ttft is kept as vLLM measured it. Token provenance is "usage" for the
// OpenAI-style backends, which request stream usage, else "counted"; a
// request whose server sent no usage is counted by vLLM either way, which
// the file does not record.
//
// A failed request (non-empty errors[i]) keeps its start and prompt tokens;
// its class and status come from the error text (an HTTP reason phrase such
// as "Too Many Requests" → 429 rate_limited; "TimeoutError" → timeout;
// "ServerDisconnectedError", "ClientPayloadError" → interrupted; anything else
// server_error); the text itself is not stored. Each request is one record,
// its line number i+1, and a request's reject has no column (decode.Pos.Col
// 0: the number is an index). A document encoding/json refuses is rejected
// at the line and column of the byte it refused (for a value of the wrong
// type, the byte just past that value; the document's end when it ends
// early). The document is read whole and walked in place
// (vllmbench_read.go; a document encoding/json would refuse is rejected in
// its words), texts skipped;
// Python's NaN and Infinity are read as null. A file without per-request
// lists is one skip.
type Format struct{}

func (Format) Name() string   { return "vllm-bench" }
func (Format) Source() string { return schema.SourceClient }
func (Format) Describe() string {
	return "vllm bench serve --save-detailed JSON: per-request ttft, itl chunks, latency, token counts on a relative clock (never joined)"
}

func (Format) Sniff(head []byte) bool {
	head = bytes.TrimSpace(head)
	has := func(k string) bool { return bytes.Contains(head, []byte(`"`+k+`"`)) }
	return bytes.HasPrefix(head, []byte("{")) && has("model_id") &&
		(has("backend") || has("endpoint_type")) &&
		(has("num_prompts") || has("request_throughput") || has("ttfts"))
}

// vbenchDoc holds the keys of the result file that the decoder uses.
type vbenchDoc struct {
	ModelID      string           `json:"model_id"`
	Backend      string           `json:"backend"`
	EndpointType string           `json:"endpoint_type"`
	Label        *string          `json:"label"`
	StartTimes   []*json.Number   `json:"start_times"`
	TTFTs        []*json.Number   `json:"ttfts"`
	ITLs         [][]*json.Number `json:"itls"`
	Latencies    []*json.Number   `json:"latencies"`
	InputLens    []*json.Number   `json:"input_lens"`
	OutputLens   []*json.Number   `json:"output_lens"`
	Errors       []*string        `json:"errors"`
}

func (v Format) Decode(in *decode.Input, sink decode.Sink) error {
	data, err := decode.ReadAllSized(in.R, in.Size)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	data = vbenchNullNonFinite(data)
	var f vbenchReader
	if !f.read(data) {
		vbenchRefuse(sink, data)
		return nil
	}
	f.emit(in, sink)
	return nil
}

// vbenchRefuse rejects a document vbenchReader.read refused, in the words of
// encoding/json decoding it into vbenchDoc (a syntax error, or the first
// value of the wrong type). The one case encoding/json takes and read does
// not, a number written as a string with escapes ("1\u002e5"), is worded here.
func vbenchRefuse(sink decode.Sink, data []byte) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		sink.Skip(1, "no per-request lists (saved without --save-detailed)")
		return
	}
	detail := "a number written as a string with escapes"
	at := decode.At(1)
	if err := json.Unmarshal(data, new(vbenchDoc)); err != nil {
		detail = err.Error()
		at = decode.JSONErrorAt(1, 1, data, err)
	}
	sink.Reject(at, "invalid json", decode.TruncateDetail(detail))
}

// vbenchOrigin returns the earliest of the n start times start(i) (number
// texts, nil for null) in ns (0 when there is none), the origin the
// relative clock is rebased to.
func vbenchOrigin(n int, start func(i int) []byte) int64 {
	origin, any := int64(0), false
	for i := range n {
		s := start(i)
		if s == nil {
			continue
		}
		if v, ok := vbenchNs(s); ok && (!any || v < origin) {
			origin, any = v, true
		}
	}
	return origin
}

// vbenchTokenSource is the token provenance of a backend: the OpenAI-style
// request functions ask for stream usage.
func vbenchTokenSource(backend string) string {
	switch backend {
	case "vllm", "openai", "openai-chat", "openai-audio", "sglang", "lmdeploy", "llama.cpp":
		return schema.TokensUsage
	}
	return schema.TokensCounted
}

// vbenchReasons maps an HTTP reason phrase ("Too Many Requests") to its
// status.
var vbenchReasons = func() map[string]int {
	m := map[string]int{}
	for code := 400; code < 600; code++ {
		if t := http.StatusText(code); t != "" {
			m[strings.ToLower(t)] = code
		}
	}
	return m
}()

// vbenchErrorClass classifies the error text of a failed request; the status
// is set when the text is an HTTP reason phrase.
func vbenchErrorClass(text string) (string, *int32) {
	if code, ok := vbenchReasons[strings.ToLower(strings.TrimSpace(text))]; ok {
		return decode.ErrorClass(code), decode.Ptr(int32(code))
	}
	switch {
	case strings.Contains(text, "TimeoutError"), strings.Contains(text, "ServerTimeoutError"):
		return schema.ErrorTimeout, nil
	case strings.Contains(text, "ServerDisconnectedError"), strings.Contains(text, "ClientPayloadError"),
		strings.Contains(text, "TransferEncodingError"), strings.Contains(text, "ContentLengthError"):
		return schema.ErrorInterrupted, nil
	}
	return schema.ErrorServer, nil
}

// vbenchNullNonFinite replaces the NaN, Infinity and -Infinity tokens that
// Python's json module writes outside strings with null.
func vbenchNullNonFinite(data []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	out := make([]byte, 0, len(data))
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString:
			if c == '\\' && i+1 < len(data) {
				out = append(out, c, data[i+1])
				i++
				continue
			}
			inString = c != '"'
		case c == '"':
			inString = true
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			out, i = append(out, "null"...), i+2
			continue
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			out, i = append(out, "null"...), i+8
			continue
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			out, i = append(out, "null"...), i+7
			continue
		}
		out = append(out, c)
	}
	return out
}

// vbenchRaw appends to dst the canonical text of request i (its index and
// timings), the bytes the driver compares to recognize a repeated record.
func vbenchRaw(dst []byte, i int, req *vbenchReq) []byte {
	dst = strconv.AppendInt(dst, int64(i), 10)
	for _, v := range [...][]byte{req.start, req.ttft, req.latency, req.input, req.output} {
		dst = append(dst, ' ')
		dst = append(dst, v...)
	}
	return dst
}
