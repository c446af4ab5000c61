package genaiperf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// gpEdgeDocs are whole documents at the edges of the format: every layout
// GenAI-Perf writes, keys in other orders and cases, a BOM, times out of
// range, invalid UTF-8, documents cut short.
var gpEdgeDocs = []string{
	engineDoc(`{"timestamp":100,"request_inputs":{"input_ids":[1,2]},"response_timestamps":[110,130,150],"response_outputs":[{"output_ids":[7,8,9]},{"output_log_probs":[0],"output_ids":4},{"output_ids":null}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"tokens":[1]}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"response":"[{\"generated_text\":\"a\"}]"},{"response":"[oops"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"response":"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"},{"output_ids":[1]}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120,130],"response_outputs":[{"output_ids":[]},{"output_ids":"x"},{"output_ids":{"a":1}}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"output_ids":-1.5e3},{"output_ids":[[1,2],null]}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"text_output":"a","response":"b"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"text_output":null},{"text_output":"b","output_ids":[1]}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"response":"[{\"generated_text\":\"\"}]"},{"response":"[]"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[{"response":"  "},{"response":"[{\"generated_text\":5},{\"generated_text\":\"x\"}]"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[150],"response_outputs":[{"response":"{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[150],"response_outputs":[{"response":"{\"detail\":\"Not Found\"}"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[150,160],"response_outputs":[{"response":"{\"object\":\"text_comp"},{"response":"letion\",\"choices\":[{\"text\":\"hi\"}]}"}]}`),
	engineDoc(`{"timestamp":100,"request_inputs":{"session_id":"s-1","payload":"{\"model\":\"m\",\"stream\":false}"},"response_timestamps":[150],"response_outputs":[{"response":"{\"object\":\"chat.completion\",\"usage\":{\"completion_tokens\":4}}"}]}`),
	engineDoc(`null`, `7`, `"x"`, `true`, `[]`, `[{"timestamp":1}]`, `{}`),
	engineDoc(`{"TIMESTAMP":100,"Response_Timestamps":[110],"RESPONSE_OUTPUTS":[{"Response":"data: [DONE]\n\n"}],"Request_Inputs":{"PAYLOAD":"{\"model\":\"m\"}"}}`),
	engineDoc(`{"timeſtamp":100,"reſponse_timestamps":[110],"response_outputs":[{"reſponse":"data: [DONE]\n\n"}]}`),
	engineDoc(`{"time\u0073tamp":100,"response_timestamps":[110],"response_outputs":[{"text_outpu\u0074":"a"}]}`),
	engineDoc(`{"response_outputs":[{"response":"data: [DONE]\n\n"}],"response_timestamps":[110],"request_inputs":{"payload":"{\"model\":\"m\"}"},"timestamp":100}`),
	engineDoc(`{"response_timestamps":[110,120],"response_outputs":[{"response":"data: {\"choices\":[{\"text\":\"a\"}]}\n\n"},{"response":"data: [DONE]\n\n"}],"timestamp":100}`),
	engineDoc(`{"timestamp":null,"response_timestamps":[110]}`, `{"timestamp":1.0}`, `{"timestamp":1e3}`, `{"timestamp":-0}`, `{"timestamp":"1"}`, `{"timestamp":true}`),
	engineDoc(`{"timestamp":-9223372036854775808}`, `{"timestamp":9223372036854775807,"response_timestamps":[9223372036854775807]}`, `{"timestamp":9223372036854775808}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[1,null,3]}`, `{"timestamp":100,"response_timestamps":{}}`, `{"timestamp":100,"response_timestamps":[1.5]}`, `{"timestamp":100,"response_timestamps":[110,null]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":null}`, `{"timestamp":100,"response_timestamps":null,"response_outputs":[]}`, `{"timestamp":100,"response_timestamps":[110,120],"response_outputs":[null,{"response":"data: [DONE]\n\n"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"response":5}]}`, `{"timestamp":100,"response_timestamps":[110],"response_outputs":[5]}`, `{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"response":null,"text_output":5}]}`),
	engineDoc(`{"timestamp":100,"request_inputs":null}`, `{"timestamp":100,"request_inputs":[]}`, `{"timestamp":100,"request_inputs":{"payload":5}}`, `{"timestamp":100,"request_inputs":{"payload":null}}`, `{"timestamp":100,"request_inputs":{"Payload":"{\"model\":\"q\",\"stream\":true}"}}`),
	engineDoc("{\"timestamp\":100,\"request_inputs\":{\"payload\":\"{\\\"model\\\":\\\"\xff\\\"}\"},\"response_timestamps\":[110],\"response_outputs\":[{\"response\":\"data: {\\\"id\\\":\\\"a\xfe\\\",\\\"choices\\\":[{\\\"text\\\":\\\"b\\\"}]}\\n\\n\"}]}"),
	engineDoc(`{"timestamp":100,"request_inputs":{"payload":"{\"model\":\"\ud800\"}"},"response_timestamps":[110],"response_outputs":[{"response":"data: {\"id\":\"\\ud800\ud800\",\"choices\":[{\"text\":\"b\"}]}\n\n"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"response":"data: {\"id\":\"x\"}\n\n","\u00ff":1,"\ud800":[1,{"response":2}]}]}`),
	engineDoc("{\"timestamp\":100,\"\xff\":1,\"response_timestamps\":[110],\"response_outputs\":[{\"text_output\":\"\xffa\"}]}"),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"response":"data: {\"error\":{\"code\":\"429\",\"type\":\"x\"}}\n\n"}]}`),
	engineDoc(`{"timestamp":100,"response_timestamps":[110],"response_outputs":[{"response":"{\"object\":\"error\",\"type\":\"RateLimitError\",\"code\":\"x\"}"}]}`),
	`{"endpoint":"v2/models/m/generate_stream","experiments":[{"requests":[{"timestamp":100,"response_timestamps":[150],"response_outputs":[{"text_output":"I"}]}],"experiment":{"mode":"request_rate","value":2.5}}],"version":"x"}`,
	`{"experiments":[{"requests":[{"timestamp":100}]},{"experiment":{"mode":"concurrency","value":4},"requests":[{"timestamp":200}]}],"endpoint":"/v1/completions","endpoint":""}`,
	`{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[{"timestamp":1}, {"timestamp":2}`,
	`{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[{"timestamp":1},{"timestamp":2,"x":[}]}]}`,
	`{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[{"timestamp":1},{"timestamp":2} {"timestamp":3}]}]}`,
	`{"experiments":[],"endpoint":5}`, `{"experiments":null}`, `{"experiments":{}}`, `{"version":"x"}`, ``, ` `, `[1,2]`, `not json`,
	"\ufeff" + engineDoc(`{"timestamp":1}`),
	"{\n  \"experiments\" : [ { \"experiment\" : {\"mode\": \"concurrency\", \"value\": 1},\n \"requests\" : [\n { \"timestamp\" : 1 , \"response_timestamps\" : [ 2 ] , \"response_outputs\" : [ { \"response\" : \"data: [DONE]\\n\\n\" } ] }\n ] } ]\n}\n",
}

// gpEdges returns every edge input: the documents above, the testdata and
// GenAI-Perf's fixtures, each edge request alone, twice and cut, and each
// edge stream with and without HTML escapes.
func gpEdges(t *testing.T) []string {
	edges := append([]string{}, gpEdgeDocs...)
	files, _ := filepath.Glob("testdata/peer/*.json")
	for _, f := range append(files, "testdata/profile_export.json") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		edges = append(edges, string(data))
	}
	for _, r := range gpEdgeRequests {
		edges = append(edges, gpDoc(r), gpDoc(r, r), gpDoc(r)[:len(gpDoc(r))-10])
	}
	for _, html := range []bool{false, true} {
		for _, texts := range gpEdgeStreams() {
			edges = append(edges, string(gpDocOf(texts, html)))
		}
	}
	return edges
}

// TestGenaiPerfEdges decodes every edge input and compares what the sink was
// told with testdata/edges/edges.golden, written by the struct decoding
// (encoding/json into gpRequest) this decoder's whole-request reading
// replaced, which the one route was fuzzed against before it was deleted.
func TestGenaiPerfEdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, gpEdges(t), "testdata/edges/edges.golden")
}

// TestGenaiPerfRepeatedKeys: a key named twice (case folded) in a request,
// its request_inputs or an output entry is rejected with its name.
func TestGenaiPerfRepeatedKeys(t *testing.T) {
	for req, key := range map[string]string{
		`{"timestamp":1,"timestamp":2}`: "timestamp",
		`{"timestamp":100,"Timestamp":5,"response_timestamps":[],"response_outputs":[]}`:                               "timestamp",
		`{"timestamp":1,"request_inputs":{"payload":"a","payload":"b"}}`:                                               "payload",
		`{"timestamp":1,"request_inputs":{"payload":"a"},"request_inputs":{}}`:                                         "request_inputs",
		`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: [DONE]\n\n","response":""}]}`: "response",
		`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"output_ids":[1],"OUTPUT_IDS":null}]}`:          "output_ids",
		`{"timestamp":1,"response_timestamps":[2],"response_timestamps":[3]}`:                                          "response_timestamps",
	} {
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, gpDoc(req))
		if len(rec.Events) != 0 || len(rec.Rejects) != 1 || rec.Rejects[0].Reason != "repeated key" || rec.Rejects[0].Detail != key {
			t.Errorf("%s: events %d, rejects %v; want repeated key %q", req, len(rec.Events), rec.Rejects, key)
		}
	}
}
