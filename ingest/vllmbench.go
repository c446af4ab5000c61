package ingest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
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
	data = vbenchNullNonFinite(data)
	var f vbenchFast
	if f.read(data) {
		f.emit(in, sink)
		return nil
	}
	return v.decodeGeneral(in, sink, data)
}

// decodeGeneral decodes the document with encoding/json: the route for
// anything the fast path does not read.
func (vllmBench) decodeGeneral(in *Input, sink Sink, data []byte) error {
	var doc vbenchDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		sink.Reject(1, "invalid json", truncateDetail(err.Error()))
		return nil
	}
	n := max(len(doc.StartTimes), len(doc.TTFTs), len(doc.ITLs), len(doc.Latencies),
		len(doc.InputLens), len(doc.OutputLens), len(doc.Errors))
	if n == 0 {
		sink.Skip(1, "no per-request lists (saved without --save-detailed)")
		return nil
	}
	var starts [][]byte
	for _, s := range doc.StartTimes {
		starts = append(starts, vbenchText(s))
	}
	run := vbenchRun{model: doc.ModelID, backend: cmp.Or(doc.Backend, doc.EndpointType),
		stream: doc.ITLs != nil, origin: vbenchOrigin(starts)}
	if doc.Label != nil {
		run.label = *doc.Label
	}
	var req vbenchReq
	var raw []byte
	for i := range n {
		req = vbenchReq{start: vbenchText(vbenchAt(doc.StartTimes, i)), ttft: vbenchText(vbenchAt(doc.TTFTs, i)),
			latency: vbenchText(vbenchAt(doc.Latencies, i)), input: vbenchText(vbenchAt(doc.InputLens, i)),
			output: vbenchText(vbenchAt(doc.OutputLens, i)), itls: req.itls[:0]}
		for _, g := range vbenchAt(doc.ITLs, i) {
			req.itls = append(req.itls, vbenchText(g))
		}
		if e := vbenchAt(doc.Errors, i); e != nil {
			req.err = *e
		}
		raw = run.emit(in, sink, i, &req, raw)
	}
	return nil
}

// vbenchText is the text of a number, nil for null.
func vbenchText(n *json.Number) []byte {
	if n == nil {
		return nil
	}
	return []byte(n.String())
}

// vbenchRun holds the run-level values every request's event carries, and
// the scratch its events are built in.
type vbenchRun struct {
	model, backend, label string
	stream                bool  // the document has itls
	origin                int64 // the earliest start time (ns)
	ev                    schema.Event
	vals                  []vbenchVals // slab the events' pointer fields point into
	offs                  []int64      // slab the events' chunk offsets are cut from
}

// vbenchVals holds the values an event points to, so that one event's
// pointer fields take one allocation (amortized over a slab) instead of
// one each.
type vbenchVals struct {
	start, first, last, end, prompt, output int64
	status                                  int32
	stream, completed                       bool
}

// newVals returns zeroed values for one event, cut from the slab.
func (r *vbenchRun) newVals() *vbenchVals {
	if len(r.vals) == 0 {
		r.vals = make([]vbenchVals, 256)
	}
	v := &r.vals[0]
	r.vals = r.vals[1:]
	return v
}

// newOffsets returns a slice of n offsets for one event, cut from the slab.
func (r *vbenchRun) newOffsets(n int) []int64 {
	if len(r.offs) < n {
		r.offs = make([]int64, max(4096, n))
	}
	o := r.offs[:n:n]
	r.offs = r.offs[n:]
	return o
}

// vbenchReq holds the values of one request as number texts (nil: missing
// or null); both routes fill it and run.emit builds the event from it.
type vbenchReq struct {
	start, ttft, latency, input, output []byte
	itls                                [][]byte // nil element: null
	err                                 string   // the error text, "" on success
}

// emit reports request i: its event, or a reject when one of its values is
// missing or not a number. raw is scratch for the record's canonical text.
func (r *vbenchRun) emit(in *Input, sink Sink, i int, req *vbenchReq, raw []byte) []byte {
	line := int64(i + 1)
	ev, reason, detail := r.request(in, req, i)
	if reason != "" {
		sink.Reject(line, reason, detail)
		return raw
	}
	ev.InputLine = line
	raw = vbenchRaw(raw[:0], i, req)
	sink.Event(line, raw, ev)
	return raw
}

