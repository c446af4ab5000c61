package litellm

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// litellmWindows decodes data read whole and read a byte at a time (or
// in halves), the window refilled at every byte, and fails when the two
// report anything differently.
func litellmWindows(t *testing.T, data []byte) *decodetest.Recorder {
	t.Helper()
	whole, slow := &decodetest.Recorder{}, &decodetest.Recorder{}
	errW := Format{}.Decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"}, whole)
	r := iotest.HalfReader(bytes.NewReader(data))
	if len(data) < 64<<10 {
		r = iotest.OneByteReader(bytes.NewReader(data))
	}
	errS := Format{}.Decode(&decode.Input{R: r, Name: "x", Host: "h"}, slow)
	if (errW == nil) != (errS == nil) || !reflect.DeepEqual(whole, slow) {
		t.Fatalf("input %q:\nwhole %v %+v\nslow  %v %+v", decode.TruncateDetail(string(data)), errW, whole, errS, slow)
	}
	return whole
}

// litellmRec is one payload with id id.
func litellmRec(id string) string {
	return `{"id":"` + id + `","litellm_call_id":"c-` + id + `","startTime":1795428000.5,"endTime":1795428001,"status":"success"}`
}

// TestLiteLLMArrays reads the edge inputs through a window refilled at
// every byte, and arrays longer than the window.
func TestLiteLLMArrays(t *testing.T) {
	for _, data := range litellmEdges {
		litellmWindows(t, []byte(data))
	}
	// Arrays longer than the window, broken at the end, in the middle and
	// right after the first window.
	var b []byte
	for i := 0; len(b) < 3*jsonWindowSize; i++ {
		b = append(b, ",\n  "...)
		b = append(b, litellmRec(strconv.Itoa(i))...)
	}
	b[0] = '['
	n := bytes.Count(b, []byte("}")) // one per record
	whole := append(b, "\n]\n"...)
	if rec := litellmWindows(t, whole); len(rec.Events) != n || rec.Total() != n {
		t.Errorf("whole: %d events, %d records; want %d", len(rec.Events), rec.Total(), n)
	}
	if rec := litellmWindows(t, whole[:len(whole)-3]); len(rec.Events) != n || rec.Total() != n {
		t.Errorf("no ']': %d events, %d records; want %d", len(rec.Events), rec.Total(), n)
	}
	// One element longer than the window, read a byte at a time: walked
	// again only as the window doubles.
	big := []byte("[" + litellmRec("a") + ", " + `{"messages":"` + strings.Repeat("x", 4*jsonWindowSize) + `",` + litellmRec("b")[1:] + "]")
	one, all := &decodetest.Recorder{}, &decodetest.Recorder{}
	errOne := Format{}.Decode(&decode.Input{R: iotest.OneByteReader(bytes.NewReader(big)), Name: "x"}, one)
	errAll := Format{}.Decode(&decode.Input{R: bytes.NewReader(big), Name: "x"}, all)
	if errOne != nil || errAll != nil || len(one.Events) != 2 || !reflect.DeepEqual(one, all) {
		t.Errorf("long element: %v %v\n%+v\n%+v", errOne, errAll, one, all)
	}
	for _, cut := range []int{len(b) / 2, jsonWindowSize + 100} {
		broken := append([]byte(nil), b[:cut]...)
		broken = append(append(broken, "\n\"junk\" : 1"...), b[cut:]...)
		// The records closed before the cut are read, then the syntax error
		// is rejected and ends the array.
		want := bytes.Count(b[:cut], []byte("}"))
		if rec := litellmWindows(t, append(broken, ']')); len(rec.Events) != want || len(rec.Rejects) != 1 || rec.Total() != want+1 {
			t.Errorf("cut at %d: %d events, %d rejects; want %d, 1", cut, len(rec.Events), len(rec.Rejects), want)
		}
	}
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
