package triton

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// tritonRoutes decodes data by the general route alone and with the fast
// path, and fails when the two report anything differently.
func tritonRoutes(t *testing.T, data []byte) {
	t.Helper()
	general, fast := &decodetest.RawRecorder{}, &decodetest.RawRecorder{}
	in := &decode.Input{Name: "x", Host: "h"}
	errG := Format{}.decodeGeneral(in, bytes.NewReader(data), general)
	errF := Format{}.Decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Host: "h"}, fast)
	if (errG == nil) != (errF == nil) || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", decode.TruncateDetail(string(data)), errG, general, errF, fast)
	}
}

// tritonFastEdges are inputs the fast path must read as the general route
// does, or hand to it.
var tritonFastEdges = []string{
	``, ` `, `[]`, `[ ]`, `{}`, `[1,`, `[1] x`, "\ufeff[]", `[1, "a", null, [], {}]`,
	`[{"id":1,"model_name":"m","model_version":1,"request_id":"r"},{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":5}]}]`,
	`[{"id":1,"model_version":"1"},{"id":1,"model_version":""},{"id":1,"model_version":null},{"id":1,"model_version":-0},{"id":1,"model_version":1.0}]`,
	`[{"id":1,"model_version":1000000000000000},{"id":2,"model_version":true},{"id":3,"model_version":{"a":1}},{"id":4,"model_version":"a\"b"}]`,
	`[{"id":1,"ID":2},{"Id":1},{"i\u0064":1},{"id":1,"id":2},{"id":null},{"id":"1"},{"id":1.0},{"id":1e3},{"id":-0},{"id":9223372036854775808},{"id":-9223372036854775808}]`,
	`[{"id":1,"parent_id":0},{"id":2,"parent_id":1},{"id":3,"parent_id":null},{"id":4,"parent_id":"0"},{"id":5,"parent_id":0.0},{"id":6,"parent_id":-0}]`,
	`[{"id":1,"timestamps":null},{"id":2,"timestamps":[]},{"id":3,"timestamps":[null]},{"id":4,"timestamps":[{"name":"A"}]},{"id":5,"timestamps":[{"ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":-1}]},{"id":2,"timestamps":[{"name":"A","ns":"5"}]},{"id":3,"timestamps":[{"name":"A","ns":1.5}]},{"id":4,"timestamps":[{"name":"A","ns":99999999999999999999}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1,"name":"B"}]},{"id":2,"timestamps":[{"NAME":"A","ns":1}]},{"id":3,"timestamps":[{"name":"\u0041","ns":1}]},{"id":4,"timestamps":[{"name":"é","ns":1,"x":[1,{}]}]}]`,
	`[{"id":1,"model_name":"caf` + "\xe9" + `"},{"id":1,"model_name":null},{"id":1,"model_name":5},{"id":1,"request_id":"r\n"},{"id":1,"request_id":""},{"id":1,"model_name":"m\u00e9"}]`,
	`[{"id":1,"deep":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}]`,
	`[{"id":1,"timestamps":[{"ns":1,"name":"REQUEST_START"},{ "name" : "REQUEST_END" , "ns" : 5 },{"name":"A","ns":1,"x":2},{"name":"B","ns":2,"ns":3}]}]`,
	`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1}]},{"id":2,"timestamps":[{"name":"A","ns":1.5}]},{"id":3,"timestamps":[{"name":"A","ns":-0}]},{"id":4,"timestamps":[{"name":"\u0041","ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name" "A","ns":1}]}]`, `[{"id":1,"timestamps":[{"name":"A","ns" 1}]}]`, `[{"id":1,"timestamps":[{"name":"A";"ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1]}]`, `[{"id":1,"timestamps":[{"name":"A","ns":1`, `[{"id":1,"timestamps":[{"name":"A","ns"`, `[{"id":1,"timestamps":[{"name":"A",`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1}{"name":"B","ns":2}]}]`, `[{"id":1,"timestamps":[{"name":"A","ns":1},]}]`, `[{"id":1,"timestamps":[{}]}]`, `[{"id":1,"timestamps":[5]}]`,
	`[{"id":1,"timestamps":[{"name":"HTTP_RECV_START","ns":10},{"name":"COMPUTE_START","ns":12},{"name":"INFER_RESPONSE_COMPLETE","ns":15},{"name":"INFER_RESPONSE_COMPLETE","ns":14},{"name":"HTTP_SEND_END","ns":20}]},{"id":1,"model_name":"m"}]`,
	`[{"id":1,"timestamps":[{"name":"GRPC_WAITREAD_END","ns":30},{"name":"GRPC_SEND_END","ns":20}]}]`,
	`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":2}]}, 42, {"id":1,"x":tru}]`,
	`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1x}]}]`,
	`[{"id":1,"model_name":"m"}, {"id":2,"timestamps":[{"name":"REQUEST_START","ns":1}]}, {"id":1,"parent_id":1-}]`,
	`[{"id":1,"model_name":"m"}, 5, "a", [` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `]]`,
	`[{"id":1,"model_name":"m"}, {"id":2,"q":"\x"}]`, `[{"id":1}, {"id":2}`, `[{"id":1} {"id":2}]`, `[{"id":1},]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1},]}]`, `[{"id":1,"model_version":1.}]`, `[{"id":1,"ID":[1,}]`,
	"[\n {\"id\" : 7 ,\n \"timestamps\" : [ { \"name\" : \"REQUEST_START\" , \"ns\" : 1 } , {\"name\":\"REQUEST_END\",\"ns\":2} ] } \n]\n",
}

