package aiperf

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/analyze"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// TestAIPerfRealRun checks the real export against the figures AIPerf
// wrote beside each request: line 2's ttft 1680.543782 ms, request_latency
// 7936.968269 ms (= max_response_timestamp − min_request_timestamp), 192
// inter-chunk latencies, output_sequence_length 193, and AIPerf's own
// inter_token_latency 32.585544203124996 ms, which --compat genai-perf gives
// as aiperf.inter_token_latency, and output_token_throughput_per_user
// 30.68845478738693, our tps_user; line 1 is a cancelled request (499).
func TestAIPerfRealRun(t *testing.T) {
	rec, err := decodetest.DecodeFile(t, Format{}, "testdata/profile_export.jsonl")
	if err != nil || len(rec.Events) != 4 || len(rec.Rejects) != 0 {
		t.Fatalf("err %v, %d events, rejects %v", err, len(rec.Events), rec.Rejects)
	}
	cancelled := rec.Events[0].Event
	if cancelled.Status == nil || *cancelled.Status != 499 || cancelled.Error != schema.ErrorInterrupted || *cancelled.Completed {
		t.Errorf("cancelled request: status %v error %q", cancelled.Status, cancelled.Error)
	}
	e := rec.Events[1].Event
	start := int64(1759522419159192408)
	decodetest.CheckOffset(t, "first", e.FirstTokenNs, start, 1680543782)
	decodetest.CheckOffset(t, "end", e.EndNs, start, 7936968269)
	if n := len(e.ChunkOffsetsNs); n != 193 || e.ChunkOffsetsNs[n-1] != 7936968269 || e.ChunkOffsetsNs[1]-e.ChunkOffsetsNs[0] != 134440792 {
		t.Errorf("%d chunks, last %d", n, e.ChunkOffsetsNs[n-1])
	}
	if decodetest.Deref(e.OutputTokens) != 193 || decodetest.Deref(e.PromptTokens) != 550 || e.RequestID != "1ed40a0d-e708-434d-bb8e-fb1b44cb8717" {
		t.Errorf("tokens %v/%v id %q", e.OutputTokens, e.PromptTokens, e.RequestID)
	}
	a := analyze.Run([]schema.Event{e}, nil, analyze.Options{Compat: "genai-perf"})
	seen := 0
	for _, m := range a.Metrics {
		if len(m.Group) == 0 && (m.Metric == "aiperf.inter_token_latency" || m.Metric == "tps_user") {
			seen++
		}
		if m.Metric == "aiperf.inter_token_latency" && math.Abs(m.Mean-32.585544203124996) > 1e-9 {
			t.Errorf("inter_token_latency %v ms, AIPerf wrote 32.585544203124996", m.Mean)
		}
		if m.Metric == "tps_user" && math.Abs(m.Mean-30.68845478738693) > 1e-6 {
			t.Errorf("tps_user %v, AIPerf's output_token_throughput_per_user 30.68845478738693", m.Mean)
		}
	}
	if seen != 2 {
		t.Errorf("%d of aiperf.inter_token_latency and tps_user", seen)
	}
}

// TestAIPerfAggregateRefused: the aggregate export is sniffed as aiperf and
// refused with a pointer to the per-request file.
func TestAIPerfAggregateRefused(t *testing.T) {
	data, err := os.ReadFile("testdata/aggregate/profile_export_aiperf.json")
	if err != nil {
		t.Fatal(err)
	}
	if !(Format{}).Sniff(data) {
		t.Error("aggregate not sniffed")
	}
	rec := &decodetest.Recorder{}
	err = Format{}.Decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"}, rec)
	if err == nil || !strings.Contains(err.Error(), "profile_export.jsonl") || rec.Total() != 0 {
		t.Errorf("err %v, %d records", err, rec.Total())
	}
}

// TestAIPerfSniff: AIPerf's records and aggregate are claimed; a client
// JSONL line and a GenAI-Perf export are not.
func TestAIPerfSniff(t *testing.T) {
	for head, want := range map[string]bool{
		`{"metadata":{"x_request_id":"a","timestamp_ns":1},"metrics":{}}`:       true,
		"{\n  \"records\": {\n    \"ttft\": {}}}":                               true,
		`{"request_id":"a","start":"2026-01-01T00:00:00Z","chunks":[]}`:         false,
		`{"experiments":[{"experiment":{"mode":"concurrency"},"requests":[]}]}`: false,
		`{"metadata":{"service":"x"},"spans":[]}`:                               false,
	} {
		if got := (Format{}).Sniff([]byte(head)); got != want {
			t.Errorf("Sniff(%.40s) = %v", head, got)
		}
	}
}

func FuzzAIPerf(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		rec := &decodetest.Recorder{}
		_ = Format{}.Decode(&decode.Input{R: bytes.NewReader(data)}, rec)
		for _, e := range rec.Events {
			ev := e.Event
			if ev.StartNs == nil {
				t.Fatal("event without start")
			}
			for i := 1; i < len(ev.ChunkOffsetsNs); i++ {
				if ev.ChunkOffsetsNs[i] < ev.ChunkOffsetsNs[i-1] {
					t.Fatalf("chunks out of order: %v", ev.ChunkOffsetsNs)
				}
			}
		}
	})
}
