package litellm

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// TestLiteLLMInstants checks hand-computed instants. 1795428000 s is
// 2026-11-23T10:00:00Z.
func TestLiteLLMInstants(t *testing.T) {
	cases := []struct {
		name, rec         string
		start, first, end int64 // ns; -1 = nil
		stream            string
	}{
		// 0.4105 s after 10:00:00 = 410500000 ns; float64 would give …410499999.
		{"streaming", `{"stream":true,"startTime":1795428000.123456,"endTime":1795428004.5,"completionStartTime":1795428000.4105}`,
			1795428000123456000, 1795428000410500000, 1795428004500000000, "true"},
		{"not streaming: completionStartTime = endTime", `{"stream":false,"startTime":1795428001.0,"endTime":1795428002.25,"completionStartTime":1795428002.25}`,
			1795428001000000000, -1, 1795428002250000000, "false"},
		{"stream flag absent, first chunk before end", `{"startTime":1795428005,"endTime":1795428007,"completionStartTime":1795428005.25}`,
			1795428005000000000, 1795428005250000000, 1795428007000000000, "true"},
		{"stream flag absent, equal times", `{"startTime":1795428005,"endTime":1795428007,"completionStartTime":1795428007}`,
			1795428005000000000, -1, 1795428007000000000, "nil"},
		{"first chunk outside the call is ignored", `{"stream":true,"startTime":1795428005,"endTime":1795428007,"completionStartTime":1795428009}`,
			1795428005000000000, -1, 1795428007000000000, "true"},
		{"spend-log ISO dates", `{"startTime":"2026-11-23T10:00:00.123Z","endTime":"2026-11-23T10:00:02.623+00:00","completionStartTime":"2026-11-23T10:00:00.373Z"}`,
			1795428000123000000, 1795428000373000000, 1795428002623000000, "true"},
		// A zone-less date is read in the TZ option, UTC here.
		{"spend-log naive dates", `{"startTime":"2026-11-23 10:00:05.000","endTime":"2026-11-23 10:00:05.900"}`,
			1795428005000000000, -1, 1795428005900000000, "nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r litellmRecord
			if err := json.Unmarshal([]byte(c.rec), &r); err != nil {
				t.Fatal(err)
			}
			b := &newLiteLLMReader().build
			if reason, _ := r.event(time.UTC, b); reason != "" {
				t.Fatal(reason)
			}
			ev := &b.ev
			decodetest.CheckOffset(t, "start", ev.StartNs, 0, c.start)
			decodetest.CheckOffset(t, "first token", ev.FirstTokenNs, 0, c.first)
			decodetest.CheckOffset(t, "end", ev.EndNs, 0, c.end)
			got := "nil"
			if ev.Stream != nil {
				got = map[bool]string{true: "true", false: "false"}[*ev.Stream]
			}
			if got != c.stream {
				t.Errorf("stream %s, want %s", got, c.stream)
			}
		})
	}
}

// TestLiteLLMOutcome checks status, error class, tokens and ids.
func TestLiteLLMOutcome(t *testing.T) {
	cases := []struct {
		rec, class string
		status     int32 // 0 = nil
		out        int64 // -1 = nil
	}{
		{`{"status":"success","completion_tokens":220}`, "", 200, 220},
		{`{"status":"failure","completion_tokens":0,"error_information":{"error_code":"429","error_class":"RateLimitError"}}`, schema.ErrorRateLimited, 429, -1},
		{`{"status":"failure","error_information":{"error_code":400,"error_class":"BadRequestError"}}`, schema.ErrorClient, 400, -1},
		{`{"status":"failure","error_information":{"error_class":"Timeout"}}`, schema.ErrorTimeout, 0, -1},
		{`{"status":"failure","error_information":{"error_code":"None","error_class":"APIConnectionError"}}`, schema.ErrorServer, 0, -1},
		{`{"metadata":{"status":"success"},"completion_tokens":3}`, "", 200, 3},
	}
	for _, c := range cases {
		var r litellmRecord
		if err := json.Unmarshal([]byte(c.rec), &r); err != nil {
			t.Fatal(err)
		}
		r.StartTime = json.RawMessage("1795428000")
		b := &newLiteLLMReader().build
		r.event(time.UTC, b)
		ev := &b.ev
		if ev.Error != c.class || (ev.Status == nil) != (c.status == 0) || ev.Status != nil && *ev.Status != c.status {
			t.Errorf("%s: class %q status %v", c.rec, ev.Error, ev.Status)
		}
		decodetest.CheckOffset(t, "output tokens", ev.OutputTokens, 0, c.out)
	}
}

// TestLiteLLMNoText checks that prompt, output and error text never reach an
// event: the testdata carries "SECRET" in messages, response and error_str.
func TestLiteLLMNoText(t *testing.T) {
	rec, err := decodetest.DecodeFile(t, Format{}, "testdata/standard_logging_payload.jsonl")
	if err != nil || len(rec.Events) != 5 || rec.Total() != 8 {
		t.Fatalf("err %v, %d events, %d records", err, len(rec.Events), rec.Total())
	}
	b, _ := json.Marshal(rec.Events)
	if bytes.Contains(b, []byte("SECRET")) {
		t.Error("text from messages/response/error_str reached an event")
	}
}

// TestDecimalScaled checks the exact decimal parser.
func TestDecimalScaled(t *testing.T) {
	cases := []struct {
		s     string
		scale int
		want  int64
		ok    bool
	}{
		{"1795428000.4105", 9, 1795428000410500000, true},
		{"1795428000.123456789123", 9, 1795428000123456789, true}, // extra digits truncated
		{"12.5", 6, 12500000, true},
		{"-1", 6, -1000000, true},
		{"85", 6, 85000000, true},
		{"1e3", 6, 1000000000, true},
		{"", 6, 0, false},
		{"1.2.3", 6, 0, false},
		{"12x", 6, 0, false},
		{"99999999999999999999", 6, 0, false},
	}
	for _, c := range cases {
		got, ok := textscan.DecimalScaled(c.s, c.scale)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("decimalScaled(%q, %d) = %d, %v; want %d, %v", c.s, c.scale, got, ok, c.want, c.ok)
		}
	}
}

func TestLiteLLMSniff(t *testing.T) {
	yes := []string{
		`{"id":"chatcmpl-1","call_type":"acompletion","startTime":1.5,"endTime":2.5,"completionStartTime":2.0}`,
		"[\n  {\n    \"request_id\": \"chatcmpl-7\",\n    \"call_type\": \"acompletion\",\n    \"startTime\": \"2026-11-23T10:00:00Z\",\n    \"endTime\": \"2026-11-23T10:00:01Z\"",
	}
	no := []string{
		`{"request_id":"9f1c","start":"2026-11-23T10:00:00.123456Z","end_ms":4120.5,"chunks":[]}`,
		`{"start_time":"2025-08-30T16:51:37.894Z","response_flags":"-","duration":1}`,
		`{"log":{"version":"1.2","entries":[]}}`,
		`{"startTime":1,"endTime":2}`,
	}
	for _, s := range yes {
		if !(Format{}).Sniff([]byte(s)) {
			t.Errorf("not sniffed: %s", s)
		}
	}
	for _, s := range no {
		if (Format{}).Sniff([]byte(s)) {
			t.Errorf("wrongly sniffed: %s", s)
		}
	}
}

func FuzzLiteLLM(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		rec := &decodetest.Recorder{}
		_ = (Format{}).Decode(&decode.Input{R: bytes.NewReader(data)}, rec)
		for _, e := range rec.Events {
			if e.Event.StartNs == nil {
				t.Fatal("event without start")
			}
		}
	})
}
