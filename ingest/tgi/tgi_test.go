package tgi

import (
	"math"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The goldens of testdata/tgi were checked by hand against the input:
// router.log line 3 logs at 10:00:01.5Z = 1795428001.5 s; total_time
// 1.234567 s gives start 1795428000.265433 s; 1.2 s / 40 ms = 30 tokens;
// queue 25.3 µs = 25300 ns. Line 14: 10:01:10Z − 1m5.3s = 1795428004.7 s;
// 62.1975 s / 60.3 ms = 1031.47 → 1031 tokens. router_ansi.log line 2:
// 11:00:02Z = 1795431602 s, − 2.5 s = 1795431599.5 s, 2 s / 20 ms = 100
// tokens. router_json.log line 2: 12:00:01Z = 1795435201 s, − 1 s, 950/50 =
// 19 tokens, trace id lowercased.

func FuzzTGI(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		decodetest.CheckOnePerLine(t, Format{}, decode.Options{}, data)
	})
}

func TestTGIDuration(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1.234567s", 1_234_567_000, true},
		{"40ms", 40_000_000, true},
		{"25.3µs", 25_300, true}, // U+00B5 micro sign, as Rust prints it
		{"25.3μs", 25_300, true}, // U+03BC Greek mu
		{"100us", 100_000, true},
		{"812ns", 812, true},
		{"333.333333ms", 333_333_333, true}, // 1 s / 3 tokens, truncated by Rust
		{"1m5.3s", 65_300_000_000, true},    // 60 s + 5.3 s
		{"1h2m", 3_720_000_000_000, true},   // 3600 s + 120 s
		{"0ns", 0, true},
		{"12.5xs", 0, false},
		{"", 0, false},
		{"s", 0, false},
		{"-1s", 0, false},
		{"1.2.3s", 0, false},
		{"5", 0, false},
	}
	for _, c := range cases {
		got, ok := tgiDuration(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("tgiDuration(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestTGIParseText(t *testing.T) {
	line := `2026-11-23T10:00:01.5Z  INFO HTTP request{otel.name=POST /generate_stream url.scheme= trace_id=4bf92f3577b34da6a3ce929d0e0e4736}:generate_stream{parameters=GenerateParameters { stop: ["}\"x=1 y"], seed: None } total_time="1s" seed="Some(3)"}: text_generation_router::server: router/src/server.rs:598: Success`
	d := &tgiReader{}
	d.cur = []byte(line)
	if !d.parseText(d.cur) {
		t.Fatal("not parsed")
	}
	rec := &d.rec
	if string(rec.level) != "INFO" || string(rec.message) != "Success" || len(rec.spans) != 2 {
		t.Fatalf("got level %q message %q spans %d", rec.level, rec.message, len(rec.spans))
	}
	fields := func(sp tgiSpan) map[string]string {
		m := map[string]string{}
		for _, f := range rec.fields[sp.lo:sp.hi] {
			m[string(d.cur[f.kLo:f.kHi])] = string(d.text(&f))
		}
		return m
	}
	http, gen := fields(rec.spans[0]), fields(rec.spans[1])
	want := map[string]string{"otel.name": "POST /generate_stream", "url.scheme": "", "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"}
	for k, v := range want {
		if got, ok := http[k]; !ok || got != v {
			t.Errorf("HTTP span %s = %q, want %q", k, got, v)
		}
	}
	if n0, n1 := d.text(&rec.spans[0].name), d.text(&rec.spans[1].name); string(n0) != "HTTP request" || string(n1) != "generate_stream" {
		t.Errorf("span names %q, %q", n0, n1)
	}
	if gen["total_time"] != "1s" || gen["seed"] != "Some(3)" ||
		gen["parameters"] != `GenerateParameters { stop: ["}\"x=1 y"], seed: None }` {
		t.Errorf("generate_stream fields %q", gen)
	}
	if d.parseText([]byte("and why?")) {
		t.Error("a continuation line parsed as a record")
	}
}

func TestTGIDecodeCases(t *testing.T) {
	span := func(fields string) string {
		return `2026-11-23T10:00:00Z  INFO generate{` + fields + `}: text_generation_router::server: router/src/server.rs:1: Success`
	}
	cases := []struct {
		name, line string
		tokens     int64 // -1: no event
		start      int64 // ns since 10:00:00Z (1795428000 s)
		class      string
	}{
		// 1.23 s / 41 ms = 30 exactly; start = 0 − 1.5 s.
		{"round exact", span(`total_time="1.5s" inference_time="1.23s" time_per_token="41ms"`), 30, -1_500_000_000, ""},
		// Rust truncates 1 s / 3 to 333333333 ns: 1e9 / 333333333 = 3.000000003 → 3.
		{"rust truncation", span(`total_time="1s" inference_time="1s" time_per_token="333.333333ms"`), 3, -1_000_000_000, ""},
		// No time_per_token: no token count, still an event.
		{"no tpt", span(`total_time="2ms"`), 0, -2_000_000, ""},
		{"error validation", `2026-11-23T10:00:00Z ERROR generate_stream{parameters=P { }}:async_stream: text_generation_router::infer: a.rs:1: Input validation error: too long`, -2, 0, schema.ErrorClient},
		{"error template", `2026-11-23T10:00:00Z ERROR chat_completions: text_generation_router::infer: a.rs:1: Template error: x`, -2, 0, schema.ErrorClient},
		{"error other", `2026-11-23T10:00:00Z ERROR chat_completions: text_generation_router::server: Failed to send event. Receiver dropped.`, -2, 0, schema.ErrorServer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, c.line+"\n")
			if len(rec.Events) != 1 {
				t.Fatalf("events %d, skips %v, rejects %v", len(rec.Events), rec.Skips, rec.Rejects)
			}
			ev := rec.Events[0].Event
			if ev.Error != c.class {
				t.Errorf("class %q, want %q", ev.Error, c.class)
			}
			if c.tokens == -2 {
				if ev.StartNs != nil || *ev.EndNs != 1795428000_000000000 || *ev.Completed {
					t.Errorf("failed request: start %v end %v", ev.StartNs, *ev.EndNs)
				}
				return
			}
			if *ev.StartNs != 1795428000_000000000+c.start {
				t.Errorf("start %d", *ev.StartNs)
			}
			switch {
			case c.tokens == 0 && ev.OutputTokens != nil:
				t.Errorf("tokens %d, want none", *ev.OutputTokens)
			case c.tokens > 0 && (ev.OutputTokens == nil || *ev.OutputTokens != c.tokens || ev.OutputTokensSource != schema.TokensDerived):
				t.Errorf("tokens %v (%s), want %d derived", ev.OutputTokens, ev.OutputTokensSource, c.tokens)
			}
			if ev.FirstTokenNs != nil {
				t.Error("TGI logs no first token")
			}
		})
	}
}

