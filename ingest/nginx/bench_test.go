package nginx

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeNginx(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchLog(b, "edge-1"), decode.Options{LogFormat: fleet.NginxLogFormat})
}
