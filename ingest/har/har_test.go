package har

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// TestHARInstants checks headers and end against hand sums of the timings.
// startedDateTime 2026-11-23T10:00:00.123+01:00 is 1795424400.123 s.
func TestHARInstants(t *testing.T) {
	const start = int64(1795424400123000000)
	cases := []struct {
		name, timings, time string
		status              int
		headers, end        int64 // ns after start; -1 = nil
	}{
		// ssl (20) is inside connect: 1.5 + 30.25 + 0.5 + 250.75 = 283 ms; time = 1483 ms.
		{"ssl counted once", `{"blocked":1.5,"dns":-1,"connect":30.25,"ssl":20,"send":0.5,"wait":250.75,"receive":1200}`, "1483", 200, 283e6, 1483e6},
		// no time: end = 0.25 + 0.5 + 1 + 0.125 + 95 + 400 = 496.875 ms.
		{"end from the phases", `{"blocked":0.25,"dns":0.5,"connect":1,"send":0.125,"wait":95,"receive":400}`, "", 200, 96.875e6, 496.875e6},
		{"wait not applicable", `{"blocked":3,"dns":-1,"connect":-1,"send":0,"wait":-1,"receive":-1}`, "3", 200, -1, 3e6},
		{"no response", `{"blocked":4.119,"dns":-1,"connect":-1,"send":0,"wait":0,"receive":0}`, "4.119", 0, -1, 4.119e6},
		// Chrome's fractional ms are truncated to whole ns: 5.397000045 + 0.237 + 7.330000007 → 12964000 ns.
		{"fractional ms", `{"blocked":5.397000045232475,"dns":-1,"ssl":-1,"connect":-1,"send":0.2370000000000001,"wait":7.330000007074326,"receive":1.7019999795593321}`, "14.666000031866133", 304, 12964000, 14666000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := `{"startedDateTime":"2026-11-23T10:00:00.123+01:00","request":{"url":"https://x/v1/chat/completions"},"response":{"status":` +
				itoa(c.status) + `},"timings":` + c.timings
			if c.time != "" {
				raw += `,"time":` + c.time
			}
			ev := harOneEvent(t, raw+"}")
			decodetest.CheckOffset(t, "start", ev.StartNs, 0, start)
			decodetest.CheckOffset(t, "headers", ev.HeadersNs, start, c.headers)
			decodetest.CheckOffset(t, "end", ev.EndNs, start, c.end)
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// harOneEvent decodes a document of the one entry and returns its event.
func harOneEvent(t *testing.T, entry string) *schema.Event {
	t.Helper()
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: bytes.NewReader(harDoc(entry)), Name: "x"}, rec); err != nil || len(rec.Events) != 1 {
		t.Fatalf("%v: %+v", err, rec)
	}
	return &rec.Events[0].Event
}

// TestHARSSE checks chunk counting and completion on captured SSE bodies.
func TestHARSSE(t *testing.T) {
	cases := []struct {
		name, body string
		out        int64 // -1 = nil
		source     string
		completed  bool
	}{
		{"openai role, 2 content, finish, no usage", "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n" +
			"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n" +
			"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", 2, schema.TokensCounted, true},
		{"usage beats counting", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":9}}\n\ndata: [DONE]\n\n", 9, schema.TokensUsage, true},
		{"tool call chunk counts", "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0}]}}]}\n\ndata: {\"choices\":[{\"delta\":{\"tool_calls\":null}}]}\n\ndata: [DONE]\n\n", 1, schema.TokensCounted, true},
		{"cut stream", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n", 1, schema.TokensCounted, false},
		{"tgi generate_stream", "data:{\"token\":{\"id\":1,\"text\":\"a\",\"special\":false},\"generated_text\":null}\n\n" +
			"data:{\"token\":{\"id\":2,\"text\":\"</s>\",\"special\":true},\"generated_text\":\"a\",\"details\":{\"finish_reason\":\"eos_token\",\"generated_tokens\":2}}\n\n", 2, schema.TokensUsage, true},
		{"responses api", "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"a\"}\n\n" +
			"data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"usage\":{\"input_tokens\":5,\"output_tokens\":7}}}\n\n", 7, schema.TokensUsage, true},
		{"nothing but [DONE]", "data: [DONE]\n\n", -1, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := harOneEvent(t, `{"startedDateTime":"2026-11-23T10:00:00Z","request":{"url":"https://x/v1/chat/completions"},`+
				`"response":{"status":200,"content":`+harContent("text/event-stream", "", c.body)+`}}`)
			decodetest.CheckOffset(t, "output tokens", ev.OutputTokens, 0, c.out)
			if ev.OutputTokensSource != c.source || *ev.Completed != c.completed {
				t.Errorf("source %q completed %v", ev.OutputTokensSource, *ev.Completed)
			}
			if c.completed == (ev.Error == schema.ErrorInterrupted) {
				t.Errorf("error class %q", ev.Error)
			}
		})
	}
}

// TestHARFiles checks record accounting and that no text reaches an event.
func TestHARFiles(t *testing.T) {
	cases := []struct {
		file                   string
		events, skips, rejects int
	}{
		{"testdata/llm_chat.har", 6, 1, 1},
		{"testdata/mitmproxy_chrome.har", 3, 0, 0}, // endpoints opts file
		{"testdata/mitmproxy_insomnia.har", 0, 1, 0},
	}
	for _, c := range cases {
		rec, err := decodetest.DecodeFile(t, Format{}, c.file)
		if err != nil || len(rec.Events) != c.events || len(rec.Skips) != c.skips || len(rec.Rejects) != c.rejects {
			t.Errorf("%s: err %v, %d/%d/%d", c.file, err, len(rec.Events), len(rec.Skips), len(rec.Rejects))
		}
		b, _ := json.Marshal(rec)
		if bytes.Contains(b, []byte("SECRET")) {
			t.Errorf("%s: text reached an event", c.file)
		}
	}
	for _, bad := range []string{"", "[1,2]", `{"log":{"version":"1.2"}}`, "not json"} {
		if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(bad)}, &decodetest.Recorder{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestHARSniff(t *testing.T) {
	if !(Format{}).Sniff([]byte("{\n\t\"log\": {\n\t\t\"version\": \"1.2\",")) {
		t.Error("HAR not sniffed")
	}
	for _, s := range []string{`{"start_time":"2025-08-30T16:51:37.894Z","response_flags":"-"}`, `{"resourceSpans":[{"resource":{}}]}`, `[{"log":1}]`} {
		if (Format{}).Sniff([]byte(s)) {
			t.Errorf("wrongly sniffed: %s", s)
		}
	}
}

func FuzzHAR(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		decodetest.FuzzDecode(t, Format{}, decode.Options{Endpoints: []string{"/"}}, data)
	})
}

// TestHARReadError cuts the testdata document and ends the input there
// with a read error: before log.entries the document is not HAR; inside
// an entry the entries the cut leaves whole are reported (as when the
// input just ends there, without that cut's own "unexpected EOF" reject)
// and the read error is returned; between two entries it is a reject, as
// json.Decoder's More and Token report it; after the entries array the
// error is never read.
func TestHARReadError(t *testing.T) {
	data, err := os.ReadFile("testdata/llm_chat.har")
	if err != nil {
		t.Fatal(err)
	}
	entries, end := bytes.Index(data, []byte(`"entries"`)), bytes.LastIndexByte(data, ']')+1
	for _, n := range []int{0, 100, entries + 12, len(data) / 2, end - 8, end - 5, end, len(data)} {
		want, got := &decodetest.Recorder{}, &decodetest.Recorder{}
		(Format{}).Decode(&decode.Input{R: bytes.NewReader(data[:n]), Name: "x"}, want)
		r := io.MultiReader(bytes.NewReader(data[:n]), iotest.ErrReader(errors.New("disk on fire")))
		err := (Format{}).Decode(&decode.Input{R: r, Name: "x"}, got)
		wantErr := ""
		switch {
		case n < entries:
			wantErr = "har: not a HAR document: disk on fire"
		case n < end:
			if k := len(want.Rejects) - 1; k >= 0 && want.Rejects[k].Detail == "unexpected EOF" {
				wantErr, want.Rejects = "disk on fire", want.Rejects[:k]
			} else {
				read := bytes.TrimRight(data[:n], " \t\r\n")       // the Decoder's offset: white space is not consumed
				col := len(read) - bytes.LastIndexByte(read, '\n') // the byte after the last one read
				want.Rejects = append(want.Rejects, decodetest.RecordedNote{Line: 1 + int64(bytes.Count(read, []byte{'\n'})), Column: int64(col), Reason: "invalid json", Detail: "disk on fire"})
			}
		}
		if len(want.Rejects) == 0 {
			want.Rejects = nil
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) && !(err == nil && wantErr == "") || !reflect.DeepEqual(got, want) {
			t.Errorf("cut at %d: %v %+v, want %q %+v", n, err, got, wantErr, want)
		}
	}
}
