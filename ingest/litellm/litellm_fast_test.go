package litellm

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// litellmRoutes decodes data by the general route alone and with the fast
// path, and fails when the two report anything differently.
func litellmRoutes(t *testing.T, data []byte) {
	t.Helper()
	general, fast := &decodetest.Recorder{}, &decodetest.Recorder{}
	in := func() *decode.Input { return &decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"} }
	errG := Format{}.decode(in(), general, time.UTC, nil)
	errF := Format{}.decode(in(), fast, time.UTC, newLiteLLMFast())
	if (errG == nil) != (errF == nil) || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
	// The array window refilled at every byte (or often).
	slow, r := &decodetest.Recorder{}, iotest.HalfReader(bytes.NewReader(data))
	if len(data) < 64<<10 {
		r = iotest.OneByteReader(bytes.NewReader(data))
	}
	errS := Format{}.decode(&decode.Input{R: r, Name: "x", Host: "h"}, slow, time.UTC, newLiteLLMFast())
	if (errG == nil) != (errS == nil) || !reflect.DeepEqual(general, slow) {
		t.Fatalf("input %q read a byte at a time:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errS, slow)
	}
}

// litellmArrayEdges are arrays whose reading by the fast path stops at a
// syntax error or the end, after some elements or none, and hands the rest
// to the general route.
var litellmArrayEdges = []string{
	"[\n" + litellmRec("a") + ",\n" + litellmRec("b") + "\n]",
	"[\n" + litellmRec("a") + ",\n" + litellmRec("b") + "\n] trailing {",
	"[" + litellmRec("a") + ",\n" + litellmRec("b") + ",\n]",
	"[" + litellmRec("a") + "\n\n" + litellmRec("b") + "]",
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b") + "\n x]",
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b"),
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b") + ",",
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b") + ",  \n",
	"[" + litellmRec("a") + ",\n 12",
	"[" + litellmRec("a") + ",\n 12]",
	"[" + litellmRec("a") + ",\n -]",
	"[" + litellmRec("a") + ",\n" + `{"id":"b","startTime":1795428000.5,"endTime":1795428001,` + "\n\"x\": tru}]",
	"[" + litellmRec("a") + ",\n" + `{"id":"b","startTime":1795428000.5,"endTime":1795428001,"id":"c"}` + "\n, " + litellmRec("d") + "]",
	"[" + litellmRec("a") + ",\n" + `{"id":"b","startTime":"bad","endTime":1795428001}` + ",\n" + litellmRec("d") + ",\n\"x\", null, [], {}, 5]",
	"[" + litellmRec("a") + "," + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "," + litellmRec("b") + "]",
	"[" + litellmRec("a") + "," + strings.Repeat("[", 600) + "]" + "," + litellmRec("b") + "]",
	" \r\n\t[ ]", "[", "[ ", "[{", "[{}", "[{},", "[1]", "[1", "[]]", "[] x",
	// what follows an element the general route reads on from
	"[{}.", "[{}0", "[1x", "[1 .", "[5.x", "[truex", `["a"x`, `["a" ,}`, "[{} {}]", "[{}, ]", "[[]x]",
}

// litellmRec is one payload with id id.
func litellmRec(id string) string {
	return `{"id":"` + id + `","litellm_call_id":"c-` + id + `","startTime":1795428000.5,"endTime":1795428001,"status":"success"}`
}

func TestLiteLLMFastArrays(t *testing.T) {
	for _, data := range litellmArrayEdges {
		litellmRoutes(t, []byte(data))
	}
	// Arrays longer than the window, broken at the end, in the middle and
	// right after the first window.
	var b []byte
	for i := 0; len(b) < 3*jsonWindowSize; i++ {
		b = append(b, ",\n  "...)
		b = append(b, litellmRec(strconv.Itoa(i))...)
	}
	b[0] = '['
	whole := append(b, "\n]\n"...)
	litellmRoutes(t, whole)
	litellmRoutes(t, whole[:len(whole)-3])
	// One element longer than the window, read a byte at a time: walked
	// again only as the window doubles.
	big := []byte("[" + litellmRec("a") + ", " + `{"messages":"` + strings.Repeat("x", 4*jsonWindowSize) + `",` + litellmRec("b")[1:] + "]")
	one, all := &decodetest.Recorder{}, &decodetest.Recorder{}
	errOne := Format{}.decode(&decode.Input{R: iotest.OneByteReader(bytes.NewReader(big)), Name: "x"}, one, time.UTC, newLiteLLMFast())
	errAll := Format{}.decode(&decode.Input{R: bytes.NewReader(big), Name: "x"}, all, time.UTC, nil)
	if errOne != nil || errAll != nil || len(one.Events) != 2 || !reflect.DeepEqual(one, all) {
		t.Errorf("long element: %v %v\n%+v\n%+v", errOne, errAll, one, all)
	}
	for _, cut := range []int{len(b) / 2, jsonWindowSize + 100} {
		broken := append([]byte(nil), b[:cut]...)
		broken = append(append(broken, "\n\"junk\" : 1"...), b[cut:]...)
		litellmRoutes(t, append(broken, ']'))
	}
}

// litellmFastEdges are records the fast path must read as the general
// route does, or hand to it.
var litellmFastEdges = []string{
	`{"id":"a","startTime":1795428000.5,"endTime":1795428001}`,
	` { "id" : "a\u00e9\"\\\/" , "startTime" : 1795428000.5 , "endTime" : 1795428001 } `,
	`{"id":"a","ID":"b","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":"a","id":"b","startTime":1795428000.5,"endTime":1795428001}`,
	`{"i\u0064":"a","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":"\ud83d","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":"caf` + "\xe9" + `","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":5,"startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":null,"stream":null,"startTime":1795428000.5,"endTime":null,"completionStartTime":null}`,
	`{"startTime":1795428000.5e0,"endTime":17954280011234567890}`,
	`{"startTime":-1,"endTime":1795428001}`,
	`{"startTime":"2026-11-23T10:00:00Z","endTime":"2026-11-23 10:00:01","completionStartTime":"2026-11-23T10:00:00.5+00:00","stream":true}`,
	`{"startTime":"2026-11-23T10:00:00\u005a","endTime":"2026-11-23T10:00:01Z"}`,
	`{"startTime":true,"endTime":1795428001}`,
	`{"startTime":1795428000,"endTime":1795428001,"stream":"true"}`,
	`{"startTime":1795428000,"endTime":1795428001,"prompt_tokens":1.0,"completion_tokens":-1}`,
	`{"startTime":1795428000,"endTime":1795428001,"prompt_tokens":9223372036854775808}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":"0.5","cache_hit":true}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":1e-7}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":{"status":"failure","status":"success"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":null,"hidden_params":null,"error_information":null}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":"x"}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"b-X-Request-ID":"2","a-x-request-id":"1","x-request-id":5,"y":{}}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x-request-id":"1","x-request-id":"2"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"X-REQUEST-İD":"1","\u0078-request-id":"2"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"status":"failure","error_information":{"error_code":429,"error_class":"RateLimitError"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"status":"failure","error_information":{"error_code":"5O0","error_class":"APITimeoutError"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"deep":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"startTime":1795428000,"endTime":1795428001} x`,
	`{"startTime":1795428000,"endTime":1795428001`,
	"{\"startTime\":1795428000,\n\"endTime\":1795428001}",
	`[{"id":"a","startTime":1795428000.5,"endTime":1795428001}, 5, {"id":"b"}, {"id":"c","startTime":1,"endTime":2}]`,
	"[\n {\"id\":\"a\",\n  \"startTime\":1795428000.5,\"endTime\":1795428001},\n\n{\"id\":\"b\",\"startTime\":1795428000.5,\"endTime\":1795428001}]",
	`[{"id":"a","startTime":1795428000.5,"endTime":1795428001}, {"id":`,
	"\xef\xbb\xbf[{\"id\":\"a\",\"startTime\":1795428000.5,\"endTime\":1795428001}]",
	`[]`, `[{}]`, `{}`, `null`,
}

func TestLiteLLMFastMatchesGeneral(t *testing.T) {
	for _, name := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		litellmRoutes(t, data)
	}
	for _, rec := range litellmFastEdges {
		litellmRoutes(t, []byte(rec))
	}
	if !testing.Short() {
		litellmRoutes(t, benchLiteLLMInput()[:1<<20])
		litellmRoutes(t, benchSpendLogsInput())
	}
}

