package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/fleet"

	"github.com/ttftrace/ttftrace/ingest/decode"

	"github.com/ttftrace/ttftrace/ingest/tgi"

	"github.com/ttftrace/ttftrace/ingest/nginx"

	"github.com/ttftrace/ttftrace/ingest/envoy"

	"github.com/ttftrace/ttftrace/ingest/haproxy"
)

// The decoder benchmarks of the text proxy and server formats: nginx and
// TGI from the generated fleet, the formats the fleet does not write from
// their testdata, repeated (see benchRepeat).

func BenchmarkDecodeNginx(b *testing.B) {
	benchDecodeCPU(b, nginx.Format{}, benchLog(b, "edge-1"), decode.Options{LogFormat: fleet.NginxLogFormat})
}

func BenchmarkDecodeEnvoyText(b *testing.B) {
	opts := decode.Options{LogFormat: benchLogFormat(b, "envoy/testdata/llm_stream.log")}
	benchDecodeCPU(b, envoy.Format{}, benchRepeat(b, envoy.Format{}, "envoy/testdata/llm_stream.log", opts), opts)
}

func BenchmarkDecodeHAProxy(b *testing.B) {
	benchDecodeCPU(b, haproxy.Format{}, benchRepeat(b, haproxy.Format{}, "haproxy/testdata/llm_httplog.log", decode.Options{}), decode.Options{})
}

func BenchmarkDecodeTGI(b *testing.B) {
	benchDecodeCPU(b, tgi.Format{}, benchLog(b, "gpu-3"), decode.Options{})
}

func BenchmarkDecodeTGIJSON(b *testing.B) {
	benchDecodeCPU(b, tgi.Format{}, benchRepeat(b, tgi.Format{}, "testdata/tgi/router_json.log", decode.Options{}), decode.Options{})
}

func BenchmarkDecodeEnvoyJSON(b *testing.B) {
	benchDecodeCPU(b, envoy.Format{}, benchLog(b, "edge-2"), decode.Options{LogFormat: fleet.EnvoyLogFormat})
}

// benchDecodeCPU is benchDecode that also reports the throughput per second
// of this process's CPU time ("cpu-MB/s"), which other processes on a shared
// machine disturb less than the wall-clock MB/s.
func benchDecodeCPU(b *testing.B, format Format, data []byte, opts decode.Options) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	benchDecode(b, format, data, opts)
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(len(data))*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
}

// benchRepeatBytes is the size benchRepeat builds.
const benchRepeatBytes = 16 << 20

// benchHexID matches the ids benchRepeat varies from copy to copy.
var benchHexID = regexp.MustCompile(`[0-9a-f]{12,}`)

// benchRepeat builds a benchmark input of about benchRepeatBytes from the
// lines of a testdata file that f decodes without a reject, repeated with
// the last 8 digits of every hex id (12 digits or more) replaced by a
// counter, so that ids vary as in a real log.
func benchRepeat(b *testing.B, f Format, path string, opts decode.Options) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var good [][]byte
	for _, line := range bytes.Split(data, []byte("\n")) {
		rec := &countingSink{}
		in := &decode.Input{R: bytes.NewReader(line), Name: "bench", Opts: opts}
		if len(bytes.TrimSpace(line)) > 0 && f.Decode(in, rec) == nil && rec.Rejects == 0 && rec.Events+rec.Skips == 1 {
			good = append(good, line)
		}
	}
	if len(good) == 0 {
		b.Fatalf("%s: no line decodes", path)
	}
	var out []byte
	for n := 0; len(out) < benchRepeatBytes; n++ {
		for _, line := range good {
			id := []byte(fmt.Sprintf("%08x", n))
			out = append(out, benchHexID.ReplaceAllFunc(line, func(m []byte) []byte {
				return append(m[:len(m)-8:len(m)-8], id...)
			})...)
			out = append(out, '\n')
		}
	}
	return out
}

// benchLogFormat returns the log_format of a testdata file's options.
func benchLogFormat(b *testing.B, path string) string {
	data, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		b.Fatal(err)
	}
	var opts struct {
		LogFormat string `json:"log_format"`
	}
	if err := json.Unmarshal(data, &opts); err != nil {
		b.Fatal(err)
	}
	return opts.LogFormat
}
