package ingest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// routesAgree decodes data by decode's fast route and by its general one
// (fast false) and fails unless the sink was told the same by both: events,
// skips, rejects and their reasons, in order.
func routesAgree(t *testing.T, decodeRoute func(in *decode.Input, sink decode.Sink, fast bool) error, opts decode.Options, data []byte) {
	t.Helper()
	var fast, general decodetest.Recorder
	for _, r := range []struct {
		rec  *decodetest.Recorder
		fast bool
	}{{&fast, true}, {&general, false}} {
		in := &decode.Input{R: bytes.NewReader(data), Name: "t.log", Host: "h", Opts: opts}
		if err := decodeRoute(in, r.rec, r.fast); err != nil {
			t.Fatal(err)
		}
	}
	recordersAgree(t, data[:min(len(data), 100)], &fast, &general)
}

func recordersAgree(t *testing.T, input []byte, fast, general *decodetest.Recorder) {
	if !reflect.DeepEqual(fast, general) {
		f, _ := json.Marshal(fast)
		g, _ := json.Marshal(general)
		t.Fatalf("%q:\nfast    %s\ngeneral %s", input, f, g)
	}
}
