package decodetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// BenchSize is the size the built inputs grow to.
const BenchSize = 16 << 20

// BenchOpts reads the options of a testdata file (its .opts.json), or none.
func BenchOpts(tb testing.TB, path string) decode.Options {
	var opts decode.Options
	o, err := os.ReadFile(path + ".opts.json")
	if err != nil {
		return opts
	}
	var raw struct {
		Map       string   `json:"map"`
		Endpoints []string `json:"endpoints"`
	}
	if err := json.Unmarshal(o, &raw); err != nil {
		tb.Fatal(err)
	}
	opts.Map, opts.Endpoints = raw.Map, raw.Endpoints
	return opts
}

// BenchEventLines returns the lines of a one-record-per-line testdata file
// that decode to an event.
func BenchEventLines(tb testing.TB, f Format, path string) [][]byte {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	rec := &Recorder{}
	if err := f.Decode(&decode.Input{R: bytes.NewReader(data), Name: "x", Opts: BenchOpts(tb, path)}, rec); err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	var out [][]byte
	for _, e := range rec.Events {
		out = append(out, lines[e.Line-1])
	}
	return out
}

// BenchVary returns rec with its k-th variation of ids and times: each old
// string of pairs replaced by the new one formatted with k, k%10, k%60
// (%[2]d and %02[3]d give digits that keep a time valid) and k+1.
func BenchVary(rec []byte, k int, pairs ...string) []byte {
	for i := 0; i+1 < len(pairs); i += 2 {
		rec = bytes.ReplaceAll(rec, []byte(pairs[i]), fmt.Appendf(nil, pairs[i+1], k, k%10, k%60, k+1))
	}
	return rec
}

// BenchLines repeats lines, varied, to BenchSize.
func BenchLines(lines [][]byte, pairs ...string) []byte {
	var b []byte
	for k := 0; len(b) < BenchSize; k++ {
		for _, l := range lines {
			b = append(append(b, BenchVary(l, k, pairs...)...), '\n')
		}
	}
	return b
}

// BenchArray builds a JSON array of elems repeated, varied, to BenchSize,
// one element per line group as the testdata writes them.
func BenchArray(elems []json.RawMessage, pairs ...string) []byte {
	b := []byte("[\n")
	for k := 0; len(b) < BenchSize; k++ {
		for _, e := range elems {
			if len(b) > 2 {
				b = append(b, ",\n"...)
			}
			b = append(append(b, "  "...), BenchVary(e, k, pairs...)...)
		}
	}
	return append(b, "\n]\n"...)
}

// BenchArrayFile returns the elements of the JSON array in path.
func BenchArrayFile(tb testing.TB, path string) []json.RawMessage {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		tb.Fatal(err)
	}
	return elems
}

// BenchDecodeCPU is BenchDecode that also reports the throughput per second
// of this process's CPU time ("cpu-MB/s"), which other processes on a shared
// machine disturb less than the wall-clock MB/s.
func BenchDecodeCPU(b *testing.B, format Format, data []byte, opts decode.Options) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	BenchDecode(b, format, data, opts)
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(len(data))*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
}

// BenchRepeatBytes is the size BenchRepeat builds.
const BenchRepeatBytes = 16 << 20

// BenchHexID matches the ids BenchRepeat varies from copy to copy.
var BenchHexID = regexp.MustCompile(`[0-9a-f]{12,}`)

// BenchRepeat builds a benchmark input of about BenchRepeatBytes from the
// lines of a testdata file that f decodes without a reject, repeated with
// the last 8 digits of every hex id (12 digits or more) replaced by a
// counter, so that ids vary as in a real log.
func BenchRepeat(b *testing.B, f Format, path string, opts decode.Options) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var good [][]byte
	for _, line := range bytes.Split(data, []byte("\n")) {
		rec := &CountingSink{}
		in := &decode.Input{R: bytes.NewReader(line), Name: "bench", Opts: opts}
		if len(bytes.TrimSpace(line)) > 0 && f.Decode(in, rec) == nil && rec.Rejects == 0 && rec.Events+rec.Skips == 1 {
			good = append(good, line)
		}
	}
	if len(good) == 0 {
		b.Fatalf("%s: no line decodes", path)
	}
	var out []byte
	for n := 0; len(out) < BenchRepeatBytes; n++ {
		for _, line := range good {
			id := []byte(fmt.Sprintf("%08x", n))
			out = append(out, BenchHexID.ReplaceAllFunc(line, func(m []byte) []byte {
				return append(m[:len(m)-8:len(m)-8], id...)
			})...)
			out = append(out, '\n')
		}
	}
	return out
}

// BenchLogFormat returns the log_format of a testdata file's options.
func BenchLogFormat(b *testing.B, path string) string {
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

// CheckBenchInput checks that a benchmark's input decodes to events and no
// reject (a benchmark that read rejects would measure the wrong path).
func CheckBenchInput(t *testing.T, f Format, data []byte, opts decode.Options) {
	if testing.Short() {
		t.Skip("builds a 16 MB input")
	}
	rec := &CountingSink{}
	if err := f.Decode(&decode.Input{R: bytes.NewReader(data), Name: "bench", Opts: opts}, rec); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes, %d events, %d skips, %d rejects", f.Name(), len(data), rec.Events, rec.Skips, rec.Rejects)
	if rec.Events == 0 || rec.Rejects != 0 {
		t.Errorf("%s: %d events, %d rejects", f.Name(), rec.Events, rec.Rejects)
	}
}
