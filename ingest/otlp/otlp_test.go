package otlp

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// The goldens of testdata/otlp were checked by hand against the inputs:
// vllm_sglang.jsonl line 1, first span: start 1700000000000000000 ns;
// ttft 0.25 s → first token 1700000000250000000; e2e 2.3 s → end
// 1700000002300000000 (the span's own end, 1700000002400000000, is the export
// time and is not used); decode 2.05 s → last token 0.25 + 2.05 = 2.3 s after
// start = 1700000002300000000; queue 0.012 s = 12000000 ns. Line 2 (SGLang):
// host from service.instance.id "sglang-0"; ttft 0.8 s → 1700000010800000000.
// vllm_pretty.json: base64 ids W/kvNXezTaajzpKdDg5HNg== → 4bf92f35…4736, a
// JSON-number start, no e2e → end = span end 1700000031000000000.
// client_spans.jsonl line 1: First Token Stream Event at 1700000000320000000
// (client TTFT 370 ms after start 1699999999950000000); line 2: first
// OpenLLMetry chunk event at start + 100 ms = 1700000000100000000; line 3:
// time_to_first_chunk 0.42 s → 1700000100420000000; line 4: Anthropic chunk
// events keep only the two content_block_delta ones, at +450 and +520 ms, so
// first token = 1700000201000000000 + 450 ms = 1700000201450000000.
// console_spans.txt: 2023-11-14T22:13:20Z = 1700000000 s; chunk events at
// .300, .450, .600 s give offsets 300/450/600 ms and first token
// 1700000000300000000.

func otlpDecodeString(t *testing.T, s string) *decodetest.Recorder {
	t.Helper()
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(s), Name: "t", Host: "fallback"}, rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// otlpOneSpan wraps one span's JSON in an ExportTraceServiceRequest line.
func otlpOneSpan(span string) string {
	return `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[` + span + `]}]}]}` + "\n"
}

func TestOTLPServerSpan(t *testing.T) {
	// start 1000 s; ttft 0.5 s → 1000.5 s; e2e 3 s → 1003 s; decode 2.25 s →
	// last token 1000.5 + 2.25 = 1002.75 s; queue 0.1 s; prefill 0.4 s.
	span := `{"traceId":"4BF92F3577B34DA6A3CE929D0E0E4736","spanId":"00f067aa0ba902b7","name":"llm_request","kind":2,
	"startTimeUnixNano":"1000000000000","endTimeUnixNano":"1009000000000",
	"attributes":[{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":0.5}},
	{"key":"gen_ai.latency.e2e","value":{"doubleValue":"3"}},
	{"key":"gen_ai.latency.time_in_queue","value":{"doubleValue":0.1}},
	{"key":"gen_ai.latency.time_in_model_prefill","value":{"doubleValue":0.4}},
	{"key":"gen_ai.latency.time_in_model_decode","value":{"doubleValue":2.25}},
	{"key":"gen_ai.usage.completion_tokens","value":{"intValue":"10"}}]}`
	rec := otlpDecodeString(t, otlpOneSpan(strings.ReplaceAll(span, "\n", "")))
	if len(rec.Events) != 1 {
		t.Fatalf("%+v", rec)
	}
	ev := rec.Events[0].Event
	want := map[string][2]any{
		"start": {ev.StartNs, int64(1000_000_000_000)}, "first": {ev.FirstTokenNs, int64(1000_500_000_000)},
		"last": {ev.LastTokenNs, int64(1002_750_000_000)}, "end": {ev.EndNs, int64(1003_000_000_000)},
		"queue": {ev.QueueNs, int64(100_000_000)}, "prefill": {ev.PrefillNs, int64(400_000_000)},
		"decode": {ev.DecodeNs, int64(2250_000_000)},
	}
	for name, w := range want {
		if p := w[0].(*int64); p == nil || *p != w[1].(int64) {
			t.Errorf("%s = %v, want %v", name, decodetest.Deref(p), w[1])
		}
	}
	if ev.Source != schema.SourceServer || ev.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || ev.Host != "fallback" {
		t.Errorf("source %q trace %q host %q", ev.Source, ev.TraceID, ev.Host)
	}
	if ev.OutputTokens == nil || *ev.OutputTokens != 10 || ev.OutputTokensSource != schema.TokensUsage {
		t.Errorf("output tokens %v %q", ev.OutputTokens, ev.OutputTokensSource)
	}
}

