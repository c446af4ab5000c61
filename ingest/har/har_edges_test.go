package har

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// The edges of the format. What the decoder must report for each input of
// harEdges is in testdata/edges/edges.golden (the usual LLM paths) and
// edges_all.golden (every path kept), written by the route this decoder
// replaced (a json.Decoder splitting log.entries, each entry, request body
// and SSE event unmarshalled by encoding/json into structs), which the one
// route was fuzzed against before that route was deleted.

// TestHAREdges decodes every edge input and compares what the sink was
// told with the edges goldens.
func TestHAREdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, harEdges(), "testdata/edges/edges.golden")
	decodetest.CheckEdges(t, harAllPaths{}, harEdges(), "testdata/edges/edges_all.golden")
}

// harAllPaths is the har format keeping the entries of every URL path.
type harAllPaths struct{ Format }

func (harAllPaths) Decode(in *decode.Input, sink decode.Sink) error {
	in.Opts.Endpoints = []string{"/"}
	return Format{}.Decode(in, sink)
}

// harEdges returns the edge inputs: each edge entry alone in a document,
// all of them in one, the odd documents, the entries of harSemantics, and
// the hand-made HAR of testdata cut at a few places.
func harEdges() []string {
	var out []string
	entries := harEdgeEntries()
	for _, e := range entries {
		out = append(out, string(harDoc(e)))
	}
	out = append(out, string(harDoc(entries...)))
	out = append(out, harEdgeDocs...)
	for _, e := range harSemantics() {
		out = append(out, string(harDoc(e)))
	}
	for _, name := range harReviewHeaders {
		out = append(out, string(harDoc(`{"startedDateTime":"2024-05-01T10:00:00Z","time":5,"request":{"method":"POST","url":"http://h/v1/chat/completions","headers":[]},`+
			`"response":{"status":200,"headers":[{"name":`+harQuote(name)+`,"value":"abc"}],"content":{}},"timings":{"wait":1}}`)))
	}
	data, err := os.ReadFile("testdata/llm_chat.har")
	if err != nil {
		panic(err)
	}
	for _, n := range []int{1, 40, 150, 700, 1421, 2300, len(data) / 2, len(data) - 40, len(data) - 6, len(data) - 2} {
		out = append(out, string(data[:n]))
	}
	return out
}