// TestTritonFastMatchesGeneral compares the routes on the testdata, the
// benchmark input and the edge cases.
func TestTritonFastMatchesGeneral(t *testing.T) {
	for _, path := range decodetest.TestdataFiles(t, "testdata") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tritonRoutes(t, data)
	}
	tritonRoutes(t, benchTritonInput())
	for _, s := range tritonFastEdges {
		tritonRoutes(t, []byte(s))
	}
}

// FuzzTritonFast compares the routes on arbitrary input.
func FuzzTritonFast(f *testing.F) {
	decodetest.SeedFuzz(f, "testdata")
	for _, s := range tritonFastEdges {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tritonRoutes(t, data)
	})
}

// TestTritonFastManyEntries checks the held reports of a long array:
// merged skips on both sides of 64-line words, rejects between them, traces
// with many responses (their values outgrow the arena's room) and many
// traces (ids texts past one block of 256).
func TestTritonFastManyEntries(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for line := 1; line <= 700; line++ {
		if line > 1 {
			b.WriteString(",\n")
		}
		id := line % 40
		if line > 400 {
			id = line
		}
		switch {
		case line == 64 || line == 65 || line == 128 || line == 129 || line == 300:
			b.WriteString(`{"id":"x"}`)
		case line%7 == 0:
			fmt.Fprintf(&b, `{"id":%d,"timestamps":[{"name":"INFER_RESPONSE_COMPLETE","ns":%d}]}`, id, 5000-line)
		case line%5 == 0:
			fmt.Fprintf(&b, `{"id":%d,"model_name":"m%d","model_version":%d,"request_id":"r%d"}`, id, id%3, id%2, id)
		default:
			fmt.Fprintf(&b, `{"id":%d,"timestamps":[{"name":"REQUEST_START","ns":%d},{"name":"HTTP_SEND_END","ns":%d}]}`, id, line, 9000+line)
		}
	}
	b.WriteString("]")
	tritonRoutes(t, []byte(b.String()))
	var long strings.Builder
	long.WriteString(`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":99999}]}`)
	for k := range 5000 {
		fmt.Fprintf(&long, `,{"id":1,"timestamps":[{"name":"INFER_RESPONSE_COMPLETE","ns":%d}]}`, 7*k%4999+2)
	}
	long.WriteString("]")
	tritonRoutes(t, []byte(long.String()))
}

// TestTritonReadAll checks the sized read of a file, a reader with a
// length, and one that fails.
func TestTritonReadAll(t *testing.T) {
	path := decodetest.TestdataFiles(t, "testdata")[0]
	want, _ := os.ReadFile(path)
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	for _, r := range []io.Reader{fh, bytes.NewReader(want), io.MultiReader(bytes.NewReader(want))} {
		if got, err := decode.ReadAllSized(r, 0); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%T: %v, %d bytes of %d", r, err, len(got), len(want))
		}
	}
	bad := io.MultiReader(bytes.NewReader(want), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, err := decode.ReadAllSized(bad, 0); err != io.ErrUnexpectedEOF {
		t.Fatalf("error %v", err)
	}
	rec := &decodetest.Recorder{}
	if err := (Format{}).Decode(&decode.Input{R: io.MultiReader(bytes.NewReader(want[:20]), iotest.ErrReader(io.ErrUnexpectedEOF))}, rec); err != nil && rec.Total() == 0 {
		t.Logf("read error: %v", err)
	}
}

// TestTritonRawMatchesFmt checks tritonRaw against the fmt form it
// replaced: "id=N" then " NAME=%v" of the sorted values, names sorted.
func TestTritonRawMatchesFmt(t *testing.T) {
	tr := &tritonTrace{id: -42}
	for i, n := range []string{"REQUEST_END", "A", "INFER_RESPONSE_COMPLETE", "B", "INFER_RESPONSE_COMPLETE", "A"} {
		tr.add(n, int64(9-i)*1e17+int64(i), nil)
	}
	tr.add("Z", -1<<63, nil)
	want := fmt.Sprintf("id=%d", tr.id)
	for _, n := range []string{"A", "B", "INFER_RESPONSE_COMPLETE", "REQUEST_END", "Z"} {
		want += fmt.Sprintf(" %s=%v", n, slices.Sorted(slices.Values(tr.values(n))))
	}
	if got := string(tritonRaw([]byte("junk"), tr)); got != "junk"+want {
		t.Fatalf("got %q, want %q", got, "junk"+want)
	}
}

// TestTritonNameOrder checks the cached name order of tritonOut against
// sorting each trace's names afresh.
func TestTritonNameOrder(t *testing.T) {
	var o tritonOut
	for _, names := range [][]string{
		{"B", "A", "C"}, {"B", "A", "C"}, {"A", "B", "C"}, {"B", "A"}, {"B", "A", "D"}, {}, {"Z"}, {"B", "A", "D"},
	} {
		tr := &tritonTrace{}
		for i, n := range names {
			tr.add(n, int64(i), nil)
		}
		if got, want := o.nameOrder(tr), tritonNameOrder(nil, tr); !slices.Equal(got, want) {
			t.Fatalf("%v: order %v, want %v", names, got, want)
		}
	}
}
