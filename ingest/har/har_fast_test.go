package har

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// harRoutes decodes data by the general route alone and with the fast
// path, under opts, and fails when the two report anything differently:
// events, raw bytes, skips, rejects, reasons, the returned error.
func harRoutes(t testing.TB, data []byte, opts decode.Options) {
	t.Helper()
	general, fast := &decodetest.RawRecorder{}, &decodetest.RawRecorder{}
	errG := Format{}.decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h", Opts: opts}, general, false)
	errF := Format{}.decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h", Opts: opts}, fast, true)
	if (errG == nil) != (errF == nil) || errG != nil && errG.Error() != errF.Error() || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
}

// TestHARFastMatchesGeneral runs both routes over the testdata and the
// benchmark input.
func TestHARFastMatchesGeneral(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.har")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []decode.Options{{}, {Endpoints: []string{"/"}}, {Endpoints: []string{""}}} {
			harRoutes(t, data, opts)
		}
	}
	if !testing.Short() {
		harRoutes(t, benchHARInput(), decode.Options{})
	}
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

// harEdgeDocs are documents whose shape the fast path must read as the
// general route does, or hand to it.
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

// TestHARFastEdges runs both routes over hand-made edge cases: each entry
// alone, all of them in one document, and odd document shapes.
func TestHARFastEdges(t *testing.T) {
	entries := harEdgeEntries()
	for _, opts := range []decode.Options{{}, {Endpoints: []string{"/"}}} {
		for _, e := range entries {
			harRoutes(t, harDoc(e), opts)
		}
		harRoutes(t, harDoc(entries...), opts)
		for _, d := range harEdgeDocs {
			harRoutes(t, []byte(d), opts)
		}
	}
}

// TestHARFastDamaged runs both routes over the testdata document cut at
// every few bytes and with bytes replaced.
func TestHARFastDamaged(t *testing.T) {
	data, err := os.ReadFile("testdata/llm_chat.har")
	if err != nil {
		t.Fatal(err)
	}
	step := 7
	if testing.Short() {
		step = 97
	}
	for n := 0; n < len(data); n += step {
		harRoutes(t, data[:n], decode.Options{})
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := bytes.Clone(data)
		for range 1 + rnd.IntN(4) {
			b[rnd.IntN(len(b))] = `{}[]",:\0123456789abcdefu -.eEnt`[rnd.IntN(32)]
		}
		harRoutes(t, b, decode.Options{})
	}
}

// FuzzHARFast checks that the fast path reports what the general route
// does.
func FuzzHARFast(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	for _, e := range harEdgeEntries() {
		f.Add(harDoc(e))
	}
	for _, d := range harEdgeDocs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		harRoutes(t, data, decode.Options{})
		harRoutes(t, data, decode.Options{Endpoints: []string{"/"}})
	})
}

// harStringAgrees checks harString and harUnescape against jsonwalk.WalkString
// and jsonwalk.AppendUnescaped on the string literal at the start of b.
func harStringAgrees(t *testing.T, b []byte) {
	t.Helper()
	s, end, plain, ok := harString(b, 0)
	ws, wend, wplain, wok := jsonwalk.WalkString(b, 0)
	if ok != wok || ok && (!bytes.Equal(s, ws) || end != wend || plain != wplain) {
		t.Fatalf("string %q: %q %d %v %v, jsonWalkString %q %d %v %v", b, s, end, plain, ok, ws, wend, wplain, wok)
	}
	u, uend, exact := harUnescape([]byte("junk"), b, 0)
	if (uend >= 0) != ok || ok && uend != end {
		t.Fatalf("unescape %q: end %d, want %d", b, uend, end)
	}
	if ok {
		want, wexact := jsonwalk.AppendUnescaped(nil, b[:end])
		if exact != wexact || exact && !bytes.Equal(u, want) {
			t.Fatalf("unescape %q: %q %v, jsonAppendUnescaped %q %v", b, u, exact, want, wexact)
		}
	}
}