// TestTGIErrorLineStart checks that an ERROR line whose handler span has a
// total_time gets start = end − total_time, text or JSON (10:00:00Z =
// 1795428000 s, − 1.25 s = 1795427998.75 s; − 2 ms for the JSON line), and
// that one without a parsable total_time keeps its end only.
func TestTGIErrorLineStart(t *testing.T) {
	cases := []struct {
		line  string
		start int64 // ns; 0: none
	}{
		{`2026-11-23T10:00:00Z ERROR generate_stream{parameters=P { } total_time="1.25s" validation_time="1ms"}: text_generation_router::infer: a.rs:1: Request failed during generation: boom`, 1795427998_750000000},
		{`{"timestamp": "2026-11-23T10:00:00Z", "level": "ERROR", "message": "Incomplete generation", "spans": [{"name": "generate", "total_time": "2ms"}]}`, 1795427999_998000000},
		{`2026-11-23T10:00:00Z ERROR generate{total_time="1.5xs"}: a: Incomplete generation`, 0},
		{`2026-11-23T10:00:00Z ERROR generate{total_time=""}: a: Incomplete generation`, 0},
	}
	for _, c := range cases {
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, c.line+"\n")
		if len(rec.Events) != 1 {
			t.Fatalf("%q: events %d, rejects %v", c.line, len(rec.Events), rec.Rejects)
		}
		ev := rec.Events[0].Event
		switch {
		case *ev.EndNs != 1795428000_000000000 || *ev.Completed:
			t.Errorf("%q: end %d, completed %v", c.line, *ev.EndNs, *ev.Completed)
		case c.start == 0 && ev.StartNs != nil:
			t.Errorf("%q: start %d, want none", c.line, *ev.StartNs)
		case c.start != 0 && (ev.StartNs == nil || *ev.StartNs != c.start):
			t.Errorf("%q: start %v, want %d", c.line, ev.StartNs, c.start)
		}
	}
}

