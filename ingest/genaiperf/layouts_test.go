package genaiperf

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// engineDoc wraps request objects in a profile export.
func engineDoc(reqs ...string) string {
	return `{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[` +
		strings.Join(reqs, ",") + `]}],"service_kind":"triton_c_api","endpoint":""}`
}

// TestGenaiPerfEngineIDs: a TensorRT-LLM engine response carries a batch of
// token ids (a list) or one (a number); each response with ids is a chunk
// of that many tokens, a null one (an empty last response) none.
func TestGenaiPerfEngineIDs(t *testing.T) {
	doc := engineDoc(`{"timestamp":100,"request_inputs":{"input_ids":[1,2]},"response_timestamps":[110,130,150],` +
		`"response_outputs":[{"output_ids":[7,8,9]},{"output_log_probs":[0],"output_ids":4},{"output_ids":null}]}`)
	rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, doc)
	if len(rec.Events) != 1 {
		t.Fatalf("events %d, rejects %v", len(rec.Events), rec.Rejects)
	}
	e := rec.Events[0].Event
	if !slices.Equal(e.ChunkOffsetsNs, []int64{10, 30}) || !slices.Equal(e.ChunkTokens, []int32{3, 1}) ||
		decodetest.Deref(e.OutputTokens) != 4 || e.OutputTokensSource != schema.TokensCounted ||
		e.Error != schema.ErrorNone || !*e.Completed || decodetest.Deref(e.EndNs) != 150 {
		t.Errorf("event %+v", e)
	}
}

// TestGenaiPerfUnknownLayout: outputs in no layout the decoder reads are a
// reject with the reason, not a server error; a HuggingFace generate body
// that is not one is rejected too.
func TestGenaiPerfUnknownLayout(t *testing.T) {
	for doc, reason := range map[string]string{
		engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"tokens":[1]}]}`):                                                       "unknown response layout",
		engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{}]}`):                                                                   "unknown response layout",
		engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"response":"[{\"generated_text\":\"a\"}]"},{"response":"[oops"}]}`): "bad generate response",
	} {
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, doc)
		if len(rec.Events) != 0 || len(rec.Rejects) != 1 || rec.Rejects[0].Reason != reason {
			t.Errorf("%.80s: events %d, rejects %v; want %q", doc, len(rec.Events), rec.Rejects, reason)
		}
	}
}

// TestGenaiPerfRefusesOtherDocuments: AIPerf's exports forced with
// --format genai-perf are refused with the reason, not read as 0 records.
func TestGenaiPerfRefusesOtherDocuments(t *testing.T) {
	for _, path := range []string{"../aiperf/testdata/aggregate/profile_export_aiperf.json", "../aiperf/testdata/profile_export.jsonl"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rec := &decodetest.Recorder{}
		err = Format{}.Decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"}, rec)
		if err == nil || !strings.Contains(err.Error(), "aiperf") || rec.Total() != 0 {
			t.Errorf("%s: err %v, %d records", path, err, rec.Total())
		}
	}
}

// TestGenaiPerfWholeBody: a whole non-streamed completion body is complete
// without a finish_reason; another JSON body without one (a framework's
// {"detail": …} error page) is not taken for a success.
func TestGenaiPerfWholeBody(t *testing.T) {
	for body, completed := range map[string]bool{
		`{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}`: true,
		`{\"object\":\"text_completion\",\"choices\":[{\"text\":\"hi\"}]}`:                  true,
		`{\"detail\":\"Not Found\"}`: false,
	} {
		doc := engineDoc(`{"timestamp":100,"response_timestamps":[150],"response_outputs":[{"response":"` + body + `"}]}`)
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, doc)
		if len(rec.Events) != 1 || *rec.Events[0].Event.Completed != completed {
			t.Errorf("%s: %d events, rejects %v", body, len(rec.Events), rec.Rejects)
		}
	}
}
