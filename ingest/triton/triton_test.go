package triton

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// The goldens of testdata/triton were checked by hand. The documentation
// example: start = HTTP_RECV_START 2356425054587444, end = HTTP_SEND_END
// 2356425057712991; queue = COMPUTE_START 2356425054887198 − QUEUE_START
// 2356425054791517 = 95681 ns; inference = COMPUTE_END 2356425057540989 −
// 2356425054887198 = 2653791 ns; a single INFER_RESPONSE_COMPLETE, so no
// first token. trace_mixed.json id 2: queue 1002200000 − 1000200000 = 2 ms,
// prefill 1050200000 − 1002200000 = 48 ms, decode 1090200000 − 1050200000 =
// 40 ms, chunks at 50.2, 70.2 and 90.2 ms after 1000000000.

func FuzzTriton(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	f.Fuzz(func(t *testing.T, data []byte) {
		decodetest.FuzzDecode(t, Format{}, decode.Options{}, data)
		// A well-formed array has each element reported exactly once.
		var elems []json.RawMessage
		if json.Unmarshal(data, &elems) != nil {
			return
		}
		rec := &decodetest.Recorder{}
		_ = Format{}.Decode(&decode.Input{R: strings.NewReader(string(data))}, rec)
		if rec.Total() != len(elems) {
			t.Fatalf("%d records for %d elements", rec.Total(), len(elems))
		}
	})
}

// TestTritonAccounting checks that every array element of every testdata
// file is reported exactly once, counting the elements independently.
func TestTritonAccounting(t *testing.T) {
	for _, path := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(data, &elems); err != nil {
			t.Fatal(err)
		}
		rec, err := decodetest.DecodeFile(t, Format{}, path)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]int{}
		for _, e := range rec.Events {
			seen[e.Line]++
		}
		for _, s := range rec.Skips {
			seen[s.Line]++
		}
		for _, r := range rec.Rejects {
			seen[r.Line]++
		}
		for i := range elems {
			if seen[int64(i+1)] != 1 {
				t.Errorf("%s: element %d reported %d times", path, i+1, seen[int64(i+1)])
			}
		}
		if rec.Total() != len(elems) {
			t.Errorf("%s: %d records reported for %d elements", path, rec.Total(), len(elems))
		}
	}
}

func TestTritonCases(t *testing.T) {
	cases := []struct {
		name, in          string
		start, end, first int64 // first 0: none
		queue             int64 // -1: none
	}{
		// gRPC: GRPC_WAITREAD_START includes the idle wait, so start is WAITREAD_END.
		{"grpc", `[{"id":1,"timestamps":[{"name":"GRPC_WAITREAD_START","ns":10},{"name":"GRPC_WAITREAD_END","ns":500},
			{"name":"REQUEST_START","ns":510},{"name":"QUEUE_START","ns":520},{"name":"COMPUTE_START","ns":600},
			{"name":"REQUEST_END","ns":900},{"name":"GRPC_SEND_END","ns":950}]}]`, 500, 950, 0, 80},
		// In-process (C API) request: REQUEST_START → REQUEST_END.
		{"c api", `[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":100},{"name":"REQUEST_END","ns":300}]}]`, 100, 300, 0, -1},
		// Two responses make a decoupled stream: first token at the earlier one.
		{"decoupled", `[{"id":9,"timestamps":[{"name":"INFER_RESPONSE_COMPLETE","ns":700}]},
			{"id":9,"timestamps":[{"name":"REQUEST_START","ns":100},{"name":"INFER_RESPONSE_COMPLETE","ns":400},{"name":"REQUEST_END","ns":800}]}]`, 100, 800, 400, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, c.in)
			if len(rec.Events) != 1 {
				t.Fatalf("events %d, skips %v, rejects %v", len(rec.Events), rec.Skips, rec.Rejects)
			}
			ev := rec.Events[0].Event
			if *ev.StartNs != c.start || *ev.EndNs != c.end || ev.Clock != "steady" {
				t.Errorf("start %d end %d clock %s", *ev.StartNs, *ev.EndNs, ev.Clock)
			}
			if (c.first == 0) != (ev.FirstTokenNs == nil) || c.first != 0 && *ev.FirstTokenNs != c.first {
				t.Errorf("first token %v, want %d", ev.FirstTokenNs, c.first)
			}
			if (c.queue < 0) != (ev.QueueNs == nil) || c.queue >= 0 && *ev.QueueNs != c.queue {
				t.Errorf("queue %v, want %d", ev.QueueNs, c.queue)
			}
		})
	}
}

func TestTritonBrokenInput(t *testing.T) {
	// A file cut in the middle (Triton still writing): the complete trace
	// lacks an end and is rejected at line 1, the cut element at line 2.
	rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, `[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1}]}, {"id":`)
	if len(rec.Rejects) != 2 || rec.Rejects[0].Reason != "invalid json" || rec.Rejects[0].Line != 2 ||
		rec.Rejects[1].Reason != "missing timestamps" || rec.Rejects[1].Line != 1 {
		t.Errorf("rejects %+v", rec.Rejects)
	}
	if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(`{"id":1}`)}, &decodetest.Recorder{}); err == nil {
		t.Error("an object instead of an array should be an error")
	}
	if rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, ""); rec.Total() != 0 {
		t.Errorf("empty input gave %d records", rec.Total())
	}
}
