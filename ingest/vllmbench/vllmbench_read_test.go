package vllmbench

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// vbenchEdges are documents at the edges of the format. What the decoder
// must report for each is in testdata/edges/edges.golden, written by the
// encoding/json route this decoder replaced (struct decoding into
// vbenchDoc), which the one route was fuzzed against before that route was
// deleted.
var vbenchEdges = []string{
	`{"model_id":"m","backend":"openai","start_times":[10.0,10.5],"ttfts":[0.3,0.05],"itls":[[0.1,0.2],[]],"output_lens":[3,1],"input_lens":[7,8,9],"errors":["","",""]}`,
	` { "model_id" : "m\u00e9" , "backend" : "vllm" , "ttfts" : [ 0.1 , null ] , "itls" : [ null , [ 0.01 ] ] } `,
	`{"model_id":"m","MODEL_ID":"n","ttfts":[0.1]}`,
	`{"model_id":"m","ttfts":[0.1],"ttfts":[0.2,0.3]}`,
	`{"model_id":"m","TTFTs":[0.1]}`,
	`{"model_\u0069d":"m","ttfts":[0.1]}`,
	`{"model_id":"caf` + "\xe9" + `","ttfts":[0.1]}`,
	`{"model_id":5,"ttfts":[0.1]}`,
	`{"model_id":null,"backend":null,"endpoint_type":"openai-chat","label":null,"ttfts":[0.1]}`,
	`{"model_id":"m","label":"run \"1\"","ttfts":[0.1]}`,
	`{"model_id":"m","label":"run-1","ttfts":[0.1],"itls":null}`,
	`{"ttfts":["0.1"]}`,
	`{"ttfts":[0.1],"input_lens":[1.0],"output_lens":[-1]}`,
	`{"ttfts":[0.1],"input_lens":[9223372036854775808],"output_lens":[-0]}`,
	`{"ttfts":[1e-05, 1E2, 0.1e+1, -0.0],"latencies":[1e400, 1e31, 12345678901234567890.5, 0.0000000005]}`,
	`{"ttfts":[0.1],"latencies":[0.` + strings.Repeat("0", 70) + `1]}`,
	`{"start_times":[NaN, 5, Infinity, -Infinity, 4.25],"ttfts":[0.1,0.2,0.3,0.4,0.5],"std":NaN}`,
	`{"start_times":[-1, 3],"ttfts":[-0.1, 0.1],"itls":[[0.1],[-0.1]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,null],[true]]}`,
	`{"ttfts":[0.1],"itls":[5]}`,
	`{"ttfts":[0.1],"itls":[[[0.1]]]}`,
	`{"ttfts":[0.1,0.2,0.3],"errors":["Too Many Requests","Traceback\n  asyncio.exceptions.TimeoutError\n",null,""]}`,
	`{"ttfts":[0.1],"errors":["\ud83d bad"]}`,
	`{"ttfts":[0.1],"errors":["caf\u00e9 ServerDisconnectedError"]}`,
	`{"ttfts":[0.1],"errors":[5]}`,
	`{"ttfts":[0.1],"errors":null,"input_lens":null,"start_times":null}`,
	`{"ttfts":{"a":1}}`,
	`{"ttfts":[0.1],"deep":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"ttfts":[0.1]} x`,
	`{"ttfts":[0.1]`,
	`{"ttfts":[0.1,]}`,
	`{"ttfts":[01]}`,
	`[{"ttfts":[0.1]}]`,
	`"x"`,
	`{}`,
	`{"model_id":"m","num_prompts":3}`,
	`{"ttfts":[],"itls":[]}`,
	`{"ttfts":[0.1],"generated_texts":["a\"b","\ud800"],"extra":{"k":[1,{"z":null}]}}`,
	`{"ttfts":[0.1,0.2,0.3,0.4],"itls":[[0.0101,-0.0,0,1e-5,0.12345678951],[0.1 ,0.2 ],[ 0.1, -0.0000000004],[1.5E+2]]}`,
	`{"ttfts":[0.1,0.2,0.3],"itls":[[0.1,-0.0000000005],[0.` + strings.Repeat("1", 70) + `],[123456789.5,1234567890.5]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,01],[0.2]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,1.],[0.2]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,.5],[0.2]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,-],[0.2]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,1.5x],[0.2]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,1.5.5],[0.2]]}`,
	`{"ttfts":[0.1,0.2],"itls":[[0.1,1e],[0.2]]}`,
	`{"ttfts":[0.1],"itls":[[0.1,0.2`,
	`{"ttfts":[0.1],"itls":[[0.1,0.2]`,
	`null`, ` null `, `[]`, `{"ttfts":["0.5"],"itls":[["0.1", 0.2]]}`, `{"ttfts":["x"]}`, `{"ttfts":[""]}`,
	`{"ttfts":[true]}`, `{"ttfts":5}`, `{"model_id":5,"ttfts":[1]}`, `{"label":"a","label":null,"ttfts":[1]}`,
	`{"model_id":"a","model_id":null,"ttfts":[1]}`, `{"ttfts":[1],"ttfts":null}`, `{"itls":[[1]],"itls":null,"ttfts":[1]}`,
	`{"errors":["a"],"errors":null,"ttfts":[1]}`, `{"Ttfts":[1],"\u0074tfts":[2]}`, `{"ſtart_times":[1],"ttfts":[1]}`,
	`{"x":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]],"ttfts":[1]}`, `{"errors":["\ud800"],"ttfts":[1]}`, `{"ttfts":[1]} x`,
	`{"itls":[5],"ttfts":[1]}`, `{"itls":[["a"]],"ttfts":[1]}`, `{"itls":[[-1]],"ttfts":[1]}`, `{"errors":[1],"ttfts":[1]}`,
	`{"model_id":"\u00e9\ud83d\ude00","ttfts":[1]}`, `{"ttfts":[1e400]}`, `{"ttfts":["1e400"]}`, `{"itls":[["-0.5"]],"ttfts":[1]}`,
}

