package genaiperf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// gpDecodePieces decodes doc read a few bytes at a time, so that requests
// straddle the scanner's refills, and returns what the sink was told, how
// many requests were read in one pass, and the error.
func gpDecodePieces(doc []byte) (*decodetest.Recorder, int64, error) {
	rec := &decodetest.Recorder{}
	in := &decode.Input{R: &gpPieceReader{rest: doc, n: max(7, len(doc)/50)}, Name: "x", Host: "h"}
	w := &gpWalker{sc: &gpScanner{r: in.R}, in: in, sink: rec}
	err := w.decode()
	return rec, w.onePassRead, err
}

// gpPieceReader reads rest n bytes at a time, so that requests straddle
// the scanner's refills.
type gpPieceReader struct {
	rest []byte
	n    int
}

func (r *gpPieceReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.rest)
	r.rest = r.rest[k:]
	return k, nil
}

// checkGpPieces decodes doc read in pieces and whole and fails when the
// events, rejects or errors differ; it returns how many requests were read
// in one pass.
func checkGpPieces(t testing.TB, doc []byte) int64 {
	t.Helper()
	pieces, n, pErr := gpDecodePieces(doc)
	whole := &decodetest.Recorder{}
	wErr := Format{}.Decode(&decode.Input{R: bytes.NewReader(doc), Name: "x", Host: "h"}, whole)
	if fmt.Sprint(pErr) != fmt.Sprint(wErr) || !reflect.DeepEqual(pieces, whole) {
		x, _ := json.Marshal(pieces)
		y, _ := json.Marshal(whole)
		t.Fatalf("doc %.300q:\nin pieces %v %.2000s\nwhole     %v %.2000s", doc, pErr, x, wErr, y)
	}
	return n
}

// gpDocOf builds a one-request document whose responses are texts, read
// 1 ms apart; html chooses whether '<', '>' and '&' are escaped as \u00XX.
func gpDocOf(texts []string, html bool) []byte {
	const t0 = int64(1_800_000_000_000_000_000)
	ts, outs := []int64{}, []map[string]string{}
	for i, s := range texts {
		ts = append(ts, t0+int64(i+1)*1e6)
		outs = append(outs, map[string]string{"response": s})
	}
	r := struct {
		Timestamp int64               `json:"timestamp"`
		Inputs    map[string]string   `json:"request_inputs"`
		Times     []int64             `json:"response_timestamps"`
		Outputs   []map[string]string `json:"response_outputs"`
	}{t0, map[string]string{"payload": `{"model":"m","stream":true}`}, ts, outs}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(r); err != nil {
		panic(err)
	}
	return []byte(gpDoc(strings.TrimSpace(buf.String())))
}

