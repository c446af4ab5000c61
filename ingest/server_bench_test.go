package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// Benchmarks of the server-side and generic JSON decoders, whose inputs the
// generated fleet does not write: each input is built from the format's
// testdata, records repeated with varied ids and times to about 10-30 MB.

// benchSize is the size the built inputs grow to.
const benchSize = 16 << 20

// benchOpts reads the options of a testdata file (its .opts.json), or none.
func benchOpts(tb testing.TB, path string) decode.Options {
	var opts decode.Options
	o, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		return opts
	}
	var raw struct {
		Map       string   `json:"map"`
		Endpoints []string `json:"endpoints"`
	}
	if err := json.Unmarshal(o, &raw); err != nil {
		tb.Fatal(err)
	}
	opts.Map, opts.Endpoints = raw.Map, raw.Endpoints
	return opts
}

// benchEventLines returns the lines of a one-record-per-line testdata file
// that decode to an event.
func benchEventLines(tb testing.TB, f Format, path string) [][]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	rec := &recorder{}
	if err := f.Decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Opts: benchOpts(tb, path)}, rec); err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	var out [][]byte
	for _, e := range rec.Events {
		out = append(out, lines[e.Line-1])
	}
	return out
}

// benchVary returns rec with its k-th variation of ids and times: each old
// string of pairs replaced by the new one formatted with k, k%10, k%60
// (%[2]d and %02[3]d give digits that keep a time valid) and k+1.
func benchVary(rec []byte, k int, pairs ...string) []byte {
	for i := 0; i+1 < len(pairs); i += 2 {
		rec = bytes.ReplaceAll(rec, []byte(pairs[i]), fmt.Appendf(nil, pairs[i+1], k, k%10, k%60, k+1))
	}
	return rec
}

// benchLines repeats lines, varied, to benchSize.
func benchLines(lines [][]byte, pairs ...string) []byte {
	var b []byte
	for k := 0; len(b) < benchSize; k++ {
		for _, l := range lines {
			b = append(append(b, benchVary(l, k, pairs...)...), '\n')
		}
	}
	return b
}

// benchArray builds a JSON array of elems repeated, varied, to benchSize,
// one element per line group as the testdata writes them.
func benchArray(elems []json.RawMessage, pairs ...string) []byte {
	b := []byte("[\n")
	for k := 0; len(b) < benchSize; k++ {
		for _, e := range elems {
			if len(b) > 2 {
				b = append(b, ",\n"...)
			}
			b = append(append(b, "  "...), benchVary(e, k, pairs...)...)
		}
	}
	return append(b, "\n]\n"...)
}

// benchArrayFile returns the elements of the JSON array in path.
func benchArrayFile(tb testing.TB, path string) []json.RawMessage {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		tb.Fatal(err)
	}
	return elems
}

var (
	benchLiteLLMInput = sync.OnceValue(func() []byte {
		lines := benchEventLines(&testing.T{}, litellm{}, "testdata/litellm/standard_logging_payload.jsonl")
		return benchLines(lines, "9f1c000", "%07[1]x", "-4000-8000-", "-4000-%04[1]x-", "17954280", "179%05[1]d")
	})
	benchSpendLogsInput = sync.OnceValue(func() []byte {
		elems := benchArrayFile(&testing.T{}, "testdata/litellm/spend_logs.json")
		return benchArray(elems, "7a7a000", "%07[1]x", "T10:", "T1%[2]d:", " 10:", " 1%[2]d:")
	})
	benchJSONLInput = sync.OnceValue(func() []byte {
		lines := benchEventLines(&testing.T{}, genericJSONL{}, "testdata/jsonl/gateway.jsonl")
		return benchLines(lines, `"r-`, `"r%[1]d-`, "T10:00:0", "T10:%02[3]d:0", "17954280", "179%05[1]d")
	})
	benchTritonInput = sync.OnceValue(func() []byte {
		var elems []json.RawMessage
		for _, e := range benchArrayFile(&testing.T{}, "testdata/triton/trace_mixed.json") {
			if bytes.Contains(e, []byte(`"id": 2,`)) {
				elems = append(elems, e)
			}
		}
		return benchArray(elems, `"id": 2,`, `"id": %[1]d,`, `"req-42"`, `"req-%[1]d"`, `"ns": 1`, `"ns": %[4]d1`)
	})
	benchHARInput = sync.OnceValue(func() []byte {
		var doc struct {
			Log struct {
				Entries []json.RawMessage `json:"entries"`
			} `json:"log"`
		}
		data, _ := os.ReadFile("testdata/har/llm_chat.har")
		if err := json.Unmarshal(data, &doc); err != nil {
			panic(err)
		}
		var good []json.RawMessage
		for _, e := range doc.Log.Entries {
			one := append(append([]byte(`{"log": {"entries": [`), e...), "]}}"...)
			rec := &recorder{}
			if err := (har{}).Decode(&decode.Input{R: bytes.NewReader(one), Name: "x"}, rec); err == nil && len(rec.Events) > 0 && len(rec.Rejects) == 0 {
				good = append(good, e)
			}
		}
		arr := benchArray(good, "9f1c2d3e", "%08[1]x", "req_7f8e9d", "req_%[1]d_", "T10:", "T1%[2]d:", "chatcmpl-abc", "chatcmpl-%[1]d-")
		return append(append([]byte(`{"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "pages": [], "entries": `), arr...), "}}\n"...)
	})
)

