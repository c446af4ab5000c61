package vllmbench

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// vbenchRoutes decodes data by the general route alone and by Decode (the
// fast path when it reads data), and fails when the two report anything
// differently. It reports whether the fast path read data.
func vbenchRoutes(t *testing.T, data []byte) bool {
	t.Helper()
	general, fast := &decodetest.Recorder{}, &decodetest.Recorder{}
	in := func() *decode.Input { return &decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"} }
	var errG error
	if len(bytes.TrimSpace(data)) > 0 {
		errG = Format{}.decodeGeneral(in(), general, vbenchNullNonFinite(data))
	}
	errF := Format{}.Decode(in(), fast)
	if (errG == nil) != (errF == nil) || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
	var f vbenchFast
	return f.read(vbenchNullNonFinite(data))
}

// vbenchFastEdges are documents the fast path must read as the general
// route does, or hand to it.
var vbenchFastEdges = []string{
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

func TestVLLMBenchFastMatchesGeneral(t *testing.T) {
	for _, p := range decodetest.TestdataFiles(t, "testdata") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".json") && !vbenchRoutes(t, b) {
			t.Errorf("%s: the fast path did not read it", p)
		}
	}
	for _, bad := range []bool{false, true} {
		if !vbenchRoutes(t, vbenchLongITLs(bad)) {
			t.Errorf("long itls (bad %v): the fast path did not read it", bad)
		}
	}
	if !testing.Short() && !vbenchRoutes(t, benchVLLMBenchInput()) {
		t.Error("benchmark input: the fast path did not read it")
	}
	for _, e := range vbenchFastEdges {
		vbenchRoutes(t, []byte(e))
	}
	// The fast path must read the usual shapes itself.
	for _, e := range vbenchFastEdges[:2] {
		if !vbenchRoutes(t, []byte(e)) {
			t.Errorf("fast path did not read %s", e)
		}
	}
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

func FuzzVLLMBenchFast(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	for _, e := range vbenchFastEdges {
		f.Add([]byte(e))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vbenchRoutes(t, data)
		var v vbenchFast
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

// FuzzVLLMBenchNs checks vbenchNs against scaledDecimalToNs on JSON numbers.
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