// gpEdgeEvents are SSE event JSONs (the text after "data: ") that the
// escaped reading must read exactly as the unescaped one, or leave to it.
var gpEdgeEvents = []string{
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}`,
	`{"id":"a","choices":[{"delta":{"content":"caf\u00e9 \"q\" \\ \n \/ \ud83d\ude00"}}]}`,
	`{"id":"a","choices":[{"delta":{"content":"é😀\t<>&"}}]}`,
	`{"id":"é","model":"m/x","choices":[]}`,
	`{"id":"a\u00e9","choices":[]}`,
	`{"id":null,"choices":[]}`,
	`{"id":"a","id":"b","choices":[]}`,
	`{"ID":"a","choices":[]}`,
	`{"i\u0064":"a","choices":[]}`,
	`{ "id" : "a" , "choices" : [ { "delta" : { "content" : "" } , "finish_reason" : "stop" } ] }`,
	"{\t\"id\":\"a\",\r\"choices\":[]}",
	`{"choices":[{"delta":{"reasoning_content":"r"}},{"delta":{"tool_calls":[{"index":0}]}}]}`,
	`{"choices":[{"delta":{"reasoning":null,"tool_calls":[],"content":{}}}]}`,
	`{"choices":[{"delta":{"tool_calls":[ ]}}]}`,
	`{"choices":[{"delta":null,"message":{"content":"m"}}]}`,
	`{"choices":[{"delta":{"content":"x"},"delta":{}}]}`,
	`{"choices":[{"text":"t","finish_reason":"length"}]}`,
	`{"choices":[{"text":"","finish_reason":""}]}`,
	`{"choices":[{"text":"\u00e9\n"}]}`,
	`{"choices":[{"text":null,"finish_reason":null}]}`,
	`{"choices":[{"text":5}]}`,
	`{"choices":[{"finish_reason":"st\u006fp"}]}`,
	`{"choices":[{"finish_reason":5}]}`,
	`{"choices":null}`,
	`{"choices":[null]}`,
	`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}}`,
	`{"choices":[],"usage":null}`,
	`{"choices":[],"usage":{"prompt_tokens":null,"completion_tokens":99999999999999999999}}`,
	`{"choices":[],"usage":{"completion_tokens":1.5}}`,
	`{"choices":[],"usage":{"completion_tokens":-3,"prompt_tokens":0}}`,
	`{"choices":[],"usage":{"Completion_Tokens":3}}`,
	`{"choices":[],"usage":{"completion_tokens":3,"completion_tokens":4}}`,
	`{"error":{"code":429,"type":"rate_limit"}}`,
	`{"error":null,"choices":[]}`,
	`{"object":"error","type":"BadRequestError","code":400}`,
	`{"type":5,"choices":[]}`,
	`{"created":1e3,"logprobs":{"content":[{"token":"x","logprob":-0.1,"bytes":[120],"top_logprobs":[]}]},"x":[true,false,null,{}]}`,
	`{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"choices":[{"delta":{"content":"x"}}]} trailing`,
	`{"choices":[{"delta":{"content":"x"}}]`,
	`{"choices":[{"delta":{"content":"x"}}]}}`,
	`[1,2]`,
	`"text"`,
	`{}`,
	`{"id":"a","choices":[{"delta":{"content":"x"}}],"usage":{"completion_tokens":01}}`,
	// the header of gpEdgeEvents[0] (remembered by gpEscHead), then something else
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[],"model":"n"}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[],"ID":"n"}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m", "choices":[{"text":"t"}]}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices" :[{"text":"t"}]}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices":5}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"completion_tokens":3}}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m","usage":{"completion_tokens":3},"choices":[]}`,
	`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[{"delta":{"content":"y"}}]`,
}

// gpEdgeStreams are whole response texts: SSE framing, splits and cuts.
func gpEdgeStreams() [][]string {
	ev := func(e string) string { return "data: " + e + "\n\n" }
	tok, stop := ev(gpEdgeEvents[0]), ev(`{"choices":[{"delta":{},"finish_reason":"stop"}]}`)
	streams := [][]string{
		{tok, tok, stop, "data: [DONE]\n\n"},
		{tok + tok, "", stop + "data: [DONE]"},
		{tok[:20], tok[20:], tok[:len(tok)-1], "\n" + stop},
		{": ping\n\n", "event: message\n" + tok, "id: 5\nretry: 10\n\n", "data:[DONE]\n\n"},
		{"data:" + gpEdgeEvents[0] + "\r\n\r\n", "data: \t[DONE] \r\n"},
		{"data:\n\n", "data: \n", tok},
		{"  " + tok, tok},
		{"\n" + tok},
		{"da\u0074a: [DONE]\n", tok},
		{tok, "d\u0061ta: x\n\n"},
		{tok, "data: [DONE]x\n\n"},
		{tok, "data: {\"choices\":[{\"delta\":{\"content\":\"x\ny\"}}]}\n\n"},
		{tok, "data: \x01\n\n"},
		{tok, "\xff\xfe" + tok},
		{tok, "data: {\"id\":\"\xc3\"}\n\n"},
		{`{"id":"b","object":"chat.completion","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"completion_tokens":2}}`},
		{`{"id":"b","object":"chat.co`, `mpletion","choices":[]}`},
		{"<html>bad gateway</html>"},
		{tok, "data: \u00a0[DONE]\n\n"},
		{tok, "data: [DONE]\u2028\n\n"},
		{"\u2028" + tok},
		{tok, "\f" + tok},
		{tok, "data: \f{}\n\n"},
		{"event:\u0000x\n" + tok},
		{`data:{"":{`}, // found by the fuzzer: a key that bails inside a skipped object
		{"0", ":0"},    // found by the fuzzer: a body whose second read starts like SSE
		gpTokenTexts(`a`, `bb\n`, ``, `\u00e9\"\\`, `x\"},\"y\":{\"z`, `é`, `c`, `\ud83d\ude00`, `d`, `\/`, `e`),
		gpTokenTexts(`a`, "\x01"), gpTokenTexts(`a`, `\q`), gpTokenTexts(`a`, `\ud800`), gpTokenTexts(`a`, `"`),
		gpTokenTexts(`a`, `b"},"x":{"content":"c`), gpTokenTexts(`a`, `b`+"\n"),
		{ // the same bytes around the token but for a same-length change after it
			`data: {"choices":[{"delta":{"content":"a"},"logprobs":"z","finish_reason":null}]}` + "\n\n",
			`data: {"choices":[{"delta":{"content":"b"},"logprobs":null,"finish_reason":"s"}]}` + "\n\n",
		},
	}
	for _, e := range gpEdgeEvents {
		streams = append(streams, []string{ev(e), tok, ev(e) + stop})
	}
	return streams
}

