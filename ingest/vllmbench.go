package ingest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// vllmBench decodes the result file of `vllm bench serve --save-result
// --save-detailed` (vllm/benchmarks/serve.py, formerly
// benchmarks/benchmark_serving.py): one JSON object with run-level keys
// ("date", "backend", "endpoint_type", "label", "model_id", "num_prompts",
// "request_throughput", "mean_ttft_ms", …) and, with --save-detailed, one list
// per request field, index i being request i:
//
//	start_times[i]  time.perf_counter() in seconds when the request was sent      → start
//	ttfts[i]        seconds from start to the first chunk carrying "choices"      → first_token = start + ttft
//	itls[i]         seconds between consecutive such chunks (one list per request) → chunk offsets: ttft, ttft+itl[0], …
//	latencies[i]    seconds from start to the last such chunk (newer vLLM)         → end = last_token = start + latency
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
// last chunk (start + ttft + Σ itl, which is how vLLM computes latency). vLLM
// stops its clock at the last token chunk, not at [DONE], so end equals
// last_token. For chat backends vLLM's first chunk may be the role-only one:
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
// its line number i+1. The document is read whole (lists are decoded into
// typed slices, texts are skipped); Python's NaN and Infinity are read as
// null. A file without per-request lists is one skip.
type vllmBench struct{}

func (vllmBench) Name() string   { return "vllm-bench" }
func (vllmBench) Source() string { return schema.SourceClient }
func (vllmBench) Describe() string {
	return "vllm bench serve --save-detailed JSON: per-request ttft, itl chunks, latency, token counts on a relative clock (never joined)"
}

