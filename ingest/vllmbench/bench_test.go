package vllmbench

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
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

func BenchmarkDecodeVLLMBench(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, benchVLLMBenchInput(), decode.Options{})
}

func TestBenchInputs(t *testing.T) {
	decodetest.CheckBenchInput(t, Format{}, benchVLLMBenchInput(), decode.Options{})
}