func TestTGIErrorKinds(t *testing.T) {
	cases := map[string]string{
		"Input validation error: `inputs` must not be empty": schema.ErrorClient,
		"Model is overloaded":                                schema.ErrorRateLimited,
		"Request failed during generation: boom":             schema.ErrorServer,
		"Incomplete generation":                              schema.ErrorInterrupted,
		"Tool error: no tool":                                schema.ErrorClient,
		"Failed applying chat template to inputs":            schema.ErrorClient,
		"something else":                                     schema.ErrorServer,
	}
	for msg, want := range cases {
		if _, got := tgiErrorKind(msg); got != want {
			t.Errorf("tgiErrorKind(%q) = %q, want %q", msg, got, want)
		}
	}
}

// bytesReader is strings.NewReader, for tests that build inputs inline.

// TestTGICutRequestLineIsRejected checks that a request's timing line cut
// short (a truncated file, a line split by a shipper) is a reject, not a
// skip: the request it recorded is lost and the data-quality counts must say so.
func TestTGICutRequestLineIsRejected(t *testing.T) {
	full := `2026-11-23T10:00:01.500000Z  INFO generate_stream{parameters=GenerateParameters { best_of: None } total_time="1.234567s" validation_time="1.2ms" queue_time="25.3µs" inference_time="1.2s" time_per_token="40ms" seed="None"}: text_generation_router::server: router/src/server.rs:512: Success`
	cut := full[:strings.Index(full, `time_per_token="4`)+len(`time_per_token="4`)]
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(full + "\n" + cut + "\n"), Name: "t", Host: "h"}, rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Events) != 1 || len(rec.Rejects) != 1 || len(rec.Skips) != 0 {
		t.Fatalf("events %d, rejects %d, skips %d; want 1, 1, 0", len(rec.Events), len(rec.Rejects), len(rec.Skips))
	}
	if rec.Rejects[0].Line != 2 || rec.Rejects[0].Reason != "malformed request line" {
		t.Fatalf("reject %+v", rec.Rejects[0])
	}
}

// tgiDurationReference is tgiDuration as first written (strings and
// textscan.ScaledDecimalNs), the reference FuzzTGIDuration checks against.
func tgiDurationReference(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	var total int64
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if i == 0 {
			return 0, false
		}
		num, rest := s[:i], s[i:]
		unit := int64(0)
		for _, u := range tgiDurationUnits {
			if strings.HasPrefix(rest, u.suffix) {
				unit, rest = u.ns, rest[len(u.suffix):]
				break
			}
		}
		if unit == 0 {
			return 0, false
		}
		ns, ok := textscan.ScaledDecimalNs(num, unit)
		if !ok || total > math.MaxInt64-ns {
			return 0, false
		}
		total, s = total+ns, rest
	}
	return total, true
}

func FuzzTGIDuration(f *testing.F) {
	for _, s := range []string{"1.234567s", "40ms", "25.3µs", "25.3μs", "812ns", "1m5.3s", "1h2m", " 5s ", "\u00a05s", "5µ", "µ", "1.5.3s", "", "9223372036.854775808s", "0.5ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := tgiDuration(s)
		want, wok := tgiDurationReference(s)
		if got != want || ok != wok {
			t.Fatalf("%q: %d %v, reference %d %v", s, got, ok, want, wok)
		}
		if b, bok := tgiDuration([]byte(s)); b != got || bok != ok {
			t.Fatalf("%q: bytes %d %v, string %d %v", s, b, bok, got, ok)
		}
	})
}
