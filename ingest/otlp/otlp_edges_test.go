package otlp

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

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

// otlpEdges are inputs at the edges of the format: their outputs were
// frozen in testdata/edges/edges.golden from the general route (encoding/json)
// before it was deleted, after the reader had been fuzzed against it.
var otlpEdges = append(otlpEdgesFirst, otlpEdgesMore...)

// otlpEdgesFirst were the fast path's route-agreement inputs.
var otlpEdgesFirst = []string{
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

// otlpEdgesMore are documents the fast path handed to the general route:
// other dialects, reordered, repeated, escaped and case-folded keys, values
// of the wrong type, BOM, bad times, invalid UTF-8, deep nesting, cut lines.
var otlpEdgesMore = []string{
	"\ufeff" + otlpOneSpan(otlpServer("", "")),
	otlpOneSpan(`{"status":{"code":1},"attributes":` + otlpKVs(`"gen_ai.latency.e2e"`, `{"doubleValue":2}`) +
		`,"endTimeUnixNano":"9","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"5","name":"n","spanId":"00f067aa0ba902b7"}`),
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}],"resource":{"attributes":` +
		otlpKVs(`"host.name"`, `{"stringValue":"h2"}`) + `}}],"x":1}`,
	// repeated keys: decoded one over the other
	otlpOneSpan(otlpServer("", `,"attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":3}}]`)),
	otlpOneSpan(otlpServer("", `,"attributes":[{"value":{"intValue":"4"}},{"key":"llm.x"}]`)),
	otlpOneSpan(otlpServer("", `,"attributes":[{"key":"a"},{},{},{},{},{},{},{}],"attributes":[{"key":"gen_ai.request.id"}]`)),
	otlpOneSpan(otlpServer("", `,"attributes":null,"attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":3}}]`)),
	otlpOneSpan(otlpServer("", `,"attributes":[]`)),
	otlpOneSpan(otlpServer("", `,"attributes":[],"attributes":[{"key":"gen_ai.latency.e2e"}]`)),
	otlpOneSpan(otlpServer("", `,"attributes":[null,{"key":"x","value":{"stringValue":1}}]`)),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"stringValue":"r9"},"key":"gen_ai.request.model"}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"stringValue":"r9"},"value":{"intValue":"3"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"stringValue":"r9"},"value":null,"key":null}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"stringValue":"r9","stringValue":null}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"boolValue":true,"boolValue":null,"intValue":"5"}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"a"},{"stringValue":"b"}]},"arrayValue":{"values":[{"intValue":"1"}]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"a"},{"stringValue":"b"}]},"arrayValue":null,"arrayValue":{}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"a"}],"values":[{"boolValue":true},{"stringValue":"c"}],"values":[{}]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"a"}],"values":[]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":{}}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":7}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[1]}}}`, "")),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.response.finish_reasons","value":{"kvlistValue":{"values":[{"key":"a"}]},"arrayValue":{"values":[null]}}}`, "")),
	otlpOneSpan(otlpServer("", `,"name":null,"traceId":"4bf92f3577b34da6a3ce929d0e0e4737","status":{"code":2},"status":null`)),
	otlpOneSpan(otlpServer("", `,"kind":"SPAN_KIND_BOGUS","kind":2,"startTimeUnixNano":"x","startTimeUnixNano":"77"`)),
	otlpOneSpan(otlpServer("", `,"kind":null,"endTimeUnixNano":null`)),
	otlpOneSpan(otlpServer("", `,"status":{"code":"x"},"status":{"Code":1}`)),
	otlpOneSpan(otlpServer("", `,"status":{"code":"x"},"status":{"message":"m"}`)),
	otlpOneSpan(otlpServer("", `,"\u212aind":3,"NAME":"up","ATTRIBUTES":[{"KEY":"gen_ai.request.id","VALUE":{"STRINGVALUE":"k"}}]`)),
	otlpOneSpan(otlpServer("", `,"events":[{"name":"First Token Stream Event","timeUnixNano":"1000000100000"}],"events":[{"timeUnixNano":"x"}]`)),
	otlpOneSpan(otlpServer("", `,"events":[{"name":"e1"},{"name":"e2","timeUnixNano":"3"}],"events":[{"timeUnixNano":"1"}],"events":[{},{}]`)),
	otlpOneSpan(otlpServer("", `,"events":[{"name":"e1","name":null,"timeUnixNano":"4","timeUnixNano":"x"}]`)),
	otlpOneSpan(otlpServer("", `,"events":[{"attributes":[{"key":"chunk.type","value":{"stringValue":"ping"}}],"attributes":[{"key":"chunk.type"}]}]`)),
	otlpOneSpan(otlpServer("", `,"events":null,"events":[null,7]`)),
	otlpOneSpan(otlpServer("", `,"events":{}`)),
	otlpOneSpan(otlpServer("", `,"events":[{"name":1}]`)),
	otlpOneSpan(otlpServer("", `,"events":[{"attributes":{}}]`)),
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}],"scopeSpans":[{"spans":[]},{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]},{}],"scopeSpans":[{}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]},{"spans":[7]}],"scopeSpans":[]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `],"spans":[null,"x"]}]}]}`,
	`{"resourceSpans":[{"instrumentationLibrarySpans":[{"spans":[{"name":"lib"}]}],"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}],` +
		`"instrumentationLibrarySpans":[{"spans":[null]},{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"instrumentationLibrarySpans":null,"scopeSpans":null,"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"resource":{"attributes":[{"key":"host.name","value":{"stringValue":"a"}}]},"resource":{"attributes":[{"value":{"stringValue":"b"}}]},` +
		`"resource":null,"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"resource":{"attributes":[{"key":"host.name","value":{"stringValue":1}}]},"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"resource":[],"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":{}}]}`, `{"resourceSpans":[{"scopeSpans":[{"spans":{}}]}]}`, `{"resourceSpans":[7]}`,
	`{"resourceSpans":[{"instrumentationLibrarySpans":"x"}]}`, `{"resourceSpans":"x"}`, `{"resourceSpans":[{"scopeSpans":[1]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[null,7,"x",[],{}]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"Spans":[` + otlpServer("", "") + `]}],"RESOURCE":{"Attributes":[{"key":"host.name","value":{"stringValue":"up"}}]}}]}`,
	`{"resource\u0053pans":[],"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}]}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}],"resourceSpans":null}`,
	`{"resourceSpans":[{"scopeSpans":[{"spans":[` + otlpServer("", "") + `]}]}],"resourceSpans":7}`,
	`{"resourceSpans":[],"context":{}}`, `{"context":null}`, `{"spanId":null}`, `{"kind":1,"attributes":null}`, `{"kind":1}`,
	// invalid UTF-8 and escapes
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.id","value":{"stringValue":"a`+"\xff"+`b\u00e9\ud800"}}`, `,"name":"n`+"\xc3"+`"`)),
	otlpOneSpan(otlpServer(`{"key":"gen_ai.request.`+"\xff"+`id","value":{"stringValue":"x"}},{"key":"gen_ai\u002erequest.model","value":{"stringValue":"y"}}`, "")),
	"{\"resource\xffSpans\":[]}", "{\"resourceSpans\":[],\"\xff\":1}",
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"00f067aa0ba902b7"`, `"00F067AA0BA902B`+"\xff"+`"`, 1)),
	// times and enums
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `"9223372036854775807"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `"9223372036854775808"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `" 1000000000000"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `true`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"1000000000000"`, `{"a":1}`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":"SPAN_KIND_UNSPECIFIED"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":"server"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":"2"`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":[2]`, 1)),
	otlpOneSpan(strings.Replace(otlpServer("", ""), `"kind":2`, `"kind":1e0`, 1)),
	// nesting, dialects, documents
	`{"resourceSpans":[],"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"resourceSpans":[],"x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	"[]", "[ ]", "[1, {\"resourceSpans\":[]}, [], \"x\"]", "[{\"context\":{\"trace_id\":\"0x1\"},\"start_time\":\"bad\"}, " + otlpServer("", "") + "]", "[1,",
	"{\n\"context\":{\"trace_id\":\"0x1\"},\"kind\":\"SpanKind.SERVER\",\"start_time\":\"x\"}\n[1,{\"]\n",
	"{\"context\":{\"trace_id\":\"0x4bf92f3577b34da6a3ce929d0e0e4736\"},\"kind\":\"SpanKind.CLIENT\",\"start_time\":\"2023-11-14T22:13:20Z\"," +
		"\"attributes\":{\"gen_ai.request.model\":\"m\"},\"events\":[{\"name\":\"llm.content.completion.chunk\",\"timestamp\":\"2023-11-14T22:13:21Z\"}]}",
	"{\"context\":{\"trace_id\":1}}", "{\"context\":{},\"start_time\":\"2023-13-14T22:13:20Z\",\"attributes\":{\"llm.x\":1}}",
	"  " + otlpServer("", "") + "  \n" + otlpServer("", ""),
	"{\"kind\":2,\"attributes\":[{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":1}}],\"startTimeUnixNano\":\"5\"}",
	strings.TrimSpace(otlpOneSpan(otlpServer("", ""))) + strings.TrimSpace(otlpOneSpan(otlpServer("", ""))),
	strings.TrimSpace(otlpOneSpan(otlpServer("", "")))[:200] + "\n" + otlpOneSpan(otlpServer("", "")),
	"{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[{\"key\":\"\",\"value\":{\"doubleValue\":",
	"{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[{\"key\":\"\",\"value\":{\"doubleValue\":1}}]}]}]}]}\n",
	"{\"resourceSpans\":[],\"a\":\"\x01\"}", "{\"resourceSpans\":[],\"a\":01}", "{\"resourceSpans\":[],}",
	"\n}\n]\n{\n",
	// doubleValues parsed as they are skipped: given twice, out of range, with an exponent, negative, bad.
	otlpOneSpan(`{"traceId":"7c009c86535400438082d653206ccbee","kind":2,"startTimeUnixNano":"1795428002190144265","attributes":[` +
		`{"key":"gen_ai.latency.e2e","value":{"doubleValue":2.5,"doubleValue":null}},` +
		`{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":null,"doubleValue":0.25}},` +
		`{"key":"gen_ai.latency.time_in_queue","value":{"doubleValue":1e400}},` +
		`{"key":"gen_ai.latency.time_in_model_prefill","value":{"doubleValue":125e-3}},` +
		`{"key":"gen_ai.latency.time_in_model_decode","value":{"doubleValue":-0.0}}]}`),
	otlpOneSpan(`{"kind":2,"startTimeUnixNano":"1795428002190144265","attributes":[` +
		`{"key":"gen_ai.latency.e2e","value":{"doubleValue":-1.5}}]}`),
	otlpOneSpan(`{"kind":2,"startTimeUnixNano":"1795428002190144265","attributes":[` +
		`{"key":"gen_ai.latency.e2e","value":{"doubleValue":01}}]}`),
	otlpOneSpan(`{"kind":2,"startTimeUnixNano":"9223372036854775808","attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":1}}]}`),
	otlpOneSpan(`{"kind":2,"startTimeUnixNano":9223372036854775807,"endTimeUnixNano":"-1","attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":1}}]}`),
}

func TestOTLPEdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, append(otlpEdges, strings.Join(otlpEdges, "\n")), "testdata/edges/edges.golden")
}

func FuzzOTLPParseInt(f *testing.F) {
	f.Add("-9223372036854775808")
	f.Fuzz(checkOTLPParseInt)
}

func TestOTLPParseInt(t *testing.T) {
	for _, s := range []string{"", "-", "+", "0", "-0", "+7", "102", "-9223372036854775808", "9223372036854775807",
		"9223372036854775808", "999999999999999999", "0000000000000000000001", "1_000", "12a", " 1", "0x10",
		"1795428002190144265", "9999999999999999999", "-9999999999999999999", "-9223372036854775809", "+9223372036854775807",
		"1000000000000000000", "-1000000000000000000", "179542800219014426a"} {
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
