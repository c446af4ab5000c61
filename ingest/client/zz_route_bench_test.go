package client

import (
	"bytes"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

type generalOnly struct{ Format }

func (g generalOnly) Decode(in *decode.Input, sink decode.Sink) error { return g.decode(in, sink, nil) }

func BenchmarkRouteGeneral(b *testing.B) {
	decodetest.BenchDecodeCPU(b, generalOnly{}, decodetest.BenchLog(b, "web-1"), decode.Options{})
}
func BenchmarkRouteFast(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchLog(b, "web-1"), decode.Options{})
}
var _ = bytes.NewReader
