package genaiperf

import (
	"fmt"
	"strings"
	"testing"

	gojson "github.com/goccy/go-json"
)

// gpSlowFacts decodes data the way the struct path does; ok is false when
// it is not a JSON object of the chunk's shape.
func gpSlowFacts(data []byte) (gpFacts, bool) {
	var c gpChunk
	if gojson.Unmarshal(data, &c) != nil {
		return gpFacts{}, false
	}
	var f gpFacts
	f.fromChunk(&c)
	return f, true
}

// gpFactsString prints f with its byte slices as strings (nil and empty alike).
func gpFactsString(f gpFacts) string {
	return fmt.Sprintf("%q %q %q %+v", f.id, f.object, f.model,
		[]any{f.errorClass, f.usageIn, f.usageOut, f.hasIn, f.hasOut, f.token, f.finished})
}

// checkGpFactsMatchStructs decodes data as an SSE event by the in-place facts
// reader and by struct decoding; whenever the first takes the input, both
// must give the same facts.
func checkGpFactsMatchStructs(t *testing.T, data []byte) (chunkFast bool) {
	var f gpFacts
	var stack []byte
	if chunkFast = f.parse(data, &stack); chunkFast {
		want, ok := gpSlowFacts(data)
		if !ok || gpFactsString(f) != gpFactsString(want) {
			t.Fatalf("event %q:\nfast %+v\nslow %+v (decoded %v)", data, f, want, ok)
		}
	}
	return chunkFast
}

// gpFactsSeeds are request objects and SSE events of the shapes the fast
// path reads, and near misses it must hand to the struct path.
func gpFactsSeeds() []string {
	seeds := []string{
		gpReq(1e9, gpRead{1e9 + 1, gpRole}, gpRead{1e9 + 2, gpTok + gpTool}, gpRead{1e9 + 3, gpStopEv + gpUsage + gpDoneEv}),
		gpReq(1e9, gpRead{1e9 + 1, gpTextTok[:30]}, gpRead{1e9 + 2, gpTextTok[30:]}),
		`{"timestamp":100,"request_inputs":{"text_input":"hi"},"response_timestamps":[150,170],"response_outputs":[{"text_output":"I"},{"text_output":""}]}`,
		`{"timestamp":100,"Timestamp":5,"response_timestamps":[],"response_outputs":[]}`,
		`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"{\"id\":\"x\",\"choices\":[{\"message\":{\"content\":\"\\u00e9\"}}],\"usage\":{\"completion_tokens\":3}}"}]}`,
		`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: {\"error\":{\"code\":429}}\n\n"}]}`,
		`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: \ud83d\ude00\n\n"}]}`,
		`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"usage":null}`,
		`{"id":"c","choices":[{"delta":{"role":"assistant","content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":7}}`,
		`{"id":"c","choices":[{"text":" ","finish_reason":"length"}],"ID":"d"}`,
		`{"object":"error","type":"BadRequestError","code":400}`,
		`{"choices":[{"delta":{"tool_calls":[ ]},"delta":null}]}`,
	}
	for _, l := range strings.Split(gpRole+gpTok+gpTool+gpStopEv+gpUsage+gpTextTok, "\n") {
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			seeds = append(seeds, d)
		}
	}
	return seeds
}

// TestGenaiPerfFactsMatchStructs checks the seeds and that the in-place facts
// reader takes the ordinary ones.
func TestGenaiPerfFactsMatchStructs(t *testing.T) {
	fast := 0
	for _, s := range gpFactsSeeds() {
		if checkGpFactsMatchStructs(t, []byte(s)) {
			fast++
		}
	}
	if fast < 8 {
		t.Errorf("the fast path took %d seeds; want the 8 ordinary ones at least", fast)
	}
}

// FuzzGenaiPerfFacts is the differential fuzz test of the fast path.
func FuzzGenaiPerfFacts(f *testing.F) {
	for _, s := range gpFactsSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkGpFactsMatchStructs(t, data) })
}