// harQuote returns s as a JSON string literal.
func harQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// harEdgeSlots are the parts of an edge-case entry: the first value of each
// is the default, the others are tried one at a time.
var harEdgeSlots = [][]string{
	{ // 0 startedDateTime
		`"2026-11-23T10:00:00.123+01:00"`, `"2026-11-23T10:00:00Z"`, `"2026-11-23T10:00:00.123456789123Z"`,
		`"2026-11-23T10:00:00,5Z"`, `"2026-11-23t10:00:00Z"`, `"2026-02-29T10:00:00Z"`, `"2024-02-29T10:00:00Z"`,
		`"2026-11-23T10:00:00+24:00"`, `"2026-11-23T10:00:00-00:00"`, `"2026-11-23T24:00:00Z"`, `"2026-11-23T10:00:60Z"`,
		`"2026-11-23T10:00:00.Z"`, `"2026-11-23T10:00:00"`, `"0000-01-01T00:00:00Z"`, `"9999-12-31T23:59:59.999999999-23:59"`,
		`null`, `5`, `"\u0032026-11-23T10:00:00Z"`, `"yesterday"`, `""`, `"2026-11-31T10:00:00Z"`, `"2026-11-23T10:00:00.5+01:00x"`,
		`"+2026-11-23T10:00:00Z"`, `"2026-11-23 10:00:00Z"`, `"2026-11-23T10:00:00.1234567890+05:30"`,
	},
	{ // 1 time
		`1483.0`, `null`, `"12"`, `-1`, `1e3`, `1E-3`, `0.0000001`, `1e30`, `123456789012345.5`, `-0`, `-0.5`, `0`,
		`12345678901.999999`, `1234567890123`, `99999999999999999999`, `[]`, `true`,
	},
	{ // 2 url
		`"https://api.openai.com/v1/chat/completions"`, `"https:\/\/api.openai.com\/v1\/chat\/completions"`,
		`"http://localhost:8000/v1/completions?x=1"`, `"http://h/v1/chat%2Fcompletions"`, `"http://h/a%zz/v1/completions"`,
		`"http://h/v1/completions#frag"`, `"http://[::1"`, `"http://[::1]:80/v1/completions"`, `"http://x:8a/v1/completions"`,
		`"/v1/chat/completions"`, `"v1:x/completions"`, `"http://h?/v1/completions"`, `"http://u:p@h/v1/completions"`,
		`"HTTP://H/v1/messages"`, `"h2c://h/v1/messages"`, `"http:///v1/messages"`, `"http://h/v1/mess\u00e4ges"`,
		`"http://h/\u00e9/v1/messages"`, `"http://h/v1/messages\u0001"`, `"http://h:/generate"`, `"http://a:b:1/generate"`,
		`"http://h/generate?"`, `"mailto:x/generate"`, `null`, `5`, `""`, `"http://h/v1/responses "`, `"http://h/v1/responses\u007f"`,
		`"http://h/v1/messages?%zz"`, `"http://h_~x.y-z/generate_stream"`, `"http://h/models"`, `"*"`,
	},
	{ // 3 request headers
		`[{"name":"X-Request-ID","value":"r-1"},{"name":"traceparent","value":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}]`,
		`null`, `[]`, `[null]`, `[1]`, `{}`, `[{"name":"x-request-id","value":"a"},{"name":"X-REQUEST-ID","value":"b"}]`,
		`[{"Name":"x-request-id","value":"a"}]`, `[{"name":"x-request-\u0069d","value":"a"}]`, `[{"name":"x-request-İd","value":"a"}]`,
		`[{"name":"x-request-id","value":"a\"b\u00e9"}]`, `[{"name":"x-request-id","value":null}]`, `[{"name":"x-request-id","name":"y","value":"a"}]`,
		`[{"name":"traceparent","value":"bad"}]`, `[{"name":"x-request-id","value":""}]`, `[{"name":"x-request-id","value":5}]`,
		`[{"value":"a","name":"x-request-id","comment":{"x":[1]}}]`, `[{"name":"x-request-id","value":"\ud83d\ude00"}]`,
		`[{"name":"traceparent","value":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"},{"name":"x-request-id","value":"r"}]`,
		`[{"name":"x-request-id","value":"a` + "\xff" + `"}]`,
	},
	{ // 4 postData
		`{"mimeType":"application/json","text":"{\"model\": \"gpt-4o-mini\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"SECRET\"}]}"}`,
		`null`, `{}`, `{"text":""}`, `{"text":"{\"model\":\"m\",\"stream\":false}"}`, `{"text":"{\"model\":\"m\\u00e9\"}"}`,
		`{"text":"{\"Model\":\"m\"}"}`, `{"text":"{\"model\":\"m\",\"stream\":null}"}`, `{"text":"{\"model\":\"a\",\"model\":\"b\"}"}`,
		`{"text":"{\"model\":null,\"model\":\"b\"}"}`, `{"text":"{\"stream\":true,\"stream\":null}"}`, `{"text":"not json"}`,
		`{"text":"null"}`, `{"text":"[1]"}`, `{"text":"{\"model\": 5}"}`, `{"text":"{\"model\":\"\ud83d\ude00\"}"}`,
		`{"text":"{\"stream\":\"true\"}"}`, `{"text":"{\"model\":\"m\"} x"}`, `{"text":" {\"model\":\"m\"}\n"}`, `{"text":5}`,
		`{"text":"{\"model\":\"m\",\"stream\":tru}"}`, `{"text":"{\"model\":\"\"}"}`, `{"mimeType":null,"text":"{\"model\":\"m` + "\xff" + `\"}"}`,
		`{"text":"{\"model\":\"m\",\"messages\":[` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `]}"}`,
	},
	{ // 5 status
		`200`, `null`, `"200"`, `200.0`, `-1`, `0`, `4294967496`, `99999999999999999999`, `429`, `500`, `204`, `1e2`, `301`, `299`, `-0`,
	},
	{ // 6 response headers
		`[{"name":"x-request-id","value":"req_1"},{"name":"request-id","value":"req_2"},{"name":"x-litellm-call-id","value":"r-1"}]`,
		`null`, `[]`, `[{"name":"Request-Id","value":""},{"name":"request-id","value":"x"}]`, `[{"name":"traceparent","value":"x"}]`,
		`[{"name":"X-LiteLLM-Call-ID","value":"r-1"},{"name":"x-request-id","value":"r-1"}]`, `[{"name":"x-request-id","value":"a\\b"}]`,
	},
	{ // 7 content
		harContent("text/event-stream; charset=utf-8", "", harSSEBody),
		`null`, `{}`, `{"text":""}`, `{"mimeType":"text\/event-stream","text":"data: [DONE]\n"}`, `{"mimeType":5}`,
		harContent("text/event-stream", "base64", base64.StdEncoding.EncodeToString([]byte(harSSEBody))),
		harContent("text/event-stream", "base64", "!!notbase64"), harContent("text/event-stream", "base64", "ZGF0YTogW0RPTkVdCg=\n="),
		harContent("text/event-stream", "bas\u0065"+"64", "ZGF0YTogW0RPTkVdCg=="), harContent("text/event-stream", "BASE64", "ZGF0YTogW0RPTkVdCg=="),
		harContent("application/json", "", `{"id":"cmpl-3","model":"m","choices":[{"text":"SECRET","finish_reason":"length"}],"usage":{"prompt_tokens":4,"completion_tokens":16}}`),
		harContent("application/json", "", `{"id":"cmpl-3"} x`), harContent("application/json", "", `null`), harContent("application/json", "", "\ufeff{}"),
		harContent("application/json", "", ` {"id":"x\u00e9","usage":{"input_tokens":1,"output_tokens":2}} `), harContent("application/json", "", `{"ID":"x"}`),
		harContent("application/json", "base64", base64.StdEncoding.EncodeToString([]byte(`{"id":"b64"}`))),
		harContent("text/plain", "", `{"details":{"finish_reason":"eos","generated_tokens":9}}`),
		`{"mimeType":"text/event-stream","text":"data: {\"id\":\"\ud83d\ude00\"}\n"}`, `{"mimeType":"text/event-stream","text":5}`,
		`{"mimeType":"text/event-stream","text":"data: {\"id\":\"a` + "\xff" + `\"}\n"}`,
	},
	{ // 8 timings
		`{"blocked":1.5,"dns":-1,"connect":30.25,"ssl":20.0,"send":0.5,"wait":250.75,"receive":1200.0}`,
		`null`, `{}`, `[]`, `{"wait":null}`, `{"wait":"5"}`, `{"wait":-2}`, `{"wait":-1}`, `{"wait":-0.5}`, `{"wait":1,"wait":2}`,
		`{"w\u0061it":3}`, `{"ssl":true}`, `{"_x":"a"}`, `{"wait":1e400}`, `{"blocked":1e-3,"wait":5E2}`, `{"receive":-1000.0001}`,
		`{"Wait":5}`, `{"wait":1234567890123.5}`, `{"send":99999999999999999999}`, `{"wait":0.1234567}`,
	},
}