func TestOTLPSpanOutcomes(t *testing.T) {
	const start = `"startTimeUnixNano":"1000000000000","endTimeUnixNano":"1001000000000"`
	cases := []struct {
		name, span    string
		skip, reject  string
		source, class string
		firstToken    int64 // 0 = nil
		completed     bool
	}{
		{"error status by name", `{"kind":"SPAN_KIND_SERVER",` + start + `,"status":{"code":"STATUS_CODE_ERROR"},
			"attributes":[{"key":"gen_ai.request.id","value":{"stringValue":"r1"}}]}`, "", "", "server", "server_error", 0, false},
		{"http status decides class", `{"kind":3,` + start + `,"status":{"code":2},"attributes":[
			{"key":"gen_ai.request.model","value":{"stringValue":"m"}},{"key":"http.response.status_code","value":{"intValue":"503"}}]}`,
			"", "", "client", "server_error", 0, false},
		// 1000 s + 0.75 s time to first chunk.
		{"time to first chunk", `{"kind":"SPAN_KIND_CLIENT",` + start + `,"attributes":[
			{"key":"gen_ai.request.model","value":{"stringValue":"m"}},{"key":"gen_ai.response.time_to_first_chunk","value":{"doubleValue":0.75}}]}`,
			"", "", "client", "", 1000_750_000_000, true},
		{"internal with latency attrs is server", `{"kind":1,` + start + `,"attributes":[
			{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":0.001}}]}`, "", "", "server", "", 1000_001_000_000, true},
		{"not llm", `{"kind":2,` + start + `,"attributes":[{"key":"http.route","value":{"stringValue":"/"}}]}`,
			"not an LLM span", "", "", "", 0, false},
		{"openinference tool", `{"kind":1,` + start + `,"attributes":[{"key":"openinference.span.kind","value":{"stringValue":"TOOL"}},
			{"key":"llm.model_name","value":{"stringValue":"m"}}]}`, "not an LLM span", "", "", "", 0, false},
		{"negative ttft", `{"kind":2,` + start + `,"attributes":[{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":-1}}]}`,
			"", "bad duration", "", "", 0, false},
		{"bad kind", `{"kind":9,` + start + `,"attributes":[]}`, "", "bad enum", "", "", 0, false},
		{"bad token count", `{"kind":2,` + start + `,"attributes":[{"key":"gen_ai.usage.prompt_tokens","value":{"doubleValue":1.5}}]}`,
			"", "bad token count", "", "", 0, false},
		{"no start", `{"kind":2,"attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":1}}]}`,
			"", "missing start time", "", "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := otlpDecodeString(t, otlpOneSpan(strings.ReplaceAll(strings.ReplaceAll(c.span, "\n", ""), "\t", "")))
			if rec.Total() != 1 {
				t.Fatalf("%d records", rec.Total())
			}
			switch {
			case c.skip != "":
				if len(rec.Skips) != 1 || rec.Skips[0].Reason != c.skip {
					t.Errorf("want skip %q, got %+v", c.skip, rec)
				}
				return
			case c.reject != "":
				if len(rec.Rejects) != 1 || rec.Rejects[0].Reason != c.reject {
					t.Errorf("want reject %q, got %+v", c.reject, rec)
				}
				return
			}
			if len(rec.Events) != 1 {
				t.Fatalf("want event, got %+v", rec)
			}
			ev := rec.Events[0].Event
			if ev.Source != c.source || ev.Error != c.class || ev.Completed == nil || *ev.Completed != c.completed {
				t.Errorf("source %q class %q completed %v", ev.Source, ev.Error, ev.Completed)
			}
			if (c.firstToken == 0) != (ev.FirstTokenNs == nil) || ev.FirstTokenNs != nil && *ev.FirstTokenNs != c.firstToken {
				t.Errorf("first token %v, want %d", decodetest.Deref(ev.FirstTokenNs), c.firstToken)
			}
		})
	}
}

// TestOTLPDocuments checks how the input is split into documents and which
// line each span is reported on.
func TestOTLPDocuments(t *testing.T) {
	span := `{"kind":2,"startTimeUnixNano":"5","attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":1}}]}`
	pretty := "{\n  \"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [" + span + "," + span + "]}]}]\n}\n"
	in := "\n" + pretty + "[" + strings.TrimSpace(otlpOneSpan(span)) + ",[]]\n" +
		`{"resourceLogs":[]}` + "\n" + `{"resourceSpans":[]}` + "\n" + `{"resourceSpans":[],"a":"}"` + "\n" + `}` + "\n"
	rec := otlpDecodeString(t, in)
	var lines []int64
	for _, e := range rec.Events {
		lines = append(lines, e.Line)
	}
	// line 1 blank; lines 2-4 one pretty document with two spans; line 5 an
	// array of one request and a nested array (rejected); line 6 a logs
	// document and line 7 an empty request (no spans); lines 8-9 one object
	// whose "}" inside a string does not close it (no spans either).
	if got, want := lines, []int64{2, 2, 5}; !slicesEqual(got, want) {
		t.Errorf("event lines %v, want %v", got, want)
	}
	var skips []string
	for _, s := range rec.Skips {
		skips = append(skips, s.Reason)
	}
	if got := strings.Join(skips, ","); got != "blank line,not a trace document,no spans,no spans" {
		t.Errorf("skips %s", got)
	}
	if len(rec.Rejects) != 1 || rec.Rejects[0].Line != 5 || rec.Rejects[0].Reason != "not a trace document" {
		t.Errorf("rejects %+v", rec.Rejects)
	}
}