func (vllmBench) Sniff(head []byte) bool {
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

func (v vllmBench) Decode(in *Input, sink Sink) error {
	data, err := io.ReadAll(in.R)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	var doc vbenchDoc
	if err := json.Unmarshal(vbenchNullNonFinite(data), &doc); err != nil {
		sink.Reject(1, "invalid json", truncateDetail(err.Error()))
		return nil
	}
	n := max(len(doc.StartTimes), len(doc.TTFTs), len(doc.ITLs), len(doc.Latencies),
		len(doc.InputLens), len(doc.OutputLens), len(doc.Errors))
	if n == 0 {
		sink.Skip(1, "no per-request lists (saved without --save-detailed)")
		return nil
	}
	origin := vbenchOrigin(doc.StartTimes)
	for i := range n {
		line := int64(i + 1)
		ev, reason, detail := v.request(in, &doc, i, origin)
		if reason != "" {
			sink.Reject(line, reason, detail)
			continue
		}
		ev.InputLine = line
		sink.Event(line, vbenchRaw(&doc, i), ev)
	}
	return nil
}

// request builds the event of request i; it returns a reject reason and
// detail when one of its values is missing or not a number.
func (vllmBench) request(in *Input, doc *vbenchDoc, i int, origin int64) (*schema.Event, string, string) {
	backend := cmp.Or(doc.Backend, doc.EndpointType)
	ev := &schema.Event{
		Source: schema.SourceClient, Format: "vllm-bench", Host: in.Host, Clock: schema.ClockRelative,
		Model: doc.ModelID, InputFile: in.Name, Attrs: map[string]string{"request_index": strconv.Itoa(i)},
	}
	if backend != "" {
		ev.Attrs["backend"] = backend
	}
	if doc.Label != nil && *doc.Label != "" {
		ev.Attrs["label"] = *doc.Label
	}
	if doc.ITLs != nil {
		ev.Stream = ptr(true)
	}
	start := int64(0)
	if s := vbenchAt(doc.StartTimes, i); s != nil {
		ns, ok := scaledDecimalToNs(s.String(), 1e9)
		if !ok {
			return nil, "bad number", "start_times: " + truncateDetail(s.String())
		}
		start = ns - origin
	}
	ev.StartNs = ptr(start)
	if p := vbenchAt(doc.InputLens, i); p != nil {
		n, err := p.Int64()
		if err != nil || n < 0 {
			return nil, "bad token count", "input_lens: " + truncateDetail(p.String())
		}
		ev.PromptTokens, ev.PromptTokensSource = ptr(n), vbenchTokenSource(backend)
	}
	if e := vbenchAt(doc.Errors, i); e != nil && *e != "" {
		ev.Completed, ev.PromptTokensSource = ptr(false), schema.TokensCounted
		ev.Error, ev.Status = vbenchErrorClass(*e)
		return ev, "", ""
	}
	if reason, detail := vbenchTimes(ev, doc, i, start); reason != "" {
		return nil, reason, detail
	}
	if p := vbenchAt(doc.OutputLens, i); p != nil {
		n, err := p.Int64()
		if err != nil || n < 0 {
			return nil, "bad token count", "output_lens: " + truncateDetail(p.String())
		}
		ev.OutputTokens, ev.OutputTokensSource = ptr(n), vbenchTokenSource(backend)
	}
	ev.Status, ev.Completed = ptr(int32(200)), ptr(true)
	return ev, "", ""
}

// vbenchTimes sets the first token, chunk offsets, last token and end of a
// successful request i that started at start (ns on the relative clock).
func vbenchTimes(ev *schema.Event, doc *vbenchDoc, i int, start int64) (string, string) {
	t := vbenchAt(doc.TTFTs, i)
	if t == nil {
		return "missing ttft", "ttfts[" + strconv.Itoa(i) + "]"
	}
	ttft, ok := scaledDecimalToNs(t.String(), 1e9)
	if !ok || ttft < 0 {
		return "bad number", "ttfts: " + truncateDetail(t.String())
	}
	offsets := []int64{ttft}
	var itls []*json.Number
	if i < len(doc.ITLs) {
		itls = doc.ITLs[i]
	}
	for _, g := range itls {
		if g == nil {
			return "bad number", "itls: null"
		}
		ns, ok := scaledDecimalToNs(g.String(), 1e9)
		if !ok || ns < 0 {
			return "bad number", "itls: " + truncateDetail(g.String())
		}
		offsets = append(offsets, offsets[len(offsets)-1]+ns)
	}
	last := offsets[len(offsets)-1]
	ev.FirstTokenNs, ev.LastTokenNs, ev.EndNs = ptr(start+ttft), ptr(start+last), ptr(start+last)
	ev.ChunkOffsetsNs = offsets
	if l := vbenchAt(doc.Latencies, i); l != nil {
		lat, ok := scaledDecimalToNs(l.String(), 1e9)
		if !ok || lat < 0 {
			return "bad number", "latencies: " + truncateDetail(l.String())
		}
		ev.LastTokenNs, ev.EndNs = ptr(start+lat), ptr(start+lat)
	}
	return "", ""
}

// vbenchOrigin returns the earliest start time in ns (0 when there is none),
// the origin the relative clock is rebased to.
func vbenchOrigin(starts []*json.Number) int64 {
	var ns []int64
	for _, s := range starts {
		if s == nil {
			continue
		}
		if v, ok := scaledDecimalToNs(s.String(), 1e9); ok {
			ns = append(ns, v)
		}
	}
	if len(ns) == 0 {
		return 0
	}
	return slices.Min(ns)
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
		return ErrorClass(code), ptr(int32(code))
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

// vbenchRaw is the canonical text of request i (its index and timings), the
// bytes the driver compares to recognize a repeated record.
func vbenchRaw(doc *vbenchDoc, i int) []byte {
	var b bytes.Buffer
	b.WriteString(strconv.Itoa(i))
	for _, l := range [][]*json.Number{doc.StartTimes, doc.TTFTs, doc.Latencies, doc.InputLens, doc.OutputLens} {
		b.WriteByte(' ')
		if p := vbenchAt(l, i); p != nil {
			b.WriteString(p.String())
		}
	}
	return b.Bytes()
}

// vbenchAt returns s[i], or the zero value when i is out of range.
func vbenchAt[T any](s []T, i int) T {
	var zero T
	if i < 0 || i >= len(s) {
		return zero
	}
	return s[i]
}
