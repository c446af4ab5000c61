package otlp

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// otlpRoutes decodes data by the general route alone and with the fast
// path, and fails when the two report anything differently.
func otlpRoutes(t *testing.T, data []byte) {
	t.Helper()
	general, fast := &decodetest.Recorder{}, &decodetest.Recorder{}
	in := func() *decode.Input { return &decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"} }
	errG := Format{}.decode(in(), general, nil)
	errF := Format{}.decode(in(), fast, &otlpFast{})
	if (errG == nil) != (errF == nil) || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
}

// otlpFastRead counts the lines of data that the fast path reads.
func otlpFastRead(data []byte) int {
	f, read := &otlpFast{}, 0
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if t := bytes.TrimSpace(line); len(t) > 0 && f.document(&decode.Input{Host: "h"}, 1, t, &decodetest.Recorder{}) {
			read++
		}
	}
	return read
}

// otlpKVs builds an attributes array from key and AnyValue JSON pairs.
func otlpKVs(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, `{"key":`+pairs[i]+`,"value":`+pairs[i+1]+`}`)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// otlpServer is a vLLM server span with extra attributes and fields.
func otlpServer(extraAttrs, extraFields string) string {
	attrs := otlpKVs(`"gen_ai.response.model"`, `{"stringValue":"m"}`, `"gen_ai.request.id"`, `{"stringValue":"r1"}`,
		`"gen_ai.latency.time_to_first_token"`, `{"doubleValue":0.25}`, `"gen_ai.latency.e2e"`, `{"doubleValue":2}`,
		`"gen_ai.usage.completion_tokens"`, `{"intValue":"7"}`)
	if extraAttrs != "" {
		attrs = attrs[:len(attrs)-1] + "," + extraAttrs + "]"
	}
	return `{"traceId":"4BF92F3577B34DA6A3CE929D0E0E4736","spanId":"00f067aa0ba902b7","name":"llm_request","kind":2,` +
		`"startTimeUnixNano":"1000000000000","endTimeUnixNano":"1009000000000","attributes":` + attrs +
		extraFields + `,"status":{}}`
}