// TestHARFastHelpers checks the in-place readers against the functions
// they stand for on random strings of the bytes that matter to them.
func TestHARFastHelpers(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	// gen returns one of the templates with a few bytes replaced by bytes
	// of alphabet, inserted or deleted.
	gen := func(alphabet string, templates ...string) string {
		b := []byte(templates[rnd.IntN(len(templates))])
		for range rnd.IntN(3) {
			i := rnd.IntN(len(b) + 1)
			c := alphabet[rnd.IntN(len(alphabet))]
			switch {
			case rnd.IntN(3) == 0:
				b = append(b[:i], append([]byte{c}, b[i:]...)...)
			case i < len(b) && rnd.IntN(2) == 0:
				b = append(b[:i], b[i+1:]...)
			case i < len(b):
				b[i] = c
			}
		}
		return string(b)
	}
	for range 200000 {
		u := gen("aZ09:/?#%@[]._~-+ \x01\x7f\xc3\xa9", "http://h/v1/chat/completions", "https://api.x.com:443/v1/messages?a=b",
			"HTTP://h:80/", "h2c://h/x", "http://[::1]:80/generate", "/v1/completions", "x:/generate", "http://u@h/x%41y", "")
		want, err := url.Parse(u)
		if got, ok := harURLPath([]byte(u)); ok != (err == nil) || ok && string(got) != want.Path {
			t.Fatalf("url %q: %q %v, url.Parse %v", u, got, ok, err)
		}
		s := gen("0123456789:-+.TZ,t ", "2026-11-23T10:00:00.123+01:00", "2024-02-29T23:59:59.1234567891Z", "0000-01-01T00:00:00Z",
			"9999-12-31T23:59:59-23:59", "2026-11-23T10:00:00.5-00:30", "")
		tm, err := time.Parse(time.RFC3339Nano, s)
		y := tm.UTC().Year()
		partly := y == 1677 || y == 2262 // int64 ns hold 1677-09-21…2262-04-11
		got, gerr := harStartNs([]byte(s))
		if !partly && (gerr == nil) != (err == nil && y > 1677 && y < 2262) || gerr == nil && got != tm.UnixNano() {
			t.Fatalf("time %q: %d %v, time.Parse %v %v", s, got, gerr, tm.UnixNano(), err)
		}
		tp := gen("0123456789abcdefABx- \t", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-0X4BF92F3577B34DA6A3CE929D0E0E4736-a-b",
			" 00-00000000000000000000000000000000-00f067aa0ba902b7-01 ", "x-0x4bf92f3577b34da6a3ce929d0e0e4736-y-z-w", "")
		if got, want := harTraceID([]byte(tp)), decode.TraceIDFromTraceparent(tp); got != want {
			t.Fatalf("traceparent %q: %q, TraceIDFromTraceparent %q", tp, got, want)
		}
		ws := gen(" \n\r\tx", "  \n        \n", "\n                   x", " ", "\t\t\r\n  ", "")
		for i := range len(ws) + 1 {
			if got, want := jsonwalk.SkipWS([]byte(ws), i), jsonwalk.SkipWS([]byte(ws), i); got != want {
				t.Fatalf("white space %q at %d: %d, jsonSkipWS %d", ws, i, got, want)
			}
		}
		str := gen("\"\\/bnu0aF \x01\x1f\x7f\xc3\xa9\xff\xed\xa0", `"plain text of some length, long enough"`, `"a\"b\\c\/d\n\u00e9\ud83d\ude00 e"`,
			`"caf\u00e9 \u0041"`, "\"caf\xc3\xa9 \xff\"", `""`, `"`)
		harStringAgrees(t, []byte(str))
		if tk := gen("abcdeiklnorstvw", harTimingNames[:]...); harTimingIndex([]byte(tk)) != slices.Index(harTimingNames[:], tk) {
			t.Fatalf("timing %q: %d", tk, harTimingIndex([]byte(tk)))
		}
		key := gen("kKsSuU\\_\xe2\x84\xaaxX0", "url", "URL", "postData", "content", "finish_reason", "xurl", "\\u0075rl", "")
		names := []string{"url", "postData", "content", "finish_reason", "k", "s"}
		k, ok := harKey([]byte(key), newHarNames(names...))
		// harKey may be sure where jsonwalk.StructKey is not: a key whose first byte
		// is plain ASCII and starts no name matches none after unescaping.
		wk, wok := jsonwalk.StructKey([]byte(key), names)
		sure := len(key) > 0 && key[0] < 0x80 && key[0] != '\\' && !strings.ContainsAny(strings.ToLower(key[:1]), "upcfks")
		if wok && (k != wk || !ok) || !wok && ok && !(k == -1 && sure) {
			t.Fatalf("key %q: %d %v, jsonStructKey %d %v", key, k, ok, wk, wok)
		}
		n := gen("0123456789.eE-+", "-1", "0.5", "1483.0", "123456789012.1234567", "1e3", "-0.25", "")
		v, ok := textscan.DecimalScaled(n, 6)
		if got, gotOK := textscan.DecimalScaledBytes([]byte(n), 6); gotOK != ok || got != v {
			t.Fatalf("ms %q: %d %v, decimalScaled %d %v", n, got, gotOK, v, ok)
		}
	}
}

