package genaiperf

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// gpReversedRequests returns doc with the keys of each request object
// reversed, or false when doc is not a JSON document of experiments.
func gpReversedRequests(t *testing.T, doc []byte) ([]byte, bool) {
	var top map[string]json.RawMessage
	var experiments []map[string]json.RawMessage
	if !json.Valid(doc) || json.Unmarshal(doc, &top) != nil || json.Unmarshal(top["experiments"], &experiments) != nil ||
		len(experiments) == 0 || len(gpMembers(t, bytes.TrimSpace(doc))) != len(top) {
		return nil, false // not experiments, or a top-level key named twice
	}
	var exps [][]byte
	for _, e := range experiments {
		var reqs []json.RawMessage
		if json.Unmarshal(e["requests"], &reqs) != nil {
			return nil, false
		}
		var moved [][]byte
		for _, r := range reqs {
			if r = bytes.TrimSpace(r); len(r) == 0 || r[0] != '{' {
				moved = append(moved, r)
				continue
			}
			m := gpMembers(t, r)
			slices.Reverse(m)
			moved = append(moved, gpJoin(m))
		}
		e["requests"] = append(append([]byte{'['}, bytes.Join(moved, []byte{','})...), ']')
		b, _ := json.Marshal(e)
		exps = append(exps, b)
	}
	top["experiments"] = append(append([]byte{'['}, bytes.Join(exps, []byte{','})...), ']')
	moved, err := json.Marshal(top)
	return moved, err == nil
}

// checkGpRequestKeyOrder fails when doc with the keys of each request
// reversed gives other events or rejects; it reports whether doc could be
// reordered.
func checkGpRequestKeyOrder(t *testing.T, doc []byte) bool {
	moved, ok := gpReversedRequests(t, doc)
	if !ok {
		return false
	}
	want, _, _ := gpDecodePieces(doc)
	got, _, _ := gpDecodePieces(moved)
	for _, r := range [][]decodetest.RecordedNote{want.Rejects, got.Rejects} {
		for i := range r {
			r[i].Detail = "" // encoding/json words the first wrong value it meets
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200s reversed:\n got %+v\nwant %+v", doc, got, want)
	}
	return true
}

// TestGenaiPerfRequestKeyOrder: every edge document, GenAI-Perf's fixtures
// and a generated export with the keys of each request reversed (read
// whole, its responses still escaped where they can be) give the same
// events and rejects as in perf_analyzer's order (mostly read in one pass).
func TestGenaiPerfRequestKeyOrder(t *testing.T) {
	docs := gpEdges(t)
	docs = append(docs, string(decodetest.FleetLog(t, decodetest.SmallFleet(), "bench-1")), string(gpOpenAIExport()))
	n := 0
	for _, doc := range docs {
		if checkGpRequestKeyOrder(t, []byte(doc)) {
			n++
		}
	}
	if n < 200 {
		t.Errorf("%d documents reordered", n)
	}
}

// FuzzGenaiPerfRequestKeyOrder is TestGenaiPerfRequestKeyOrder on fuzzed
// request objects.
func FuzzGenaiPerfRequestKeyOrder(f *testing.F) {
	for _, r := range gpEdgeRequests {
		f.Add(r)
	}
	f.Add(gpReq(1e9, gpRead{1e9 + 1, gpRole}, gpRead{1e9 + 2, gpTok + gpTool}, gpRead{1e9 + 3, gpStopEv + gpUsage + gpDoneEv}))
	f.Fuzz(func(t *testing.T, req string) {
		checkGpRequestKeyOrder(t, []byte(gpDoc(req, req)))
	})
}
