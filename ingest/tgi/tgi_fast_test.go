package tgi

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

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

// checkTGILine decodes one line by the fast path and, when it takes the
// line, by the general route: both must tell the sink the same.
func checkTGILine(t *testing.T, f *tgiFast, line []byte) bool {
	in := &decode.Input{Name: "router.log", Host: "h"}
	var a, b decodetest.Recorder
	if !f.line(in, &a, 5, line) {
		if a.Total() != 0 {
			t.Fatalf("%q: fast path declined after reporting %+v", line, a)
		}
		return false
	}
	tgiLine(in, &b, 5, line)
	decodetest.RecordersAgree(t, line, &a, &b)
	return true
}

func TestTGIFastMatchesGeneral(t *testing.T) {
	f := &tgiFast{}
	took := 0
	for _, line := range tgiEdgeLines {
		if checkTGILine(t, f, []byte(line)) {
			took++
		}
	}
	if took < 25 {
		t.Errorf("the fast path took %d lines", took)
	}
	decodetest.RoutesAgree(t, tgiDecode, decode.Options{}, []byte(strings.Join(tgiEdgeLines, "\n")))
	for _, path := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		decodetest.RoutesAgree(t, tgiDecode, decode.Options{}, data)
		for _, line := range bytes.Split(data, []byte("\n")) {
			checkTGILine(t, f, line)
		}
	}
	data := decodetest.BenchLog(&testing.B{}, "gpu-3")
	decodetest.RoutesAgree(t, tgiDecode, decode.Options{}, data)
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if !checkTGILine(t, f, line) {
			t.Errorf("line %d: the fast path declined %q", i+1, line)
		}
	}
}

func FuzzTGIFast(f *testing.F) {
	for _, line := range tgiEdgeLines {
		f.Add(line)
	}
	fast := &tgiFast{}
	f.Fuzz(func(t *testing.T, line string) {
		checkTGILine(t, fast, []byte(line))
	})
}
