package analyze

import (
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// clientEvents are four client requests: two successful streams, one rate
// limited, one cut short.
func clientEvents() []schema.Event {
	// A: chunks at 100, 150, 250, 270 ms carrying 1, 1, 2, 1 tokens (5 in
	// all); headers at 50 ms, end at 300 ms; first and last token unset, so
	// they come from the first and last chunk.
	a := wallEvent(schema.SourceClient, 0)
	a.HeadersNs, a.EndNs = at(50), at(300)
	a.ChunkOffsetsNs, a.ChunkTokens = offsets(100, 150, 250, 270), []int32{1, 1, 2, 1}
	a.Status = ptr(int32(200))
	// B: starts at 1 s; FirstTokenNs given (190 ms), chunks at 200, 230, 290
	// ms without token counts, 3 output tokens by usage, end at 295 ms.
	b := wallEvent(schema.SourceClient, 1000)
	b.FirstTokenNs, b.EndNs = at(1190), at(1295)
	b.ChunkOffsetsNs, b.OutputTokens = offsets(200, 230, 290), ptr(int64(3))
	b.Completed = ptr(true)
	// C: rate limited. D: 200 but the stream was cut short.
	c := wallEvent(schema.SourceClient, 2000)
	c.Status, c.Error, c.EndNs = ptr(int32(429)), schema.ErrorRateLimited, at(2010)
	d := wallEvent(schema.SourceClient, 3000)
	d.Status, d.Completed, d.FirstTokenNs, d.EndNs = ptr(int32(200)), ptr(false), at(3050), at(3500)
	return []schema.Event{a, b, c, d}
}

func TestRunClientMetrics(t *testing.T) {
	a := Run(clientEvents(), nil, Options{})
	// ttft: A 100 − 0 = 100 (first chunk), B 1190 − 1000 = 190; C, D failed.
	// Two samples: mean 145, p50 h=0.5 → 145, p90 h=0.9 → 100 + 0.9·90 = 181.
	checkStats(t, metricOf(t, a, "client", "ttft", nil), 2, 145, 100, 145, 181, 190)
	// e2e: 300 and 295.
	checkStats(t, metricOf(t, a, "client", "e2e", nil), 2, 297.5, 295, 297.5, 299.5, 300)
	// time_to_headers: A only, 50.
	checkStats(t, metricOf(t, a, "client", "time_to_headers", nil), 1, 50, 50, 50, 50, 50)
	// tpot: A (270 − 100)/(5 − 1) = 42.5; B (290 − 190)/(3 − 1) = 50.
	// p90 = 42.5 + 0.9·7.5 = 49.25.
	checkStats(t, metricOf(t, a, "client", "tpot", nil), 2, 46.25, 42.5, 46.25, 49.25, 50)
	// tps_user: 1000/42.5 = 23.529411…, 1000/50 = 20.
	m := metricOf(t, a, "client", "tps_user", nil)
	checkStats(t, m, 2, (1000/42.5+20)/2, 20, (1000/42.5+20)/2, 20+0.9*(1000/42.5-20), 1000/42.5)
	if m.Unit != "tokens/s" {
		t.Errorf("tps_user unit %q", m.Unit)
	}
	// itl: A gaps 50 (k=1) → 50; 100 (k=2) → 50, 50; 20 (k=1) → 20.
	// B gaps 30, 60 (k unknown = 1). Pooled sorted: 20 30 50 50 50 60,
	// sum 260, mean 43.333…; p50 h=2.5 → 50; p90 h=4.5 → 50 + 0.5·10 = 55.
	checkStats(t, metricOf(t, a, "client", "itl", nil), 6, 260.0/6, 20, 50, 55, 60)
	// chunk_gap: 50, 100, 20, 30, 60 → sorted 20 30 50 60 100, mean 52,
	// p50 50, p90 h=3.6 → 60 + 0.6·40 = 84.
	checkStats(t, metricOf(t, a, "client", "chunk_gap", nil), 5, 52, 20, 50, 84, 100)
	for _, name := range []string{"queue", "prefill", "decode"} {
		if hasMetric(a, "client", name) {
			t.Errorf("client has %s without any phase field", name)
		}
	}
	ttft := metricOf(t, a, "client", "ttft", nil)
	if ttft.From != "start" || ttft.To != "first_token" || ttft.Unit != "ms" {
		t.Errorf("ttft spans %s → %s in %s", ttft.From, ttft.To, ttft.Unit)
	}
	// Errors: C rate_limited, D interrupted (Completed false, no error).
	want := []ErrorCount{
		{Source: "client", Group: map[string]string{}, Class: "rate_limited", Count: 1},
		{Source: "client", Group: map[string]string{}, Class: "interrupted", Count: 1},
	}
	if len(a.Errors) != 2 || a.Errors[0].Class != want[0].Class || a.Errors[1].Class != want[1].Class ||
		a.Errors[0].Count != 1 || a.Errors[1].Count != 1 {
		t.Errorf("errors = %+v, want %+v", a.Errors, want)
	}
	s := a.Sources[0]
	if s.Events != 4 || s.Succeeded != 2 || s.Failed != 2 || s.Clock != "wall" ||
		s.First != "2026-11-23T10:00:00Z" || s.Last != "2026-11-23T10:00:03.5Z" {
		t.Errorf("source summary = %+v", s)
	}
}

func TestRunServerPhases(t *testing.T) {
	// Server: first token 30 ms, last 130 ms, end 131 ms, 11 tokens; queue 5,
	// prefill 20, decode 100 ms. tpot = (130 − 30)/10 = 10; tps_user = 100.
	e := schema.Event{Source: schema.SourceServer, Format: "triton", Host: "gpu", Clock: schema.ClockSteady,
		StartNs: at(0), FirstTokenNs: at(30), LastTokenNs: at(130), EndNs: at(131),
		OutputTokens: ptr(int64(11)), QueueNs: ptr(int64(5e6)), PrefillNs: ptr(int64(20e6)), DecodeNs: ptr(int64(100e6))}
	a := Run([]schema.Event{e}, nil, Options{})
	for _, c := range []struct {
		name string
		want float64
	}{{"ttft", 30}, {"e2e", 131}, {"tpot", 10}, {"tps_user", 100}, {"queue", 5}, {"prefill", 20}, {"decode", 100}} {
		checkStats(t, metricOf(t, a, "server", c.name, nil), 1, c.want, c.want, c.want, c.want, c.want)
	}
	if m := metricOf(t, a, "server", "queue", nil); m.From != "queued" || m.To != "scheduled" {
		t.Errorf("queue spans %s → %s", m.From, m.To)
	}
	if hasMetric(a, "server", "itl") || hasMetric(a, "server", "time_to_headers") {
		t.Error("server has itl or time_to_headers without chunks or headers")
	}
	if len(a.Timeseries) != 0 {
		t.Errorf("a steady-clock event made %d time series", len(a.Timeseries))
	}
	if len(a.Notes) != 1 || a.Notes[0] != "1 events of format triton use a steady (monotonic) clock: they are not joined with other sources and are left out of the time series" {
		t.Errorf("notes = %q", a.Notes)
	}
}

func TestSucceededAndFailureClass(t *testing.T) {
	tests := []struct {
		name      string
		status    *int32
		err       string
		completed *bool
		ok        bool
		class     string
	}{
		{"no status, no error", nil, "", nil, true, ""},
		{"200 completed", ptr(int32(200)), "", ptr(true), true, ""},
		{"204", ptr(int32(204)), "", nil, true, ""},
		{"error class wins", ptr(int32(200)), schema.ErrorTimeout, nil, false, "timeout"},
		{"cut short", ptr(int32(200)), "", ptr(false), false, "interrupted"},
		{"cut short, no status", nil, "", ptr(false), false, "interrupted"},
		{"429 without class", ptr(int32(429)), "", nil, false, "rate_limited"},
		{"504 without class", ptr(int32(504)), "", nil, false, "timeout"},
		{"499 without class", ptr(int32(499)), "", nil, false, "interrupted"},
		{"404 without class", ptr(int32(404)), "", nil, false, "client_error"},
		{"502 without class", ptr(int32(502)), "", ptr(false), false, "server_error"},
		{"302", ptr(int32(302)), "", nil, false, "other_status"},
	}
	for _, tt := range tests {
		e := schema.Event{Status: tt.status, Error: tt.err, Completed: tt.completed}
		if got := succeeded(oneEvent(t, e)); got != tt.ok {
			t.Errorf("%s: succeeded = %v", tt.name, got)
		}
		if !tt.ok {
			if got := failureClass(oneEvent(t, e)); got != tt.class {
				t.Errorf("%s: class %q, want %q", tt.name, got, tt.class)
			}
		}
	}
}

// TestChunkGapSharesITLOnlyForUnitChunks checks the reuse of itl's
// statistics for chunk_gap: right where every gap is before a one-token
// chunk, and not where one chunk carries several tokens.
func TestChunkGapSharesITLOnlyForUnitChunks(t *testing.T) {
	// X (model x): gaps 10, 20 before one-token chunks. Y (model y): a gap
	// of 30 before a 3-token chunk.
	x := wallEvent(schema.SourceClient, 0)
	x.Model, x.ChunkOffsetsNs, x.ChunkTokens = "x", offsets(100, 110, 130), []int32{1, 1, 1}
	y := wallEvent(schema.SourceClient, 1000)
	y.Model, y.ChunkOffsetsNs, y.ChunkTokens = "y", offsets(100, 130), []int32{1, 3}
	a := Run([]schema.Event{x, y}, nil, Options{By: [][]string{{"model"}}})
	// Group x: itl = chunk_gap = 10, 20.
	gx := map[string]string{"model": "x"}
	checkStats(t, metricOf(t, a, "client", "itl", gx), 2, 15, 10, 15, 19, 20)
	checkStats(t, metricOf(t, a, "client", "chunk_gap", gx), 2, 15, 10, 15, 19, 20)
	// Group {}: itl 10, 20, 10, 10, 10 (30 ms over 3 tokens); chunk_gap
	// 10, 20, 30. itl sorted 10 10 10 10 20: mean 12, p50 10, p90 h=3.6 →
	// 10 + 0.6·10 = 16. chunk_gap: mean 20, p50 20, p90 h=1.8 → 28.
	checkStats(t, metricOf(t, a, "client", "itl", nil), 5, 12, 10, 10, 16, 20)
	checkStats(t, metricOf(t, a, "client", "chunk_gap", nil), 3, 20, 10, 20, 28, 30)
}