// gpTokenTexts returns one response per token text (raw JSON string
// contents), each an event that differs from the one before only there.
func gpTokenTexts(texts ...string) []string {
	var out []string
	for _, t := range texts {
		out = append(out, `data: {"id":"a","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"`+
			t+`"},"logprobs":null,"finish_reason":null}]}`+"\n\n")
	}
	return out
}

// gpEdgeRequests are request objects of unusual shapes, as raw JSON.
var gpEdgeRequests = []string{
	`{"timestamp":1800000000000000000,"sequence_id":3,"request_inputs":{"payload":"{\"model\":\"m\"}","x":[1]},"response_timestamps":[1800000000000000001],"response_outputs":[{"response":"data: [DONE]\n\n","extra":null}]}`,
	` { "timestamp" : 1800000000000000000 , "request_inputs" : { } , "response_timestamps" : [ 1800000000000000001 , 1800000000000000002 ] , "response_outputs" : [ { "response" : "data: {\"choices\":[{\"text\":\"a\"}]}\n\n" } , { } ] } `,
	`{"response_timestamps":[2],"timestamp":1,"response_outputs":[{"response":"data: [DONE]\n\n"}]}`,
	`{"timestamp":1,"response_outputs":[],"response_timestamps":[2]}`,
	`{"timestamp":1,"response_timestamps":[2,3]}`,
	`{"timestamp":1,"response_timestamps":[3,2]}`,
	`{"timestamp":5,"response_timestamps":[2],"response_outputs":[]}`,
	`{"timestamp":0,"response_timestamps":[],"response_outputs":[]}`,
	`{"timestamp":-1}`,
	`{"timestamp":1.5}`,
	`{"timestamp":9223372036854775807,"response_timestamps":[9223372036854775807]}`,
	`{"timestamp":9223372036854775808}`,
	`{"timestamp":01}`,
	`{"Timestamp":1}`,
	`{"time\u0073tamp":1}`,
	`{"timestamp":"1"}`,
	`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: [DONE]\n\n"},{"response":"x"}]}`,
	`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"text_output":"I"}]}`,
	`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":null}]}`,
	`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"Response":"data: [DONE]\n\n"}]}`,
	`{"timestamp":1,"request_inputs":{"payload":"{\"model\":\"\u00e9\",\"stream\":false}"},"response_timestamps":[2],"response_outputs":[{"response":"data: [DONE]\n\n"}]}`,
	`{"timestamp":1,"request_inputs":{"payload":"\ud800"},"response_timestamps":[2]}`,
	`{"timestamp":1,"request_inputs":{"payload":5},"response_timestamps":[2]}`,
	`{"timestamp":1,"request_inputs":[],"response_timestamps":[2]}`,
	`{"timestamp":1,"response_timestamps":null}`,
	`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: [DONE]\n\n"}]`,
	`{"timestamp":1,"response_timestamps":[2],"response_outputs":[{"response":"data: [DONE]\n\n}]}`,
	`{"timestamp":1,"response_timestamps":[2 3]}`,
	`{"timestamp":1,"response_timestamps":[2,],"response_outputs":[]}`,
	`{"timestamp":1,}`,
	`{}`,
	`[]`,
}