func FuzzLiteLLMFast(f *testing.F) {
	for _, name := range decodetest.TestdataFiles(f, "testdata") {
		data, _ := os.ReadFile(name)
		f.Add(string(data))
	}
	for _, rec := range litellmFastEdges {
		f.Add(rec)
	}
	for _, data := range litellmArrayEdges {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data string) {
		litellmRoutes(t, []byte(data))
	})
}

// TestLiteLLMKey checks litellmKey against jsonwalk.StructKey.
func TestLiteLLMKey(t *testing.T) {
	keys := []string{"", "id", "ID", "iD", "request_id", "Request_ID", "spend", "model", "MODEL", "modeL", "messages", "metadata",
		"METADATA", "total_tokens", "startTime", "starttime", "STARTTIME", "i\\u0064", "\u212a", "call_type", "cache_hit",
		"completionStartTime", "completionstarttime", "custom_llm_provider", "hidden_params", "x", "@d", "`d",
		"a_very_long_key_that_is_no_field_at_all_of_the_record", "status", "Status", "stream", "streaM", "ſtatus"}
	for _, n := range litellmFields {
		keys = append(keys, n, strings.ToUpper(n))
	}
	for _, k := range keys {
		k1, ok1 := litellmKey([]byte(k))
		k2, ok2 := jsonwalk.StructKey([]byte(k), litellmFields)
		if k1 != k2 || ok1 != ok2 {
			t.Errorf("%q: litellmKey %d %v, jsonStructKey %d %v", k, k1, ok1, k2, ok2)
		}
	}
}