// request builds the event of request i; it returns a reject reason and
// detail when one of its values is missing or not a number.
func (r *vbenchRun) request(in *Input, req *vbenchReq, i int) (*schema.Event, string, string) {
	var start int64
	if req.start != nil {
		ns, ok := vbenchNs(req.start)
		if !ok {
			return nil, "bad number", "start_times: " + truncateDetail(string(req.start))
		}
		start = ns - r.origin
	}
	var prompt int64
	if req.input != nil {
		n, ok := vbenchCount(req.input)
		if !ok {
			return nil, "bad token count", "input_lens: " + truncateDetail(string(req.input))
		}
		prompt = n
	}
	ev, v := &r.ev, r.newVals()
	*ev = schema.Event{
		Source: schema.SourceClient, Format: "vllm-bench", Host: in.Host, Clock: schema.ClockRelative,
		Model: r.model, InputFile: in.Name, Attrs: r.attrs(i),
	}
	if r.stream {
		v.stream, ev.Stream = true, &v.stream
	}
	v.start, ev.StartNs = start, &v.start
	if req.input != nil {
		v.prompt, ev.PromptTokens, ev.PromptTokensSource = prompt, &v.prompt, vbenchTokenSource(r.backend)
	}
	if req.err != "" {
		ev.Completed, ev.PromptTokensSource = &v.completed, schema.TokensCounted
		ev.Error, ev.Status = vbenchErrorClass(req.err)
		return ev, "", ""
	}
	if reason, detail := r.times(ev, v, req, i); reason != "" {
		return nil, reason, detail
	}
	if req.output != nil {
		n, ok := vbenchCount(req.output)
		if !ok {
			return nil, "bad token count", "output_lens: " + truncateDetail(string(req.output))
		}
		v.output, ev.OutputTokens, ev.OutputTokensSource = n, &v.output, vbenchTokenSource(r.backend)
	}
	v.status, v.completed = 200, true
	ev.Status, ev.Completed = &v.status, &v.completed
	return ev, "", ""
}

// attrs returns the attributes of request i's event.
func (r *vbenchRun) attrs(i int) map[string]string {
	m := make(map[string]string, 3)
	m["request_index"] = strconv.Itoa(i)
	if r.backend != "" {
		m["backend"] = r.backend
	}
	if r.label != "" {
		m["label"] = r.label
	}
	return m
}

// times sets the first token, chunk offsets, last token and end of a
// successful request i that started at v.start (ns on the relative clock).
func (r *vbenchRun) times(ev *schema.Event, v *vbenchVals, req *vbenchReq, i int) (string, string) {
	if req.ttft == nil {
		return "missing ttft", "ttfts[" + strconv.Itoa(i) + "]"
	}
	ttft, ok := vbenchNs(req.ttft)
	if !ok || ttft < 0 {
		return "bad number", "ttfts: " + truncateDetail(string(req.ttft))
	}
	offsets := r.newOffsets(1 + len(req.itls)) // a rejected request's are left unused
	offsets[0] = ttft
	for k, g := range req.itls {
		if g == nil {
			return "bad number", "itls: null"
		}
		ns, ok := vbenchNs(g)
		if !ok || ns < 0 {
			return "bad number", "itls: " + truncateDetail(string(g))
		}
		offsets[k+1] = offsets[k] + ns
	}
	last := offsets[len(offsets)-1]
	if req.latency != nil {
		lat, ok := vbenchNs(req.latency)
		if !ok || lat < 0 {
			return "bad number", "latencies: " + truncateDetail(string(req.latency))
		}
		last = lat
	}
	v.first, v.last, v.end = v.start+ttft, v.start+last, v.start+last
	ev.FirstTokenNs, ev.LastTokenNs, ev.EndNs = &v.first, &v.last, &v.end
	ev.ChunkOffsetsNs = offsets
	return "", ""
}

// vbenchNs converts a number text in seconds to ns as scaledDecimalToNs
// does: the usual shape -?(0|[1-9][0-9]{0,8})(\.[0-9]+)? is read in place,
// rounding half away from zero at the tenth fraction digit; anything else
// goes to scaledDecimalBytesNs.
func vbenchNs(b []byte) (int64, bool) {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i = 1
	}
	var sec, frac int64
	j := i
	for ; j < len(b) && j-i <= 9 && b[j] >= '0' && b[j] <= '9'; j++ {
		sec = sec*10 + int64(b[j]-'0')
	}
	if j == i || j-i > 9 || j-i > 1 && b[i] == '0' || len(b) > 64 {
		return vbenchNsSlow(b)
	}
	if j < len(b) {
		if b[j] != '.' || j+1 == len(b) {
			return vbenchNsSlow(b)
		}
		scale := int64(1e9)
		for k := j + 1; k < len(b); k++ {
			c := b[k]
			switch {
			case c < '0' || c > '9':
				return vbenchNsSlow(b)
			case k-j <= 9:
				scale /= 10
				frac += int64(c-'0') * scale
			case k-j == 10 && c >= '5':
				frac++
			}
		}
	}
	v := sec*1e9 + frac
	if i == 1 {
		v = -v
	}
	return v, true
}

// vbenchNsSlow is vbenchNs for the other shapes.
func vbenchNsSlow(b []byte) (int64, bool) {
	if len(b) > 64 { // scaledDecimalToNs's limit, which scaledDecimalBytesNs does not apply
		return scaledDecimalToNs(string(b), 1e9)
	}
	return scaledDecimalBytesNs(b, 1e9)
}

// vbenchCount reads a token count as json.Number.Int64 does; ok is false
// for a count that is not a non-negative int64.
func vbenchCount(b []byte) (int64, bool) {
	if v, end, ok := jsonStrictInt(b, 0); ok && end == len(b) {
		return v, v >= 0
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	return v, err == nil && v >= 0
}

// vbenchOrigin returns the earliest start time in ns (0 when there is none),
// the origin the relative clock is rebased to.
func vbenchOrigin(starts [][]byte) int64 {
	origin, any := int64(0), false
	for _, s := range starts {
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

// vbenchAt returns s[i], or the zero value when i is out of range.
func vbenchAt[T any](s []T, i int) T {
	var zero T
	if i < 0 || i >= len(s) {
		return zero
	}
	return s[i]
}
