package tgi

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// tgiEdges are inputs at the edges of the format: their outputs were
// frozen in testdata/edges/edges.golden from the general route (regexps,
// strings and encoding/json) before it was deleted, after the reader had
// been fuzzed against it.
var tgiEdges = append(tgiEdgeLines, tgiEdgeLinesMore...)

// tgiEdgeLines are hand-made TGI lines: colour codes raw and as #033,
// quoted and escaped values, ids in outer spans, status codes, compound and
// bad durations, cut lines, errors of every kind, JSON records with odd
// types, cases, repeated keys and nested values.
var tgiEdgeLines = []string{
	`2026-11-23T10:00:06.684079Z  INFO generate_stream{parameters=GenerateParameters { best_of: None, temperature: Some(0.7), top_p: Some(0.95), max_new_tokens: Some(1024), stop: ["</s>"], details: false, seed: None } total_time="3.463885359s" validation_time="2.0528ms" queue_time="7.151227ms" inference_time="3.454681332s" time_per_token="30.572401ms" seed="None"}: text_generation_router::server: router/src/server.rs:512: Success`,
	"\x1b[2m2026-11-23T10:00:06.684079Z\x1b[0m \x1b[32m INFO\x1b[0m \x1b[1mgenerate\x1b[0m\x1b[1m{\x1b[0mtotal_time=\"1s\" inference_time=\"0.5s\" time_per_token=\"0ns\"\x1b[1m}\x1b[0m\x1b[2m:\x1b[0m \x1b[2mtext_generation_router::server\x1b[0m\x1b[2m:\x1b[0m \x1b[2mrouter/src/server.rs\x1b[0m\x1b[2m:\x1b[0m\x1b[2m598:\x1b[0m Success",
	"#033[2m2026-11-23T10:00:06Z#033[0m  INFO chat_completions{total_time=\"1m5.3s\" validation_time=\"2.5ms\" queue_time=\"3.1s\" inference_time=\"1m2.1975s\" time_per_token=\"60.3ms\"}: text_generation_router::server: router/src/server.rs:598: Success",
	`2026-11-23T10:00:01.500000Z  INFO HTTP request{http.client.address=10.0.0.5 http.request.method=POST http.route=/generate_stream?x network.protocol.version=1.1 otel.kind=Server otel.name=POST /generate_stream url.path=/u http.status_code=201 http.response.status_code="abc" request_id="r\"1" trace_id=4BF92F3577B34DA6A3CE929D0E0E4736}:generate_stream{parameters=GenerateParameters { stop: ["}\"x", "\n"] } total_time="1.234567s" validation_time="1.2ms" queue_time="25.3µs" inference_time="1.2s" time_per_token="40ms" seed="None"}: text_generation_router::server: router/src/server.rs:598: Success`,
	`2026-11-23T10:00:03.250000Z ERROR HTTP request{http.request.method=POST http.route=/v1/chat/completions otel.name=POST /v1/chat/completions trace_id=00f067aa0ba902b700f067aa0ba902b7 request_id=x}:chat_completions:async_stream: text_generation_router::infer: router/src/infer/mod.rs:126: Input validation error: too long`,
	`2026-11-23T10:00:03.000000Z ERROR generate_stream{parameters=P { }}:async_stream: text_generation_router::infer: router/src/infer/mod.rs:105: Model is overloaded`,
	`2026-11-23T10:00:04.000000Z ERROR generate_stream{parameters=P { }}: text_generation_router::server: router/src/server.rs:720: Incomplete generation`,
	`2026-11-23T10:00:04.000000Z ERROR generate{}: text_generation_router::infer: a.rs:1: Request failed during generation: Server error: CUDA out of memory`,
	`2026-11-23T10:00:04.000000Z ERROR compat_generate: x::y: Template error: bad`,
	`2026-11-23T10:00:04.000000Z ERROR vertex_compatibility{}: Tool error: x`,
	`2026-11-23T10:00:04.000000Z ERROR generate{}: something else`,
	`2026-11-23T10:00:04.000000Z ERROR generate{total_time="1.5s"}: a.rs:1: Incomplete generation`,
	`2026-11-23T10:00:04.000000Z ERROR generate{total_time="1.5xs"}: a.rs:1: Incomplete generation`,
	`2026-11-23T10:00:04.100000Z  WARN generate_stream{parameters=P { }}: text_generation_router::validation: router/src/validation.rs:300: best_of is ignored`,
	`2026-11-23T10:00:05.000000Z  INFO generate{total_time="12.5xs" validation_time="1ms"}: text_generation_router::server: router/src/server.rs:410: Success`,
	`2026-11-23T10:00:05.000000Z  INFO generate{total_time="" validation_time="1ms"}: a: Success`,
	`2026-11-23T10:00:05.000000Z  INFO generate{total_time="5s" validation_time="1ms"}: a: b.rs:1: Successful`,
	`2026-11-23T10:00:05.000000Z  INFO generate{total_time="5s" total_time="6s"}: a: b.rs:x: Success`,
	`2026-11-23T10:00:05.000000Z  INFO other{total_time="5s"}:inner{k=v}: a: b.rs:1: Success`,
	`2026-11-23T10:00:05.000000Z  INFO generate{total_time="5s"`,
	`2026-11-23T10:00:05.000000Z  DEBUG generate{parameters=P { }}: text_generation_router::server: router/src/server.rs:291: Input: Who made you`,
	`and why? total_time=`, `and why?`,
	`2026-11-23T10:00:06.000000Z ERROR text_generation_router::server: router/src/server.rs:1000: Failed to connect to shard`,
	`2026-11-23T09:59:58.000000Z  INFO text_generation_launcher: Args { model_id: "bigscience/bloom-560m" }`,
	`2026-11-23T09:59:58Z INFO`, `2026-11-23T09:59:58Z LOUD x`, `2026-13-23T09:59:58Z INFO x`, `2026-11-23 09:59:58 INFO x`,
	"2026-11-23T10:00:05.000000Z\tINFO generate{total_time=\"5s\"}: a: Success",
	`{"timestamp": "2026-11-23T12:00:00.000000Z", "level": "INFO", "message": "Connected", "target": "text_generation_router::server", "filename": "router/src/server.rs", "line_number": 2266}`,
	`{"timestamp": "2026-11-23T12:00:01.000000Z", "level": "INFO", "message": "Success", "target": "t", "span": {"inference_time": "950ms", "name": "generate_stream", "queue_time": "40ms", "seed": "None", "time_per_token": "50ms", "total_time": "1s", "validation_time": "10ms"}, "spans": [{"http.request.method": "POST", "http.route": "/generate_stream", "name": "HTTP request", "trace_id": "0AF7651916CD43DD8448EB211C80319C", "http.status_code": 200}, {"inference_time": "950ms", "name": "generate_stream", "total_time": "1s", "time_per_token": "50ms"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "INFO", "fields": {"message": "Success"}, "span": {"name": "generate", "total_time": "1s", "inference_time": 2, "time_per_token": null}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "INFO", "message": null, "fields": {"message": "Success", "message": 5}, "span": {"name": "generate", "total_time": "1s"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "Model is overloaded", "spans": [{"name": "generate_stream", "request_id": "r-\u00e9", "url.path": "/v1/x?y", "http.response.status_code": 429.0}], "span": {"name": "x"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [], "span": {}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": 5, "total_time": 1e400}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate", "total_time": 1.50}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate", "p": {"a": 1}}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "Level": "ERROR", "message": "x", "spans": [{"name": "generate"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "error", "message": "x", "spans": [{"name": "generate", "name": "generate_stream"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "INFO", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}]}`,
	`{"timestamp": 5, "level": "ERROR"}`, `{"timestamp": "x", "level": "ERROR"}`, `{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x"} x`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [null]}`, `{"timestamp"`,
	``, ` `, "\x1b[0m", `  2026-11-23T10:00:05.000000Z  INFO generate{total_time="5s"}: a: Success`,
}

// tgiEdgeLinesMore are lines the fast path left to the general route:
// white space around records, JSON keys folded, escaped and repeated, spans
// merged, nested values, numbers beyond float64, deep nesting, times out of
// range or in forms only time.Parse reads, invalid UTF-8.
var tgiEdgeLinesMore = []string{
	"\u00a0" + `{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "Model is overloaded", "spans": [{"name": "generate"}]}` + "\u00a0 ",
	"\u00a0 2026-11-23T10:00:05.000000Z  INFO generate{total_time=\"5s\"}: a: Success",
	" \t 2026-11-23T10:00:05.000000Z  INFO generate{total_time=\"5s\"}: a: Success \t",
	`{"TIMESTAMP": "2026-11-23T12:00:01Z", "timestamp": "2026-11-23T12:00:02Z", "LEVEL": "error", "Message": "x", "SPANS": [{"name": "generate"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "le\u0076el": " error ", "message": "x", "spans": [{"n\u0061me": "generate", "tot\u0061l_time": "1s"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "span": {"name": "generate", "total_time": "1s"}, "span": {"queue_time": "1ms"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "span": {"name": "generate", "total_time": "1s"}, "span": null, "span": {"request_id": "r"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "span": {"name": "generate"}, "spans": []}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate", "total_time": "1s"}, {"request_id": "a"}], "spans": [{"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate", "total_time": "1s"}, {"request_id": "a"}], "spans": [null], "spans": [{}, {"name": "generate_stream"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}], "spans": [], "spans": [{"request_id": "b"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}], "spans": null, "span": {"name": "generate_stream"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}], "spans": [{"request_id": "b"}, 7]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}], "spans": [{"request_id": "b"}, {"x": 1e999}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": {}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "span": []}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "fields": []}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": 5, "message": "x"}`, `{"timestamp": null, "level": "ERROR"}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": true}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "message": null, "fields": {"message": "Model is overloaded"}, "spans": [{"name": "generate"}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "INFO", "fields": {"message": "Success"}, "fields": {"x": 1}, "span": {"name": "generate", "total_time": "1s"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "INFO", "fields": {"message": "Success"}, "fields": null, "span": {"name": "generate", "total_time": "1s"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "INFO", "fields": {"mess\u0061ge": "Success", "x": [1, {"y": 1e400}]}, "span": {"name": "generate", "total_time": "1s"}}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate", "trace_id": {"b": 1, "a": "<x>"}, "request_id": [1, 2.50, "é"], "p": {"q": [null, true]}}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": ["generate"], "total_time": {"s": 1}}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate", "request_id": 12345678901234567890, "http.status_code": 4.29e2, "url.path": -0}]}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "x": ` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "x": ` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x", "x": 1e999, "spans": [{"name": "generate"}]}`,
	`{"timestamp": "2026\u002d11-23T12:00:01Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}]}`,
	`{"timestamp": "2026-11-23T12:00:01+05:30", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}]}`,
	`{"timestamp": "2026-11-23T12:00:01.1234567891Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}]}`,
	`{"timestamp": "2300-01-01T00:00:00Z", "level": "ERROR", "message": "x", "spans": [{"name": "generate"}]}`,
	`{"timestamp": "1600-01-01T00:00:00Z", "level": "INFO", "message": "Success", "spans": [{"name": "generate", "total_time": "1s"}]}`,
	`{"timestamp": "2300-01-01T00:00:00Z", "level": "INFO", "message": "Started"}`,
	`{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR", "message": "x` + "\xff" + `", "spans": [{"name": "generate", "request_id": "r` + "\xfe" + `", "k` + "\xff" + `": 1}]}`,
	`{"level": "ERROR", "message": "\"timestamp\""}`, `{"timestamp": "2026-11-23T12:00:01Z", "level": "ERROR"`, `{"timestamp":"2026-11-23T12:00:01Z","level":"ERROR","message":"x","spans":[{"name":"generate"}]}   x`,
	`2300-01-01T00:00:00Z ERROR generate{total_time="1s"}: a: Incomplete generation`,
	`1600-01-01T00:00:00Z  INFO generate{total_time="1s"}: a: Success`,
	`2300-01-01T00:00:00Z  INFO text_generation_launcher: Starting`,
	`2026-11-23T10:00:00,5Z ERROR generate{}: a: Incomplete generation`,
	`2026-11-23t10:00:00z ERROR generate{}: a: Incomplete generation`,
	`2026-11-23T23:59:60Z ERROR generate{}: a: Incomplete generation`,
	`2026-11-23T10:00:00.123456789123Z ERROR generate{}: a: Incomplete generation`,
	`2026-11-23T10:00:00+01:00 ERROR generate{}: a: Incomplete generation`,
	`2026-11-23T10:00:00Z ERROR generate{request_id="a` + "\xff" + `" total_time="1` + "\xff" + `s"}: a: Incomplete generation ` + "\xfe",
	`2026-11-23T10:00:00Z  INFO generate{total_time="1s" queue_time="` + "\xff" + `"}: a: Success`,
	`2026-11-23T10:00:00Z  INFO gen` + "\xff" + `{total_time="1s"}: a: Success`,
	"2026-11-23T10:00:00Z  INFO generate{total_time=\"1s\" request_id=\"\\u{e9}\\x41\\\"\"}: a: Success",
	"\x1b[31m2026-11-23T10:00:00Z\x1b[0m \x1b[1;2mINFO\x1b[ generate{total_time=\"1s\"}: a: Success #033[m",
	`2026-11-23T10:00:00Z  INFO generate{total_time="1s" url.path=/a?b http.route=/c}:inner{url.path=/d request_id=x}: a: Success`,
	`2026-11-23T10:00:00Z  INFO generate{total_time="1s"}: a: Success total_time=`,
	`2026-11-23T10:00:00Z  WARN generate{total_time="1s"}: a: Success`,
	`2026-11-23T10:00:00Z  INFO generate{total_time="0s" inference_time="1s" time_per_token="3ns"}: a: Success`,
	`{"timestamp":"2000-01-01T00:00:00Z","level":"","spans":[{"":1e700}]}`,
	`{"level": "INFO", "fields": {"message": "Success"}, "target": "t", "span": {"name": "generate", "total_time": "1s", "inference_time": "900ms", "time_per_token": "30ms"}, "timestamp": "2026-11-23T12:00:01Z"}`,
	`{"level": "ERROR", "timestamp": "2026-11-23T12:00:01Z", "fields": {"message": "Incomplete generation"}, "spans": [{"name": "generate", "total_time": "2ms"}]}`,
}

func TestTGIEdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, append(tgiEdges, strings.Join(tgiEdges, "\n")), "testdata/edges/edges.golden")
}
