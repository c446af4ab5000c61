package genaiperf

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// gpMembers splits a JSON object into its members ("key":value), in order.
func gpMembers(t *testing.T, obj []byte) [][]byte {
	t.Helper()
	var m [][]byte
	d := json.NewDecoder(bytes.NewReader(obj))
	d.Token()
	for d.More() {
		k, _ := d.Token()
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		key, _ := json.Marshal(k)
		m = append(m, append(append(key, ':'), v...))
	}
	return m
}

// gpPermutations returns every order of members.
func gpPermutations(members [][]byte) [][][]byte {
	if len(members) <= 1 {
		return [][][]byte{members}
	}
	var out [][][]byte
	for i := range members {
		rest := append(append([][]byte{}, members[:i]...), members[i+1:]...)
		for _, p := range gpPermutations(rest) {
			out = append(out, append([][]byte{members[i]}, p...))
		}
	}
	return out
}

// gpJoin writes members as one object.
func gpJoin(members [][]byte) []byte {
	return append(append([]byte{'{'}, bytes.Join(members, []byte{','})...), '}')
}

// gpReordered returns the document doc with its top-level keys in order
// top and each experiment's keys rotated by turn.
func gpReordered(t *testing.T, top [][]byte, turn int) []byte {
	out := make([][]byte, len(top))
	for i, m := range top {
		out[i] = m
		if !bytes.HasPrefix(m, []byte(`"experiments":`)) {
			continue
		}
		var exps []json.RawMessage
		if err := json.Unmarshal(m[len(`"experiments":`):], &exps); err != nil {
			t.Fatal(err)
		}
		var moved [][]byte
		for _, e := range exps {
			em := gpMembers(t, e)
			k := turn % len(em)
			moved = append(moved, gpJoin(append(append([][]byte{}, em[k:]...), em[:k]...)))
		}
		out[i] = append([]byte(`"experiments":[`), append(bytes.Join(moved, []byte{','}), ']')...)
	}
	return gpJoin(out)
}

// TestGenaiPerfAnyKeyOrder decodes the testdata exports and GenAI-Perf's
// fixtures with their top-level keys in every order and each experiment's
// keys in every rotation: perf_analyzer writes "endpoint" after
// "experiments", a re-serializer may write it first or move "experiment"
// after "requests"; every order gives the same events and rejects.
func TestGenaiPerfAnyKeyOrder(t *testing.T) {
	files, _ := filepath.Glob("testdata/peer/*.json")
	files = append(files, "testdata/profile_export.json")
	for _, f := range files {
		want, err := decodetest.DecodeFile(t, Format{}, f)
		if err != nil || len(want.Events) == 0 {
			t.Fatalf("%s: %v, %d events", f, err, len(want.Events))
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		top := gpMembers(t, bytes.TrimSpace(data))
		for _, order := range gpPermutations(top) {
			for turn := range 3 {
				doc := gpReordered(t, order, turn)
				got := &decodetest.Recorder{}
				err := Format{}.Decode(&decode.Input{R: bytes.NewReader(doc), Name: filepath.Base(f), Host: "testhost"}, got)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s reordered %.120s: err %v\n got %+v\nwant %+v", f, doc, err, got, want)
				}
			}
		}
	}
}

// TestGenaiPerfRepeatsInAnyOrder: the sink is given a digest of each
// request's bytes for its duplicate check, the same for the same bytes
// whether the request was held (the endpoint after the experiments) or
// not (before), and different for different bytes.
func TestGenaiPerfRepeatsInAnyOrder(t *testing.T) {
	a, b := `{"timestamp":1,"response_timestamps":[2]}`, `{"timestamp":1,"response_timestamps":[3]}`
	reqs := `[{"experiment":{"mode":"concurrency","value":1},"requests":[` + a + `,` + b + `,` + a + `]}]`
	var digests [][]string
	for _, doc := range []string{`{"experiments":` + reqs + `,"endpoint":"v1/x"}`, `{"endpoint":"v1/x","experiments":` + reqs + `}`} {
		rec := &decodetest.RawRecorder{}
		if err := (Format{}).Decode(&decode.Input{R: bytes.NewReader([]byte(doc)), Name: "x"}, rec); err != nil || len(rec.Raws) != 3 {
			t.Fatalf("%s: err %v, %d events", doc, err, len(rec.Raws))
		}
		digests = append(digests, rec.Raws)
	}
	d := digests[0]
	if !reflect.DeepEqual(digests[0], digests[1]) || d[0] != d[2] || d[0] == d[1] || len(d[0]) != 16 {
		t.Errorf("digests %q", digests)
	}
}
