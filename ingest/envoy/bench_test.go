package envoy

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

func BenchmarkDecodeEnvoyText(b *testing.B) {
	opts := decode.Options{LogFormat: decodetest.BenchLogFormat(b, "testdata/llm_stream.log")}
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchRepeat(b, Format{}, "testdata/llm_stream.log", opts), opts)
}

func BenchmarkDecodeEnvoyJSON(b *testing.B) {
	decodetest.BenchDecodeCPU(b, Format{}, decodetest.BenchLog(b, "edge-2"), decode.Options{LogFormat: fleet.EnvoyLogFormat})
}
