package analyze

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// TestInputWarnings: rejects over half of the records warn (51 of 100, not
// 50 of 100), an empty input and a truncated one warn, a failed input does
// not (its error says why).
func TestInputWarnings(t *testing.T) {
	bad := "unknown format"
	ws := InputWarnings([]schema.InputStats{
		{Path: "a.log", Format: "nginx", Read: 100, Records: 49, Rejected: 51, RejectsByReason: map[string]int64{"bad status": 50, "bad time": 1}},
		{Path: "b.log", Format: "nginx", Read: 100, Records: 50, Rejected: 50},
		{Path: "c.log", Read: 0},
		{Path: "d.log.gz", Format: "tgi", Read: 10, Records: 10, Truncated: true},
		{Path: "e.log", Read: 0, Error: &bad},
	})
	want := []Warning{
		{WarnInputRejects, "a.log", "a.log: 51 of 100 records (51%) rejected as nginx (bad status: 50, bad time: 1)"},
		{WarnInputEmpty, "c.log", "c.log: empty"},
		{WarnInputTruncated, "d.log.gz", "d.log.gz: the compressed file ends early"},
	}
	checkWarnings(t, ws, want)
}

// checkWarnings compares kinds and inputs exactly, messages by prefix.
func checkWarnings(t *testing.T, got, want []Warning) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d warnings, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.Kind || g.Input != w.Input || !strings.HasPrefix(g.Message, w.Message) {
			t.Errorf("warning %d = %+v, want %+v…", i, g, w)
		}
	}
}

func i64(v int64) *int64 { return &v }

// TestTimingWarnings counts, per input, the successful events without a
// start or without any later instant; failed ones and complete ones are
// not counted. Inputs without a timing note get the general one
// (TestTimingWarningNotes checks the formats' notes).
func TestTimingWarnings(t *testing.T) {
	evs := []schema.Event{
		{InputFile: "p.log", Format: "nginx", EndNs: i64(5)},                       // no start
		{InputFile: "p.log", Format: "nginx", StartNs: i64(1)},                     // no later instant
		{InputFile: "p.log", Format: "nginx", StartNs: i64(1), EndNs: i64(2)},      // fine
		{InputFile: "p.log", Format: "nginx", Error: schema.ErrorServer},           // failed: not counted
		{InputFile: "s.jsonl", Format: "otlp", StartNs: i64(1), FirstTokenNs: nil}, // no later instant
		{InputFile: "s.jsonl", Format: "otlp", StartNs: i64(1), HeadersNs: i64(3)}, // fine
	}
	inputs := []schema.InputStats{{Path: "s.jsonl"}, {Path: "p.log"}}
	checkWarnings(t, timingWarnings(columnsOf(t, evs, nil), inputs), []Warning{
		{WarnNoTiming, "s.jsonl", "s.jsonl: 1 successful otlp records are in no latency figure (they count as succeeded requests): " +
			"they have no start instant or no instant after it: check the settings of the tool that wrote them"},
		{WarnNoTiming, "p.log", "p.log: 2 successful nginx records are in no latency figure"},
	})
}

// TestHostWarnings: one host from two folders with overlapping starts
// warns; from two folders one after the other, from one folder and one
// format (rotated files), or named by the records themselves, does not.
func TestHostWarnings(t *testing.T) {
	ev := func(file, host, format string, start int64) schema.Event {
		return schema.Event{InputFile: file, Host: host, Format: format, Source: schema.SourceProxy, Clock: schema.ClockWall, StartNs: i64(start)}
	}
	inputs := []schema.InputStats{{Path: "a/access.log", Host: "gw"}, {Path: "b/access.log", Host: "gw"},
		{Path: "c/x.log", Host: "late"}, {Path: "d/x.log", Host: "late"},
		{Path: "r/access.log", Host: "r"}, {Path: "r/access.log.1", Host: "r"},
		{Path: "t1/traces.jsonl", Host: "t1"}, {Path: "t2/traces.jsonl", Host: "t2"}}
	evs := []schema.Event{
		ev("a/access.log", "gw", "nginx", 10), ev("a/access.log", "gw", "nginx", 20),
		ev("b/access.log", "gw", "nginx", 15),
		ev("c/x.log", "late", "nginx", 10), ev("d/x.log", "late", "nginx", 30),
		ev("r/access.log", "r", "nginx", 10), ev("r/access.log.1", "r", "nginx", 10),
		ev("t1/traces.jsonl", "gpu-1", "otlp", 10), ev("t2/traces.jsonl", "gpu-1", "otlp", 10),
	}
	checkWarnings(t, hostWarnings(columnsOf(t, evs, nil), inputs), []Warning{
		{WarnHostMerged, "", `host "gw" holds a/access.log and b/access.log, whose requests overlap in time`},
	})
	if ws := hostWarnings(columnsOf(t, evs, nil), inputs); !strings.Contains(ws[0].Message, "--host a=a") {
		t.Errorf("no suggestion: %s", ws[0].Message)
	}
	// Two folders on steady clocks: their origins cannot be compared.
	steady := func(file string, start int64) schema.Event {
		e := ev(file, "triton", "triton", start)
		e.Clock = schema.ClockSteady
		return e
	}
	evs = []schema.Event{steady("m1/triton.log", 10), steady("m2/triton.log", 1e12)}
	inputs = []schema.InputStats{{Path: "m1/triton.log", Host: "triton"}, {Path: "m2/triton.log", Host: "triton"}}
	checkWarnings(t, hostWarnings(columnsOf(t, evs, nil), inputs), []Warning{{WarnHostMerged, "", `host "triton" holds m1/triton.log and m2/triton.log`}})
	// One folder, one source, two formats: two kinds of proxy.
	evs = []schema.Event{ev("logs/access.log", "logs", "nginx", 10), ev("logs/envoy.log", "logs", "envoy", 10)}
	inputs = []schema.InputStats{{Path: "logs/access.log", Host: "logs"}, {Path: "logs/envoy.log", Host: "logs"}}
	checkWarnings(t, hostWarnings(columnsOf(t, evs, nil), inputs), []Warning{{WarnHostMerged, "", `host "logs" holds logs/access.log and logs/envoy.log`}})
}

