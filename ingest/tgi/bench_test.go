package tgi

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeTGI(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchLog(b, "gpu-3"), decode.Options{})
}

func BenchmarkDecodeTGIJSON(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchRepeat(b, Format{}, "testdata/router_json.log", decode.Options{}), decode.Options{})
}