// TestGenaiPerfOnePass checks that the ordinary requests are read in one
// pass (the testdata's, a generated export's, one larger than the
// look-ahead) and that reading any edge input in small pieces gives what
// reading it whole gives.
func TestGenaiPerfOnePass(t *testing.T) {
	export, err := os.ReadFile("testdata/profile_export.json")
	if err != nil {
		t.Fatal(err)
	}
	if n := checkGpPieces(t, export); n != 7 {
		t.Errorf("%d testdata requests read in one pass; want 7 of 8 (the rejected one's outputs are not read)", n)
	}
	gen := decodetest.FleetLog(t, decodetest.SmallFleet(), "bench-1")
	rec, n, _ := gpDecodePieces(gen)
	if n != int64(len(rec.Events)) || n < 50 {
		t.Errorf("%d of %d generated requests read in one pass", n, len(rec.Events))
	}
	// A request larger than the look-ahead, read in pieces: it is read
	// again once more of it is in the buffer.
	big := gpTokenTexts(strings.Split(strings.Repeat("tok ", 4000), " ")...)
	if n := checkGpPieces(t, gpDocOf(big, false)); n != 1 {
		t.Errorf("the %d-response request was not read in one pass", len(big))
	}
	for _, e := range gpEdges(t) {
		checkGpPieces(t, []byte(e))
	}
}

// TestGpEscKey checks key matching, with case folded, and that every key
// list it is given is lower-case ASCII (which its first-byte test assumes).
func TestGpEscKey(t *testing.T) {
	for _, c := range []struct {
		key string
		k   int
		ok  bool
	}{{"id", 0, true}, {"ID", -1, false}, {"iD", -1, false}, {"model", 2, true}, {"Model", -1, false},
		{"idx", -1, true}, {"created", -1, true}, {"_d", -1, true}, {"i", -1, true}} {
		if k, ok := gpEscKey([]byte(c.key), gpChunkKeys); k != c.k || ok != c.ok {
			t.Errorf("%q: got %d %v, want %d %v", c.key, k, ok, c.k, c.ok)
		}
	}
	for _, keys := range [][]string{gpChunkKeys, gpChoiceKeys, gpMessageKeys, gpUsageKeys, gpRequestKeys,
		gpInputKeys, gpOutputKeys} {
		for _, k := range keys {
			if strings.ToLower(k) != k || k == "" || k[0] < 'a' || k[0] > 'z' {
				t.Errorf("key %q is not lower-case ASCII starting with a letter", k)
			}
		}
	}
}

// TestGpOuterInt checks the integer reader against strconv.ParseInt and
// JSON's number grammar.
func TestGpOuterInt(t *testing.T) {
	for _, s := range []string{"0", "-0", "7", "12345678", "123456789", "1234567812345678", "12345678123456789",
		"1795428002071176816", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"-9223372036854775809", "18446744073709551616", "99999999999999999999", "01", "-", "1.5", "1e3",
		"1234:678", "12345678/", "1234567a", "-12345678x", "00000000"} {
		v, end := gpOuterInt([]byte(s+","), 0)
		_, err := strconv.ParseInt(s, 10, 64)
		valid := err == nil && json.Valid([]byte(s)) && !strings.ContainsAny(s, ".eE")
		if valid != (end == len(s)) {
			t.Errorf("%q: read to %d; valid %v", s, end, valid)
		}
		if want, err := strconv.ParseInt(s[:max(end, 0)], 10, 64); end >= 0 && (err != nil || v != want) {
			t.Errorf("%q: read %d to %d; want %d", s, v, end, want)
		}
	}
}

// FuzzGenaiPerfEscapedEvents checks the escaped reading of SSE events
// (genaiperf_esc_facts.go) against decoding them into gpChunk: the same
// stream of events is decoded as written and with each response's "data:"
// written "\u0064ata:", which the escaped reading leaves to the unescaped
// path (gpStream.decodeChunk).
func FuzzGenaiPerfEscapedEvents(f *testing.F) {
	for _, e := range gpEdgeEvents {
		f.Add(e, true)
	}
	f.Fuzz(func(t *testing.T, event string, html bool) {
		ev := "data: " + event + "\n\n"
		doc := gpDocOf([]string{ev, gpTokenTexts("a")[0], ev + "data: [DONE]\n\n"}, html)
		plain := bytes.ReplaceAll(doc, []byte(`"response":"data: `), []byte(`"response":"\u0064ata: `))
		escaped, _, eErr := gpDecodePieces(doc)
		unescaped, _, uErr := gpDecodePieces(plain)
		if fmt.Sprint(eErr) != fmt.Sprint(uErr) || !reflect.DeepEqual(escaped, unescaped) {
			x, _ := json.Marshal(escaped)
			y, _ := json.Marshal(unescaped)
			t.Fatalf("event %q:\nescaped   %v %s\nunescaped %v %s", event, eErr, x, uErr, y)
		}
	})
}