// benchVLLMBenchInput builds a vllm bench serve --save-detailed document
// of many requests, each with 16 inter-token latencies, one in 50 failed.
var benchVLLMBenchInput = sync.OnceValue(func() []byte {
	const n = 60000
	var doc struct {
		Backend    string      `json:"backend"`
		ModelID    string      `json:"model_id"`
		NumPrompts int         `json:"num_prompts"`
		InputLens  []int       `json:"input_lens"`
		OutputLens []int       `json:"output_lens"`
		TTFTs      []float64   `json:"ttfts"`
		ITLs       [][]float64 `json:"itls"`
		Latencies  []float64   `json:"latencies"`
		StartTimes []float64   `json:"start_times"`
		Texts      []string    `json:"generated_texts"`
		Errors     []string    `json:"errors"`
	}
	doc.Backend, doc.ModelID, doc.NumPrompts = "openai-chat", "meta-llama/Llama-3.1-8B-Instruct", n
	for i := range n {
		doc.InputLens = append(doc.InputLens, 100+i%400)
		doc.OutputLens = append(doc.OutputLens, 17)
		ttft := 0.05 + float64(i%97)/1000
		doc.TTFTs = append(doc.TTFTs, ttft)
		var itls []float64
		lat := ttft
		for j := range 16 {
			g := 0.01 + float64((i+j)%13)/10000
			itls = append(itls, g)
			lat += g
		}
		doc.ITLs = append(doc.ITLs, itls)
		doc.Latencies = append(doc.Latencies, lat)
		doc.StartTimes = append(doc.StartTimes, 1234.5+float64(i)*0.0125)
		doc.Texts = append(doc.Texts, "text of request "+strconv.Itoa(i))
		doc.Errors = append(doc.Errors, map[bool]string{true: "Too Many Requests"}[i%50 == 49])
	}
	b, err := json.Marshal(&doc)
	if err != nil {
		panic(err)
	}
	return b
})

func BenchmarkDecodeLiteLLM(b *testing.B) {
	benchDecode(b, litellm{}, benchLiteLLMInput(), decode.Options{})
}

func BenchmarkDecodeLiteLLMSpendLogs(b *testing.B) {
	benchDecode(b, litellm{}, benchSpendLogsInput(), decode.Options{})
}

func BenchmarkDecodeJSONL(b *testing.B) {
	benchDecode(b, genericJSONL{}, benchJSONLInput(), benchOpts(b, "testdata/jsonl/gateway.jsonl"))
}

func BenchmarkDecodeTriton(b *testing.B) {
	benchDecode(b, triton{}, benchTritonInput(), decode.Options{})
}

func BenchmarkDecodeVLLMBench(b *testing.B) {
	benchDecode(b, vllmBench{}, benchVLLMBenchInput(), decode.Options{})
}

func BenchmarkDecodeHAR(b *testing.B) {
	benchDecode(b, har{}, benchHARInput(), decode.Options{})
}

// TestBenchInputs checks that every record of the benchmark inputs becomes
// an event, so the benchmarks measure the event route.
func TestBenchInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 16 MB inputs")
	}
	for _, c := range []struct {
		f    Format
		data []byte
		opts decode.Options
	}{
		{litellm{}, benchLiteLLMInput(), decode.Options{}},
		{litellm{}, benchSpendLogsInput(), decode.Options{}},
		{genericJSONL{}, benchJSONLInput(), benchOpts(t, "testdata/jsonl/gateway.jsonl")},
		{triton{}, benchTritonInput(), decode.Options{}},
		{vllmBench{}, benchVLLMBenchInput(), decode.Options{}},
		{har{}, benchHARInput(), decode.Options{}},
	} {
		rec := &countingSink{}
		if err := c.f.Decode(&decode.Input{R: bytes.NewReader(c.data), Name: "bench", Opts: c.opts}, rec); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes, %d events, %d skips, %d rejects", c.f.Name(), len(c.data), rec.Events, rec.Skips, rec.Rejects)
		if rec.Events == 0 || rec.Rejects != 0 {
			t.Errorf("%s: %d events, %d rejects", c.f.Name(), rec.Events, rec.Rejects)
		}
	}
}
