package tgi

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

type generalOnly struct{ Format }

func (g generalOnly) Decode(in *decode.Input, sink decode.Sink) error { return tgiDecode(in, sink, false) }

func BenchmarkRouteGeneral(b *testing.B) {
	decodetest.BenchDecodeCPU(b, generalOnly{}, decodetest.BenchLog(b, "gpu-3"), decode.Options{})
}

var _ = fleet.NginxLogFormat
