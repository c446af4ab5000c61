package har

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

type generalOnly struct{ Format }

func (g generalOnly) Decode(in *decode.Input, sink decode.Sink) error {
	return g.decode(in, sink, false)
}

func BenchmarkRouteGeneral(b *testing.B) {
	decodetest.BenchDecodeCPU(b, generalOnly{}, benchHARInput(), decode.Options{})
}

var _ = fleet.NginxLogFormat