// harSSEBody is an SSE body with every kind of event harSSE reads.
var harSSEBody = strings.Join([]string{
	`data: {"id":"chatcmpl-1","model":"m-1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
	`data:{"choices":[{"delta":{"content":"SECRET"}}]}`, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"x\"}}]}\r\r",
	`data: {"choices":[{"delta":{"reasoning":"x"}},null]}`, `data: {"choices":[{"delta":{"tool_calls":[ ]}}]}`,
	`data: {"choices":[{"delta":{"tool_calls":[]}}]}`, `data: {"choices":[{"delta":{"tool_calls":null}}]}`,
	`data: {"choices":[{"delta":{"tool_calls":{}}}]}`, `data: {"choices":[{"text":"x"}]}`, `data: {"choices":[{"delta":{"content":"\u0000"}}]}`,
	`data: {"Choices":[{"delta":{"content":"x"}}]}`, `data: {"choices":[{"delta":{"content":"x","content":""}}]}`,
	`data: {"choices":[{"delta":{"content":5}}]}`, `data: {"choices":[{"delta":{"content":"x"}}]} junk`, `data: 5`, `data: null`, `data: "x"`,
	`data: {"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":25,"output_tokens":1}}}`,
	`data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"SECRET"}}`, `data: {"type":"response.delta"}`,
	`data: {"type":"response.output_text.delta","delta":"x"}`, `data: {"type":"resp\u006fnse.output_text.delta"}`,
	`data: {"type":"message_delta","usage":{"output_tokens":2,"prompt_tokens":null,"input_tokens":7}}`,
	`data: {"usage":{"prompt_tokens":1.0}}`, `data: {"usage":{"completion_tokens":99999999999999999999}}`, `data: {"usage":null,"usage":{}}`,
	`data: {"token":{"id":1,"text":"a","special":false},"generated_text":null}`, `data: {"token":{"text":"</s>","special":true}}`,
	`data: {"token":{"text":"a","special":null}}`, `data: {"token":{"text":"a","special":1}}`, `data: {"token":null}`,
	`data: {"details":{"finish_reason":"eos_token","generated_tokens":2}}`, `data: {"details":{"generated_tokens":null}}`,
	`data: {"type":"response.completed","response":{"id":"resp_1","model":"r","usage":{"input_tokens":5,"output_tokens":7}}}`,
	`data: {"id":"x\/y","model":"m\u00e9"}`, `data: {"choices":[{"finish_reason":"stop"}]}`, `data: {"choices":[{"finish_reason":""}]}`,
	"data: \u00a0{\"id\":\"nbsp\"}\u00a0", `event: x`, `: comment`, `data: [DONE]  `, `data:[DONE]`, `DATA: [DONE]`, `data: {"type":"message_stop"}`,
	`data: {"choices":[` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `]}`, `data: {"id":"a",}`, `data: {"choices":[{"delta":null}]}`,
}, "\n") + "\n\n"

// harContent returns a response content object.
func harContent(mime, encoding, text string) string {
	s := `{"size":0,"mimeType":` + harQuote(mime) + `,"text":` + harQuote(text)
	if encoding != "" {
		s += `,"encoding":` + harQuote(encoding)
	}
	return s + "}"
}

// harEdgeEntry returns an entry of the default slots but slot k = v.
func harEdgeEntry(k int, v string) string {
	var s [9]string
	for i, alts := range harEdgeSlots {
		s[i] = alts[0]
	}
	s[k] = v
	return `{"startedDateTime":` + s[0] + `,"time":` + s[1] + `,"request":{"method":"POST","url":` + s[2] + `,"headers":` + s[3] +
		`,"postData":` + s[4] + "},\n" + `"response":{"status":` + s[5] + `,"headers":` + s[6] + `,"content":` + s[7] + "},\n" +
		`"timings":` + s[8] + `,"cache":{}}`
}

// harDoc returns a HAR document of the entries.
func harDoc(entries ...string) []byte {
	return []byte("{\"log\": {\"version\": \"1.2\", \"entries\": [\n" + strings.Join(entries, ",\n") + "\n]}}\n")
}

// harEdgeEntries returns every edge-case entry, one slot changed in each.
func harEdgeEntries() []string {
	var out []string
	for k, alts := range harEdgeSlots {
		for _, v := range alts {
			out = append(out, harEdgeEntry(k, v))
		}
	}
	return out
}

// harEdgeDocs are documents of odd shapes: not HAR, entries not an array,
// elements not entries, duplicated and escaped keys, damage and cuts.
var harEdgeDocs = []string{
	``, ` `, `{}`, `[]`, `[{"log":1}]`, `{"log":{}}`, `{"log":[]}`, `{"log":null}`, `{"log":{"entries":{}}}`, `{"log":{"entries":{"a":1}}}`,
	`{"log":{"entries":[]}}`, `{"log":{"entries":[1,2]}}`, `{"log":{"entries":[null,"x",[],true,{}]}}`, `{"log":{"entries":null}}`,
	"\ufeff{\"log\":{\"entries\":[]}}", `{"l\u006fg":{"entries":[]}}`, `{"log":{"entri\u0065s":[{}]}}`, `{"x":[1,{"y":2}],"log":{"pages":[],"entries":[{}]}}`,
	`{"log":{"entries":[{}]},"log":{"entries":[{},{}]}}`, `{"log":{"entries":[{}],"entries":[{},{}]}}`, `{"log":{"entries":[{}]}} trailing`,
	`{"log":{"entries":[{}]},"x":tru}`, `{"log":{"entries":[{}] x}`, `{"log":{"entries":[{},]}}`, `{"log":{"entries":[{}`, `{"log":{"entries":[{},`,
	`{"log":{"entries":[{}}}`, `{"log":{"entries":[{"x":1}{}]}}`, `{"x":1,"log"`, `{"x":tru,"log":{"entries":[]}}`, `{"log":{"x":tru,"entries":[]}}`,
	`{"log":{"entries":[{"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}]}}`, `{"LOG":{"entries":[{}]}}`,
	`{"log":{"entries":[{"request":{"url":"http://h/v1/messages"}}, {"request":{"url":"http://h/v1/messages"},"x":tru}, {}]}}`,
}

// harEntryOf returns an entry of url whose other members are members, a
// JSON object's members.
func harEntryOf(url, members string) string {
	return `{"startedDateTime":"2026-11-23T10:00:00Z","time":5,"request":{"method":"POST","url":` + harQuote(url) + `},` + members + `}`
}

// harSSEEntry returns an entry with an SSE response body of these events.
func harSSEEntry(events ...string) string {
	return harEntryOf("http://h/v1/chat/completions", `"response":{"status":200,"content":`+
		harContent("text/event-stream", "", "data: "+strings.Join(events, "\n\ndata: ")+"\n\n")+`},"timings":{"wait":1}`)
}

// harDeep returns a JSON value nested n arrays deep.
func harDeep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// harSemantics are entries that test how the fields are decoded: repeated
// keys (merged objects, lists decoded into the elements already there,
// null), keys matched case-insensitively or escaped, values of a wrong
// type, nesting at encoding/json's limit (10000 deep, the entry or event
// counted), and the SSE events' own such cases.
func harSemantics() []string {
	const url = "http://h/v1/chat/completions"
	tp := `"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"`
	return []string{
		`{"request":{"url":"http://h/v1/messages"},"request":{"method":"POST"},"startedDateTime":"2026-11-23T10:00:00Z","response":{"status":200},"response":{"content":{"mimeType":"application/json","text":"{\"id\":\"a\"}"}}}`,
		harEntryOf(url, `"request":{"url":"`+url+`","headers":[{"name":"x-request-id","value":"a"},{"name":"traceparent","value":`+tp+`}],"headers":[{"value":"b"}],"headers":[{},{}]}`),
		harEntryOf(url, `"request":{"url":"`+url+`","headers":[{"name":"x-request-id","value":"a"},{"name":"traceparent","value":`+tp+`}],"headers":null,"headers":[{},{"value":"c"}]}`),
		harEntryOf(url, `"request":{"url":"`+url+`","headers":[{"name":"x-request-id","value":"a"},{"name":"traceparent","value":`+tp+`}],"headers":[],"headers":[{},{}]}`),
		harEntryOf(url, `"request":{"url":"`+url+`","headers":[{"name":"x-request-id","value":"a"},null,{"name":"X-Request-Id","value":"c"}],"headers":[{"value":"b"},null]}`),
		harEntryOf(url, `"response":{"status":200,"headers":[{"name":"request-id","value":"a"}],"headers":[{"name":"x-request-id"},{"name":"x-request-id","value":"a"},{"name":"x-request-id","value":"b"}]}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"a\"}"},"postData":null}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"a\"}"},"postData":null,"postData":{}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"a\"}"},"postData":{"mimeType":"x"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"a\",\"stream\":true}","text":"{\"stream\":false}"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"m\",\"x\":`+harDeep(9999)+`}"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"m\",\"x\":`+harDeep(10000)+`}"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"MODEL\":\"m\",\"\u017ftream\":true,\"model\":null}"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"m\",\"stream\":1}"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"{\"model\":\"m\",\"stream\":true,\"stream\":null}"}}`),
		harEntryOf(url, `"request":{"url":"`+url+`","postData":{"text":"  "}}`),
		harEntryOf(url, `"timings":{"wait":5},"timings":{"send":1}`),
		harEntryOf(url, `"timings":{"wait":5},"timings":null`),
		harEntryOf(url, `"timings":{"wait":5},"timings":null,"timings":{"send":2}`),
		harEntryOf(url, `"timings":{"comment":"slow"}`),
		harEntryOf(url, `"timings":{"Wait":1,"wait":2,"WAIT":"x"}`),
		harEntryOf(url, `"timings":{"wait":"2.5","send":"-1","blocked":""}`),
		harEntryOf(url, `"timings":{"wait":2},"TIMINGS":{"dns":1},"Timings":null`),
		harEntryOf(url, `"response":{"status":200},"response":{"status":null},"response":{"headers":null}`),
		harEntryOf(url, `"response":{"status":200,"status":0}`),
		harEntryOf(url, `"response":{"status":200,"content":{"mimeType":"text/event-stream","text":"data: [DONE]\n"},"content":{"text":"data: {}\n"}}`),
		harEntryOf(url, `"response":{"status":200,"content":{"mimeType":"text/event-stream","encoding":"base64","text":"ZGF0YTogW0RPTkVdCg=="},"content":{"encoding":null}}`),
		harEntryOf(url, `"response":{"status":200,"content":{"mimeType":"application/json","text":"{\"id\":\"a\"}","encoding":"base64"}}`),
		harEntryOf(url, `"response":{"status":200,"content":{"mimeType":"application/json","encoding":"base64","text":"e30="}}`),
		`{"STARTEDDATETIME":"2026-11-23T10:00:00Z","REQUEST":{"URL":"` + url + `","HEADERS":[{"NAME":"x-request-id","VALUE":"r"}]},"Response":{"Status":201},"TIME":3}`,
		`{"\u017ftartedDateTime":"2026-11-23T10:00:00Z","\u0072equest":{"ur\u006c":"` + url + `"},"response":{"st\u0061tus":200}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","method":5}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","postData":"x"}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","headers":[{"name":"a","value":true}]}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","postData":{"mimeType":1}}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `"},"response":{"content":{"encoding":[]}}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `"},"time":"","timings":{}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `"},"time":"1e3"}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `"},"time":1,"time":null}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","x":` + harDeep(9997) + `}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","x":` + harDeep(9998) + `}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","x":` + harDeep(9999) + `}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `"},"x":` + harDeep(10000) + `}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + "\xff" + `","headers":[{"name":"x-request-id","value":"a` + "\xc3" + `b"}]}}`,
		`{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"` + url + `","headers":[{"name":"x-request-id","value":"\udc00\ud800x"}]}}`,
		`{"response":{"status":500,"content":{"mimeType":"application/json","text":"{\"id\":\"e\"}"}},"timings":{"wait":9,"receive":1},"request":{"url":"` + url + `"},"startedDateTime":"2026-11-23T10:00:00+02:00"}`,
		harSSEEntry(`{"choices":[{"delta":{"content":"x"}}],"choices":[{}]}`, `{"choices":[{"delta":{"content":"x"}}],"choices":[]}`, `[DONE]`),
		harSSEEntry(`{"choices":[{"delta":{"content":"x"}},{"text":"y"}],"choices":null,"choices":[{},{}]}`),
		harSSEEntry(`{"choices":[{"delta":{"content":"x"}},{"finish_reason":"stop"}],"choices":[{"delta":null}],"choices":[{},{}]}`),
		harSSEEntry(`{"usage":{"completion_tokens":5},"usage":null}`, `{"choices":[{"delta":{"content":"x"}}]}`),
		harSSEEntry(`{"usage":{"completion_tokens":5},"usage":{"prompt_tokens":1}}`),
		harSSEEntry(`{"message":{"id":"m1"},"message":{"model":"x","usage":{"input_tokens":3}}}`, `{"message":{"id":"m2","usage":{"input_tokens":3}},"message":null}`),
		harSSEEntry(`{"token":{"text":"a","special":true},"token":{"text":"b"}}`, `{"token":{"text":"a","special":true},"token":null,"token":{"text":"b"}}`),
		harSSEEntry(`{"details":{"finish_reason":"stop","generated_tokens":4},"details":null}`, `{"details":{"generated_tokens":4},"details":{"generated_tokens":null}}`),
		harSSEEntry(`{"choices":[{"delta":{"tool_calls":[1],"tool_calls":null}}]}`, `{"choices":[{"delta":{"tool_calls":[ ]}}]}`, `{"choices":[{"delta":{"tool_calls":""}}]}`),
		harSSEEntry(`{"CHOICES":[{"DELTA":{"CONTENT":"x"}}],"ID":"c1","Model":"m"}`, `{"to\u212aen":{"text":"a","\u017fpecial":false}}`, `{"choices":[{"Finish_Reason":"stop"}]}`),
		harSSEEntry(`{"usage":{"completion_tokens":"5"}}`, `{"usage":{"completion_tokens":5.0}}`, `{"id":5}`, `{"choices":{}}`, `{"choices":[1]}`, `{"token":{"special":"no"}}`),
		harSSEEntry(`{"id":"a`+"\xff"+`","model":"\ud800"}`, `{"response":{"id":"r","usage":{"output_tokens":2}},"response":{"usage":null}}`),
		harSSEEntry(`{"x":`+harDeep(9999)+`,"choices":[{"text":"a"}]}`, `{"x":`+harDeep(10000)+`,"choices":[{"text":"b"}]}`),
		harSSEEntry(`{"choices":[{"delta":{"content":"x","tool_calls":`+harDeep(9996)+`}}]}`, `{"choices":[{"delta":{"content":"x","tool_calls":`+harDeep(9997)+`}}]}`),
		harSSEEntry(``, ` `, `{}`, `{} {}`, `{"type":"message_stop"}`),
	}
}

// harReviewHeaders are response id headers whose names lower to an id
// header's through a non-ASCII letter (U+0130 lowers to 'i'): longer than
// the name they lower to.
var harReviewHeaders = []string{"x-l\u0130tellm-call-id", "x-l\u0130tellm-call-\u0130d", "x-request-\u0130d", "X-REQUEST-\u0130D"}