// TestByWarnings: a misspelt key names the keys in the data and the
// nearest; an attribute some event has and a built-in key with values are
// fine; a built-in key without any value warns.
func TestByWarnings(t *testing.T) {
	evs := []schema.Event{{Source: "client", Format: "x", Host: "h", Model: "m", Attrs: map[string]string{"region": "eu"}}}
	by := [][]string{{"modle"}, {"region", "model"}, {"endpoint"}, {"modle", "host"}}
	ws := byWarnings(columnsOf(t, evs, by), by)
	checkWarnings(t, ws, []Warning{
		{WarnByUnknownKey, "", "--by modle: no event has this key, so every request falls in one group \"(none)\"; keys in the data: model, endpoint, host, status, format, source, region (did you mean --by model?)"},
		{WarnByNoValue, "", "--by endpoint: no event has a value for this key"},
	})
	far := [][]string{{"zzzzzz"}}
	if ws := byWarnings(columnsOf(t, evs, far), far); strings.Contains(ws[0].Message, "did you mean") {
		t.Errorf("a far key got a suggestion: %s", ws[0].Message)
	}
}

func TestGrouped(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1537: "1,537", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := Grouped(n); got != want {
			t.Errorf("Grouped(%d) = %q, want %q", n, got, want)
		}
	}
}

// warningEvents are n successful proxy events over 8 inputs in 8 folders,
// one host each, with a model, an attribute and start/end instants.
func warningEvents(n int) ([]schema.Event, []schema.InputStats) {
	var inputs []schema.InputStats
	for i := range 8 {
		inputs = append(inputs, schema.InputStats{Path: "gw-" + string(rune('a'+i)) + "/access.log", Host: "gw-" + string(rune('a'+i))})
	}
	evs := make([]schema.Event, n)
	attrs := map[string]string{"region": "eu"}
	for i := range evs {
		in := inputs[i%8]
		start, end := int64(1e18+int64(i)*1e6), int64(1e18+int64(i)*1e6+5e8)
		evs[i] = schema.Event{Source: schema.SourceProxy, Format: "nginx", Host: in.Host, Clock: schema.ClockWall,
			Model: "m", StartNs: &start, EndNs: &end, InputFile: in.Path, Attrs: attrs}
	}
	return evs, inputs
}

// BenchmarkWarnings measures the warnings beside Run on the same events
// (the ratio is what matters; Run computes them too):
// go test ./analyze -run '^$' -bench 'Warnings|RunBeside'.
func BenchmarkWarnings(b *testing.B) {
	evs, inputs := warningEvents(100_000)
	opts := benchWarningOptions()
	c := columnsOf(b, evs, opts.By)
	b.ResetTimer()
	for range b.N {
		warnings(c, inputs, opts)
	}
}

func BenchmarkRunBesideWarnings(b *testing.B) {
	evs, inputs := warningEvents(100_000)
	opts := benchWarningOptions()
	b.ResetTimer()
	for range b.N {
		Run(evs, inputs, opts)
	}
}

// benchWarningOptions are the benchmarks' options: two breakdowns.
func benchWarningOptions() Options { return Options{By: [][]string{{"model"}, {"region"}}} }

// columnsOf returns evs as Columns read for breakdowns by.
func columnsOf(tb testing.TB, evs []schema.Event, by [][]string) *dataset.Columns {
	tb.Helper()
	c, err := dataset.ColumnsOf(evs, ColumnsOptions(Options{By: by}))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
