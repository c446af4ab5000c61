package genaiperf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// gpOpenAIExport is a GenAI-Perf export of OpenAI-shaped streams, less
// regular than the fleet's: every chunk carries a random "obfuscation"
// padding after its choices (so no two events share their bytes after the
// token), token texts vary in length and hold \u escapes and raw UTF-8, and
// reads sometimes hold two events or split one.
var gpOpenAIExport = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{" the", " model", " token", ",", " caf\\u00e9", " na\\u00efve", " 日本", "\\n", " \\\"quoted\\\"", " a", " stream"}
	var reqs []string
	t := int64(1_800_000_000_000_000_000)
	for r := range 300 {
		id := fmt.Sprintf("chatcmpl-%016x%016x", rng.Uint64(), rng.Uint64())
		head := `data: {"id":"` + id + `","object":"chat.completion.chunk","created":1755137933,"model":"gpt-5-nano-2025-08-07","service_tier":"default","system_fingerprint":null,"choices":[`
		obf := func() string { return strings.Repeat("x", 1+rng.IntN(12)) }
		chunk := func(delta, fin string) string {
			return head + `{"index":0,"delta":` + delta + `,"finish_reason":` + fin + `}],"usage":null,"obfuscation":"` + obf() + "\"}\n\n"
		}
		texts := []string{chunk(`{"role":"assistant","content":"","refusal":null}`, "null")}
		for range 200 + rng.IntN(100) {
			texts = append(texts, chunk(`{"content":"`+words[rng.IntN(len(words))]+`"}`, "null"))
		}
		texts = append(texts, chunk(`{}`, `"stop"`)+head[:len(head)-len(`"choices":[`)]+
			`"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":250,"total_tokens":262},"obfuscation":"`+obf()+"\"}\n\ndata: [DONE]\n\n")
		var outs []string
		var ts []int64
		t0 := t
		for i := 0; i < len(texts); i++ {
			t += 20_000_000
			switch x := texts[i]; {
			case rng.IntN(30) == 0 && i+1 < len(texts): // two events in one read
				outs, texts[i+1] = append(outs, x+texts[i+1]), ""
			case rng.IntN(30) == 0: // an event split over two reads
				outs = append(outs, x[:len(x)/2], x[len(x)/2:])
				ts = append(ts, t)
				t += 1_000
			default:
				outs = append(outs, x)
			}
			ts = append(ts, t)
		}
		type out struct {
			Response string `json:"response"`
		}
		var o []out
		for _, s := range outs {
			o = append(o, out{s})
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Timestamp int64             `json:"timestamp"`
			Inputs    map[string]string `json:"request_inputs"`
			Times     []int64           `json:"response_timestamps"`
			Outputs   []out             `json:"response_outputs"`
		}{t0, map[string]string{"payload": `{"model":"gpt-5-nano","stream":true}`}, ts, o})
		reqs = append(reqs, strings.TrimSpace(buf.String()))
		t = t0 + int64(r+1)*50_000_000
	}
	return []byte(gpDoc(reqs...))
})

// BenchmarkDecodeGenaiPerfOpenAI measures the decoder on gpOpenAIExport,
// where the escaped reading's whole-event memo never applies.
func BenchmarkDecodeGenaiPerfOpenAI(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, gpOpenAIExport(), decode.Options{})
}

// TestGenaiPerfOpenAIExport checks that gpOpenAIExport's requests are read
// in one pass, and alike in pieces and whole.
func TestGenaiPerfOpenAIExport(t *testing.T) {
	if n := checkGpPieces(t, gpOpenAIExport()); n != 300 {
		t.Errorf("%d of 300 requests read in one pass", n)
	}
}