// BenchmarkHARRoutes compares the routes on the benchmark input and on a
// real Chrome export (testdata, its entries repeated to 16 MB: a page, its
// images and scripts, two of them kept by the testdata's endpoints), with
// input per CPU-second.
func BenchmarkHARRoutes(b *testing.B) {
	var doc struct {
		Log struct {
			Entries []json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	chrome, err := os.ReadFile("testdata/mitmproxy_chrome.har")
	if err != nil || json.Unmarshal(chrome, &doc) != nil {
		b.Fatal(err)
	}
	chrome = append(append([]byte(`{"log": {"version": "1.2", "entries": `), decodetest.BenchArray(doc.Log.Entries)...), "}}\n"...)
	for _, in := range []struct {
		name string
		data []byte
		opts decode.Options
	}{{"bench", benchHARInput(), decode.Options{}}, {"chrome", chrome, decodetest.BenchOpts(b, "testdata/mitmproxy_chrome.har")}} {
		for _, fast := range []bool{true, false} {
			b.Run(in.name+map[bool]string{true: "/fast", false: "/general"}[fast], func(b *testing.B) {
				decodetest.BenchDecodeCPU(b, harRoute{fast}, in.data, in.opts)
			})
		}
	}
}

// harRoute is the har format decoding by one route.
type harRoute struct{ fast bool }

func (harRoute) Name() string      { return "har" }
func (harRoute) Source() string    { return schema.SourceClient }
func (harRoute) Describe() string  { return "" }
func (harRoute) Sniff([]byte) bool { return false }
func (r harRoute) Decode(in *decode.Input, sink decode.Sink) error {
	return Format{}.decode(in, sink, r.fast)
}

// TestHARFastReadError checks that a read error is reported as the general
// route reports it, after the entries read before it (none when the error
// comes after the entries array, which the general route never reads).
func TestHARFastReadError(t *testing.T) {
	data, err := os.ReadFile("testdata/llm_chat.har")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 100, len(data) / 2, len(data)} {
		var recs [2]decodetest.RawRecorder
		var errs [2]error
		for k, fast := range []bool{false, true} {
			r := io.MultiReader(bytes.NewReader(data[:n]), iotest.ErrReader(errors.New("disk on fire")))
			errs[k] = Format{}.decode(&decode.Input{R: r, Name: "x"}, &recs[k], fast)
		}
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) || !reflect.DeepEqual(recs[0], recs[1]) {
			t.Fatalf("cut at %d: general %v %+v, fast %v %+v", n, errs[0], recs[0], errs[1], recs[1])
		}
	}
}
