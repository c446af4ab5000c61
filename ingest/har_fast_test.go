package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// harRoutes decodes data by the general route alone and with the fast
// path, under opts, and fails when the two report anything differently:
// events, raw bytes, skips, rejects, reasons, the returned error.
func harRoutes(t testing.TB, data []byte, opts Options) {
	t.Helper()
	general, fast := &tritonRawRecorder{}, &tritonRawRecorder{}
	errG := har{}.decode(&Input{R: bytes.NewReader(data), Name: "x", Host: "h", Opts: opts}, general, false)
	errF := har{}.decode(&Input{R: bytes.NewReader(data), Name: "x", Host: "h", Opts: opts}, fast, true)
	if (errG == nil) != (errF == nil) || errG != nil && errG.Error() != errF.Error() || !reflect.DeepEqual(general, fast) {
		t.Fatalf("input %q:\ngeneral %v %+v\nfast    %v %+v", truncateDetail(string(data)), errG, general, errF, fast)
	}
}

// TestHARFastMatchesGeneral runs both routes over the testdata and the
// benchmark input.
func TestHARFastMatchesGeneral(t *testing.T) {
	files, _ := filepath.Glob("testdata/har/*.har")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []Options{{}, {Endpoints: []string{"/"}}, {Endpoints: []string{""}}} {
			harRoutes(t, data, opts)
		}
	}
	if !testing.Short() {
		harRoutes(t, benchHARInput(), Options{})
	}
}