// vbenchLongITLs is a document whose itls outgrow a block of the arena
// (one request's list longer than a block, and lists that cross from one
// block to the next), with a bad value in the part of a list that moves to
// a new block when bad is set.
func vbenchLongITLs(bad bool) []byte {
	var b strings.Builder
	b.WriteString(`{"model_id":"m","backend":"vllm","ttfts":[0.1,0.2,0.3,0.4,0.5],"itls":[`)
	for i, n := range []int{20000, 20000, vbenchITLBlock + 5, 3, 30000} {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("[")
		for k := range n {
			if k > 0 {
				b.WriteString(",")
			}
			if bad && i == 1 && k == 10000 {
				b.WriteString("-0.5")
				continue
			}
			b.WriteString("0.00" + strconv.Itoa(1+k%9))
		}
		b.WriteString("]")
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestVLLMBenchEdges decodes every edge document and compares what the
// sink was told with testdata/edges/edges.golden.
func TestVLLMBenchEdges(t *testing.T) {
	b, err := os.ReadFile("testdata/edges/edges.golden")
	if err != nil {
		t.Fatal(err)
	}
	var want []struct {
		Input   string          `json:"input"`
		Decoded json.RawMessage `json:"decoded"`
	}
	if err := json.Unmarshal(b, &want); err != nil || len(want) != len(vbenchEdges) {
		t.Fatalf("%d golden edges for %d: %v", len(want), len(vbenchEdges), err)
	}
	for i, e := range vbenchEdges {
		rec := &decodetest.Recorder{}
		if err := (Format{}).Decode(&decode.Input{R: strings.NewReader(e), Name: "x", Host: "h"}, rec); err != nil {
			t.Fatal(err)
		}
		got, _ := json.MarshalIndent(rec, "      ", "  ")
		var w bytes.Buffer
		json.Indent(&w, want[i].Decoded, "      ", "  ")
		var input string // as JSON stored it: invalid UTF-8 replaced
		if q, _ := json.Marshal(e); json.Unmarshal(q, &input) != nil || want[i].Input != input || !bytes.Equal(got, w.Bytes()) {
			t.Errorf("edge %d %.80q:\ngot  %s\nwant %s", i, e, got, w.Bytes())
		}
	}
}

// TestVLLMBenchLongITLs decodes itls that outgrow a block of the arena: five
// requests with 20000, 20000, a block + 5, 3 and 30000 itls of 1..9 ms; with
// a bad value at request 2, that request alone is rejected.
func TestVLLMBenchLongITLs(t *testing.T) {
	lens := []int{20000, 20000, vbenchITLBlock + 5, 3, 30000}
	for _, bad := range []bool{false, true} {
		rec := decodetest.DecodeOne(t, Format{}, decode.Options{}, string(vbenchLongITLs(bad)))
		if want := 5 - btoi(bad); len(rec.Events) != want {
			t.Fatalf("bad %v: %d events, want %d", bad, len(rec.Events), want)
		}
		if bad && (len(rec.Rejects) != 1 || rec.Rejects[0] != (decodetest.RecordedNote{Line: 2, Reason: "bad number", Detail: "itls: -0.5"})) {
			t.Errorf("rejects %+v", rec.Rejects)
		}
		for _, e := range rec.Events {
			n, offs := lens[e.Line-1], e.Event.ChunkOffsetsNs
			var sum int64
			for k := range n {
				sum += int64(1+k%9) * 1e6
			}
			if len(offs) != n+1 || offs[n]-offs[0] != sum {
				t.Errorf("request %d: %d offsets, span %d; want %d, %d", e.Line, len(offs), offs[len(offs)-1]-offs[0], n+1, sum)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestVLLMBenchNs(t *testing.T) {
	for _, s := range []string{"0", "-0", "0.1", "1234.5", "0.010100000000000001", "1e-05", "1e31", "1e400",
		"0.0000000005", "-0.0000000005", "0.00000000049", "1234567890.5", "123456789.5", "0.1234567894", "-0.12345678951", "00.5", "1.", "-", "1.5e3", "0.9999999999", "12345678901234567890.5", "0." + strings.Repeat("0", 70) + "1"} {
		got, gotOK := vbenchNs([]byte(s))
		want, wantOK := textscan.ScaledDecimalNs(s, 1e9)
		if got != want || gotOK != wantOK {
			t.Errorf("vbenchNs(%s) = %d %v, want %d %v", s, got, gotOK, want, wantOK)
		}
	}
}

// FuzzVLLMBenchLists checks the numbers of the lists a document holds
// against textscan.ScaledDecimalNs.
func FuzzVLLMBenchLists(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	for _, e := range vbenchEdges {
		f.Add([]byte(e))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v vbenchReader
		if !v.read(vbenchNullNonFinite(data)) {
			return
		}
		for _, l := range v.lists[:3] {
			for _, s := range l {
				b := v.text(s)
				if b == nil {
					continue
				}
				got, gotOK := vbenchNs(b)
				want, wantOK := textscan.ScaledDecimalNs(string(b), 1e9)
				if got != want || gotOK != wantOK {
					t.Fatalf("vbenchNs(%s) = %d %v, want %d %v", b, got, gotOK, want, wantOK)
				}
			}
		}
	})
}

// TestDecimalTexts checks the texts against strconv across blocks of 256,
// with positions skipped and a last block cut short by count.
func TestDecimalTexts(t *testing.T) {
	const count = 3000
	var x decode.DecimalTexts
	value := func(i int) int64 { return int64(i)*7919 - 5000 }
	for i := 0; i < count; i += 1 + i%7 {
		if got := x.Get(i, count, value); got != strconv.FormatInt(value(i), 10) {
			t.Fatalf("get(%d) = %q", i, got)
		}
	}
}

// FuzzVLLMBenchNs checks vbenchNs against textscan.ScaledDecimalNs on JSON numbers.
func FuzzVLLMBenchNs(f *testing.F) {
	for _, s := range []string{"0.010100000000000001", "1234.5", "-0.0000000005", "1e-05", "123456789.99999999951", "0.0101", "999999999.9999999995"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		if e, st := jsonwalk.NumberEnd([]byte(s), 0); st == jsonwalk.Bad || e != len(s) {
			return
		}
		got, gotOK := vbenchNs([]byte(s))
		want, wantOK := textscan.ScaledDecimalNs(s, 1e9)
		if got != want || gotOK != wantOK {
			t.Fatalf("vbenchNs(%s) = %d %v, want %d %v", s, got, gotOK, want, wantOK)
		}
		vbenchCheckNsAt(t, s)
	})
}

// vbenchCheckNsAt checks that vbenchNsAt reads the number s, followed by
// each delimiter, as vbenchNs does, or declines it.
func vbenchCheckNsAt(t *testing.T, s string) {
	t.Helper()
	for _, d := range []string{",", "]", " ", "\n", "x", ".", "e", "+", "-", "", "0", ",12345678", "]\xff\x00/:9999999"} {
		b := []byte("[" + s + d)
		end, got, ok := vbenchNsAt(b, 1)
		if !ok {
			continue
		}
		want, wantOK := vbenchNs([]byte(s))
		if end != 1+len(s) || !wantOK || got != want {
			t.Fatalf("vbenchNsAt(%q) = %d %d, want %d %d %v", b, end, got, 1+len(s), want, wantOK)
		}
	}
}

func TestVLLMBenchNsAt(t *testing.T) {
	for _, s := range []string{"0", "-0", "0.1", "1234.5", "0.010100000000000001", "1e-05", "0.0000000005", "-0.0000000005",
		"0.00000000049", "1234567890.5", "123456789.5", "0.1234567894", "-0.12345678951", "0.9999999999", "999999999.9999999995",
		"0." + strings.Repeat("0", 70) + "1", "0." + strings.Repeat("9", 62)} {
		vbenchCheckNsAt(t, s)
	}
}
