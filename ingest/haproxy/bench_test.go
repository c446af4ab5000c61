package haproxy

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeHAProxy(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchRepeat(b, Format{}, "testdata/llm_httplog.log", decode.Options{}), decode.Options{})
}