// TestOTLPBrokenLine checks that a JSON line cut short does not swallow the
// complete lines after it.
func TestOTLPBrokenLine(t *testing.T) {
	span := `{"kind":2,"startTimeUnixNano":"5","attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":1}}]}`
	good := otlpOneSpan(span)
	in := good + good[:40] + "\n" + good + good
	rec := otlpDecodeString(t, in)
	if len(rec.Events) != 3 || len(rec.Rejects) != 1 || rec.Rejects[0].Line != 2 || rec.Events[2].Line != 4 {
		t.Errorf("events %d rejects %+v", len(rec.Events), rec.Rejects)
	}
}

// TestOTLPTooLarge checks that an oversize multi-line document is rejected
// once and skipped to its end, and the document after it is read.
func TestOTLPTooLarge(t *testing.T) {
	span := `{"kind":2,"startTimeUnixNano":"5","attributes":[{"key":"gen_ai.latency.e2e","value":{"doubleValue":1}}]}`
	big := "{\n\"resourceSpans\": [\n" + strings.Repeat("  {},\n", 50) + "  {}\n]}\n" // over 300 bytes
	rec := &decodetest.Recorder{}
	d := &otlpDocs{in: &decode.Input{}, sink: rec, limit: 250}
	if err := decode.EachTextLine(strings.NewReader(big+otlpOneSpan(span)), d.line, func(int64) {}); err != nil {
		t.Fatal(err)
	}
	d.flushBroken("invalid json")
	// big takes lines 1-54; the good request is line 55.
	if len(rec.Rejects) != 1 || rec.Rejects[0].Reason != "document too large" || len(rec.Events) != 1 || rec.Events[0].Line != 55 {
		t.Errorf("rejects %+v events %d", rec.Rejects, len(rec.Events))
	}
}

func slicesEqual(a, b []int64) bool {
	return len(a) == len(b) && string(mustJSON(a)) == string(mustJSON(b))
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestOTLPNoContent checks that no prompt or completion text from the
// testdata (OpenInference input.value/llm.input_messages, OpenLLMetry
// gen_ai.prompt/completion) reaches an event.
func TestOTLPNoContent(t *testing.T) {
	for _, p := range decodetest.TestdataFiles(t, "testdata") {
		rec, err := decodetest.DecodeFile(t, Format{}, p)
		if err != nil {
			t.Fatal(err)
		}
		b := mustJSON(rec.Events)
		for _, text := range []string{"secret", "what is 2+2", "Hello, I'm a developer", "question text"} {
			if bytes.Contains(b, []byte(text)) {
				t.Errorf("%s: event carries text %q", p, text)
			}
		}
	}
}

func TestOTLPSniff(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		name, head string
		want       bool
	}{
		{"otlp request", read("testdata/vllm_sglang.jsonl"), true},
		{"pretty request", read("testdata/vllm_pretty.json"), true},
		{"console", read("testdata/console_spans.txt"), true},
		{"bare protojson span", read("testdata/ai-gateway_openinference_span.json"), true},
		{"nginx", read("../nginx/testdata/llm_gateway.log"), false},
		{"client jsonl", `{"request_id":"9f1c","start":"2026-11-23T10:00:00Z","chunks":[]}` + "\n", false},
		{"har", `{"log":{"version":"1.2","entries":[]}}`, false},
	}
	for _, c := range cases {
		if got := (Format{}).Sniff([]byte(c.head)); got != c.want {
			t.Errorf("%s: Sniff = %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzOTLP(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Add([]byte("{\n\"context\":{\"trace_id\":\"0x1\"},\"kind\":\"SpanKind.SERVER\",\"start_time\":\"x\"}\n[1,{\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		_ = Format{}.Sniff(data)
		rec := &decodetest.Recorder{}
		_ = Format{}.Decode(&decode.Input{R: bytes.NewReader(data), Host: "h"}, rec)
		for _, e := range rec.Events {
			if e.Event.StartNs == nil || e.Line < 1 {
				t.Fatalf("event without start or line: %+v", e)
			}
		}
		if len(bytes.TrimSpace(data)) > 0 && rec.Total() == 0 {
			t.Fatal("non-blank input reported no record")
		}
	})
}
