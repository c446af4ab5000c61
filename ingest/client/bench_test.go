package client

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeClientJSONL(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchLog(b, "web-1"), decode.Options{})
}