// otlpFastEdges are documents the fast path must read as the general route
// does, or hand to it.
var otlpFastEdges = []string{
	otlpOneSpan(otlpServer("", "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai\u002eusage.prompt_tokens","value":{"intValue":3}}`, "")),
	otlpOneSpan(otlpServer(`{"value":{"stringValue":"x"},"key":"gen_ai.request.model"},{"key":"zz","value":{"arrayValue":{"values":[{"stringValue":"a"}]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"stringValue":"r2"}},{"key":"gen_ai.request.id","value":{}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"intValue":null,"doubleValue":1.5}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"http.status_code","value":{"stringValue":null,"boolValue":true}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"http.status_code","value":{"doubleValue":"503"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"http.status_code","value":{"intValue":"abc"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"http.status_code","value":{"intValue":1.5}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"http.status_code","value":{"doubleValue":429.0}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.latency.e2e","value":{"doubleValue":"NaN"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.latency.e2e","value":{"doubleValue":"Infinity"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.latency.e2e","value":{"doubleValue":1e400}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.latency.e2e","value":{"stringValue":"3.5"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.usage.prompt_tokens","value":{"doubleValue":12.5}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.usage.prompt_tokens","value":{"arrayValue":{"values":[{"intValue":"1"},{},null]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"stop"},{"intValue":"1"},{"stringValue":"length"}]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":null}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"stringValue":"st\u00f6p\n"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.system","value":{"kvlistValue":{"values":[]}}},{"key":"llm.x","value":{"kvlistValue":null}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.model","value":{"stringValue":"\ud83d"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.model","value":{"stringValue":"caf`+"\xe9"+`"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"input.value","value":{"stringValue":"caf`+"\xe9"+` \ud83d"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.model","value":{"StringValue":"x"}}`, "")),
	otlpOneSpan(otlpServer(`{"Key":"gen_ai.request.model","value":{"stringValue":"x"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"x","value":{"stringValue":1}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"x","value":{"boolValue":"true"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"x","value":{"arrayValue":[]}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.model","value":{"stringValue":"x"} },{"key":"llm.a","value":{"bytesValue":"eA=="}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.model","value":{"stringValue":"x","intValue":"1"}},{"key":"a\"b","value":{"intValue":"1"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.model","value":{"string\u0056alue":"x"}},{"key":"llm.x","value":{"intValue":"+5"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"0000000000000000000012"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"-0"}},{"key":"llm.x","value":{"boolValue":true}}`, "")),
	otlpOneSpan(otlpServer(`null,{"key":null,"value":null},{"key":"gen_ai.request.stream","value":{"boolValue":false}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"x","value":{"arrayValue":{"values":[`+strings.Repeat(`{"arrayValue":{"values":[`, 70)+strings.Repeat(`]}}`, 70)+`]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"url.full","value":{"stringValue":"http://h/v1/chat?x=1"}},{"key":"error.type","value":{"stringValue":"Timeout"}}`, "")),
	otlpOneSpan(otlpServer("", `,"traceId":"x"`)),
	otlpOneSpan(otlpServer("", `,"TraceId":"x"`)),
	otlpOneSpan(otlpServer("", `,"parentSpanId":"","flags":1,"links":[{"x":[1,2,{}]}],"droppedAttributesCount":0`)),
	otlpOneSpan(otlpServer("", `,"x":`+strings.Repeat("[", 600)+strings.Repeat("]", 600))),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":"SPAN_KIND_SERVER"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":"SPAN_KIND_BOGUS"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":9`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":-0`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":2.0`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":null`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"status":{}`, `"status":{"code":"STATUS_CODE_ERROR","message":"x"}`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"status":{}`, `"status":{"code":2}`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"status":{}`, `"status":null`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"status":{}`, `"status":{"code":7}`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `"0"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `1000000000000`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `"-5"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `-0`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `null`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `1.5e12`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `"99999999999999999999"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"4BF92F3577B34DA6A3CE929D0E0E4736"`, `"S/kvNXezTaajzpKdDg5HNg=="`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"4BF92F3577B34DA6A3CE929D0E0E4736"`, `"00000000000000000000000000000000"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"4BF92F3577B34DA6A3CE929D0E0E4736"`, `"4bf92f35-77b3-4da6-a3ce-929d0e0e4736"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"4BF92F3577B34DA6A3CE929D0E0E4736"`, `null`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"00f067aa0ba902b7"`, `"0x00f067aa0ba902b7"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"00f067aa0ba902b7"`, `"\u0030\u0030f067aa0ba902b7"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"name":"llm_request"`, `"name":"llm\u005frequest"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"name":"llm_request"`, `"name":null`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"name":"llm_request"`, `"name":7`, 1)),
	// a client span with events
	otlpOneSpan(`{"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","name":"chat","kind":3,"startTimeUnixNano":"1000","endTimeUnixNano":"9000",` +
		`"attributes":` + otlpKVs(`"gen_ai.request.model"`, `{"stringValue":"m"}`, `"gen_ai.operation.name"`, `{"stringValue":"chat"}`) +
		`,"events":[{"timeUnixNano":"3000","name":"llm.content.completion.chunk","attributes":[{"key":"chunk.type","value":{"stringValue":"message_start"}}]},` +
		`{"timeUnixNano":"2000","name":"llm.content.completion.chunk"},{"name":"llm.content.completion.chunk"},` +
		`{"timeUnixNano":"4000","name":"llm.content.completion.chunk","attributes":[{"key":"chunk.type","value":{"stringValue":"content_block_delta"}}],"droppedAttributesCount":0},` +
		`{"timeUnixNano":"1500","name":"First Token Stream Event"},null]}`),
	otlpOneSpan(`{"name":"chat","kind":1,"startTimeUnixNano":"1000","attributes":` + otlpKVs(`"openinference.span.kind"`, `{"stringValue":"llm"}`,
		`"gen_ai.response.time_to_first_chunk"`, `{"doubleValue":0.5}`) + `,"events":[{"timeUnixNano":"x"}]}`),
	otlpOneSpan(`{"name":"chat","kind":1,"startTimeUnixNano":"1000","attributes":` + otlpKVs(`"openinference.span.kind"`, `{"stringValue":"CHAIN"}`) + `}`),
	otlpOneSpan(`{"name":"db","startTimeUnixNano":"1000"}`),
	otlpOneSpan(`{"name":"chat","attributes":` + otlpKVs(`"llm.request.type"`, `{"stringValue":"chat"}`) + `}`),
	otlpOneSpan(`null`) + otlpOneSpan(`7`),
	`{"resourceSpans":[{"resource":{"attributes":` + otlpKVs(`"host.name"`, `{"stringValue":"gpu-9"}`, `"service.name"`, `{"stringValue":"vllm"}`) +
		`},"scopeSpans":[{"scope":{"name":"s"},"spans":[` + otlpServer("", "") + `,` + otlpServer("", "") + `]},{"spans":null},{}]},` +
		`{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}],"resource":{"attributes":` + otlpKVs(`"service.instance.id"`, `{"stringValue":"i-1"}`) + `}}]}`,
	`{"resourceSpans":[{"instrumentationLibrarySpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"resource":null,"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":null}],"extra":{"a":[1,"2"]}}`,
	`{"resourceSpans":[],"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resource\u0053pans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"ResourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"ScopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[null,{}]}`, `{"resourceSpans":null}`, `{"resourceSpans":{}}`, `{"resourceSpans":[]}`,
	`{"resourceSpans":[]} x`, `{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", ""),
	"{\n  \"resourceSpans\": [\n  {\"scopeSpans\": [{\"spans\": [" + otlpServer("", "") + "]}]}\n  ]\n}",
	"[" + strings.TrimSpace(otlpOneSpan(otlpServer("", ""))) + "]",
	otlpServer("", ""),
	"{\"context\":{\"trace_id\":\"0x4bf92f3577b34da6a3ce929d0e0e4736\"},\"kind\":\"SpanKind.SERVER\",\"start_time\":\"2023-11-14T22:13:20Z\",\"attributes\":{\"gen_ai.latency.e2e\":1}}",
	"\n\nnot json\n{\"logs\":[]}\n",
}

func TestOTLPFastMatchesGeneral(t *testing.T) {
	for _, d := range otlpFastEdges {
		otlpRoutes(t, []byte(d))
	}
	otlpRoutes(t, []byte(strings.Join(otlpFastEdges, "\n")))
	if n := otlpFastRead([]byte(otlpOneSpan(otlpServer("", "")))); n != 1 {
		t.Errorf("the fast path did not read a plain vLLM span")
	}
	for _, p := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		otlpRoutes(t, data)
	}
	for _, host := range []string{"gpu-1", "gpu-2"} {
		gen := decodetest.FleetLog(t, decodetest.SmallFleet(), host)
		otlpRoutes(t, gen)
		if lines, read := bytes.Count(gen, []byte{'\n'}), otlpFastRead(gen); read != lines {
			t.Errorf("%s: the fast path read %d of %d lines", host, read, lines)
		}
	}
}

func TestOTLPParseInt(t *testing.T) {
	for _, s := range []string{"", "-", "+", "0", "-0", "+7", "102", "-9223372036854775808", "9223372036854775807",
		"9223372036854775808", "999999999999999999", "0000000000000000000001", "1_000", "12a", " 1", "0x10"} {
		checkOTLPParseInt(t, s)
	}
}

// checkOTLPParseInt compares otlpParseInt with strconv.ParseInt on s.
func checkOTLPParseInt(t *testing.T, s string) {
	want, err := strconv.ParseInt(s, 10, 64)
	if v, ok := otlpParseInt([]byte(s)); ok != (err == nil) || (ok && v != want) {
		t.Fatalf("otlpParseInt(%q) = %d, %v; ParseInt gives %d, %v", s, v, ok, want, err)
	}
}

func FuzzOTLPFast(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	for _, d := range otlpFastEdges {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		otlpRoutes(t, data)
		checkOTLPParseInt(t, string(data))
	})
}
