package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// lineFormat is a test-only format. Its inputs start with its magic line; then
// "ok N [host=H]" is a request with id N, "skip" and blank lines are skips,
// "fatal" makes Decode fail, anything else is a reject.
type lineFormat struct{ name, magic string }

func (f lineFormat) Name() string           { return f.name }
func (f lineFormat) Source() string         { return schema.SourceProxy }
func (f lineFormat) Describe() string       { return "test lines" }
func (f lineFormat) Sniff(head []byte) bool { return bytes.HasPrefix(head, []byte(f.magic)) }
func (f lineFormat) Decode(in *Input, sink Sink) error {
	sc := bufio.NewScanner(in.R)
	chunks := make([]int64, 1) // reused on purpose: the sink must copy
	for line := int64(1); sc.Scan(); line++ {
		text := sc.Text()
		var id int
		var host string
		switch {
		case line == 1 || text == "skip":
			sink.Skip(line, "not a request")
		case text == "":
			sink.Skip(line, "blank line")
		case text == "fatal":
			return fmt.Errorf("line %d: fatal", line)
		case text == "panic":
			panic("test format bug")
		default:
			n, _ := fmt.Sscanf(text, "ok %d host=%s", &id, &host)
			if n < 1 {
				sink.Reject(decode.At(line), "bad record", text)
				continue
			}
			chunks[0] = int64(id)
			sink.Event(line, sc.Bytes(), &schema.Event{RequestID: fmt.Sprint(id), Host: host, Clock: schema.ClockWall, ChunkOffsetsNs: chunks})
		}
	}
	return nil
}

var testFormats = []Format{lineFormat{"lines", "#lines"}, lineFormat{"lines2", "#lines2"}}

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkAccounting asserts Read = Records + Duplicates + Skipped + Rejected for
// every input, and that the events and rejects kept match the counts.
func checkAccounting(t *testing.T, res *Result) {
	t.Helper()
	var records, rejected int64
	for _, in := range res.Inputs {
		if in.Read != in.Records+in.Duplicates+in.Skipped+in.Rejected {
			t.Errorf("%s: read %d != records %d + dup %d + skipped %d + rejected %d",
				in.Path, in.Read, in.Records, in.Duplicates, in.Skipped, in.Rejected)
		}
		records += in.Records
		rejected += in.Rejected
	}
	events := int64(len(res.Events))
	if res.dataset != "" && len(res.Events) == 0 { // streamed and not kept
		events = res.Records
	}
	if events != records || res.Records != records || int64(len(res.Rejects)) != rejected {
		t.Errorf("%d events (Records %d), %d rejects kept; counts say %d and %d", events, res.Records, len(res.Rejects), records, rejected)
	}
}

func ids(evs []schema.Event) string {
	var s []string
	for _, e := range evs {
		s = append(s, e.RequestID)
	}
	return strings.Join(s, ",")
}

func TestRunCountsDuplicatesAndOrder(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, filepath.Join(dir, "edge-1.access.log"), []byte("#lines\nok 1\nskip\nbad\n\nok 2\n"))
	b := writeFile(t, filepath.Join(dir, "edge-2.log"), []byte("#lines\nok 3\nok 1\nok 4 host=gpu-9\n"))
	for _, workers := range []int{1, 4} {
		res, err := Run([]string{a, b}, DriverOptions{Formats: testFormats, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
		// a: 6 lines = header skip, ok 1, skip, bad, blank skip, ok 2.
		// b: 4 lines = header skip, ok 3, ok 1 (repeats a's raw "ok 1"), ok 4.
		want := []schema.InputStats{
			{Path: a, Format: "lines", Host: "edge-1", Read: 6, Records: 2, Skipped: 3, Rejected: 1,
				RejectsByReason: map[string]int64{"bad record": 1}, Clock: schema.ClockWall},
			{Path: b, Format: "lines", Host: "edge-2", Read: 4, Records: 2, Duplicates: 1, Skipped: 1, Clock: schema.ClockWall},
		}
		if !reflect.DeepEqual(res.Inputs, want) {
			t.Errorf("workers=%d: inputs\n got %+v\nwant %+v", workers, res.Inputs, want)
		}
		if got := ids(res.Events); got != "1,2,3,4" {
			t.Errorf("event ids %s, want 1,2,3,4", got)
		}
		e := res.Events[1]
		if e.InputFile != a || e.InputLine != 6 || e.Host != "edge-1" || e.Format != "lines" || e.Source != schema.SourceProxy {
			t.Errorf("provenance of ok 2: %s:%d host %s format %s source %s", e.InputFile, e.InputLine, e.Host, e.Format, e.Source)
		}
		if h := res.Events[3].Host; h != "gpu-9" {
			t.Errorf("host the record carried was replaced: %q", h)
		}
		if c := res.Events[0].ChunkOffsetsNs; len(c) != 1 || c[0] != 1 {
			t.Errorf("sink did not copy the reused slice: %v", c)
		}
		wantRej := []schema.Reject{{File: a, Line: 4, Column: 1, Reason: "bad record", Detail: "bad"}}
		if !reflect.DeepEqual(res.Rejects, wantRej) {
			t.Errorf("rejects %+v, want %+v", res.Rejects, wantRej)
		}
	}
}

// TestRunManyFilesDeterministic decodes 40 files on 8 workers and checks the
// events come out in input order every time.
func TestRunManyFilesDeterministic(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 40 {
		var b strings.Builder
		b.WriteString("#lines\n")
		for j := range 50 {
			id := i*50 + j
			fmt.Fprintf(&b, "ok %d\n", id)
			want = append(want, fmt.Sprint(id))
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%02d.log", i)), []byte(b.String()))
	}
	for range 3 {
		res, err := Run([]string{dir}, DriverOptions{Formats: testFormats, Workers: 8})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
		if got := ids(res.Events); got != strings.Join(want, ",") {
			t.Fatalf("events out of order: %.80s…", got)
		}
	}
}

func gzipBytes(t *testing.T, data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

func manyLines(n int) []byte {
	var b strings.Builder
	b.WriteString("#lines\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "ok %d\n", i)
	}
	return []byte(b.String())
}

// TestRunTruncatedGzip cuts a gzip file in half: the readable part is kept,
// the input is marked truncated, and the counts still add up. The file has no
// .gz extension: the magic bytes decide.
func TestRunTruncatedGzip(t *testing.T) {
	dir := t.TempDir()
	full := gzipBytes(t, manyLines(20000))
	path := writeFile(t, filepath.Join(dir, "edge-1.log"), full[:len(full)/2])
	res, err := Run([]string{path}, DriverOptions{Formats: testFormats})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	in := res.Inputs[0]
	if !in.Truncated || in.Error != nil {
		t.Fatalf("truncated=%v error=%v, want truncated and no error", in.Truncated, in.Error)
	}
	n := len(res.Events)
	t.Logf("half a gzip file: read %d lines, kept %d events, %d rejected, %d duplicates", in.Read, n, in.Rejected, in.Duplicates)
	if n < 1000 || n >= 20000 {
		t.Fatalf("kept %d events from half a file of 20000", n)
	}
	// The events are a prefix of the file; only the last, cut line may differ.
	for i, e := range res.Events[:n-1] {
		if e.RequestID != fmt.Sprint(i+1) {
			t.Fatalf("event %d has id %s, want %d", i, e.RequestID, i+1)
		}
	}
}

func TestRunCompressedWhole(t *testing.T) {
	dir := t.TempDir()
	data := manyLines(300)
	var zbuf bytes.Buffer
	zw, _ := zstd.NewWriter(&zbuf)
	zw.Write(data)
	zw.Close()
	gz := writeFile(t, filepath.Join(dir, "a.log.gz"), gzipBytes(t, data))
	zs := writeFile(t, filepath.Join(dir, "b.log.zst"), zbuf.Bytes())
	res, err := Run([]string{gz, zs}, DriverOptions{Formats: testFormats, Format: "lines"})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	// 301 lines each; b repeats a's 300 records exactly, so all of b's are duplicates.
	a, b := res.Inputs[0], res.Inputs[1]
	if a.Read != 301 || a.Records != 300 || a.Truncated || b.Read != 301 || b.Duplicates != 300 || b.Truncated {
		t.Errorf("a %+v\nb %+v", a, b)
	}
}

func TestRunCorruptZstd(t *testing.T) {
	var zbuf bytes.Buffer
	zw, _ := zstd.NewWriter(&zbuf)
	zw.Write(manyLines(20000))
	zw.Close()
	data := zbuf.Bytes()
	for i := len(data) / 2; i < len(data)/2+64; i++ {
		data[i] ^= 0xff
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "x"), data)
	res, err := Run([]string{path}, DriverOptions{Formats: testFormats})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if !res.Inputs[0].Truncated || res.Inputs[0].Records >= 20000 {
		t.Errorf("corrupt zstd: %+v", res.Inputs[0])
	}
}

func TestRunSniffing(t *testing.T) {
	dir := t.TempDir()
	unknown := writeFile(t, filepath.Join(dir, "u.log"), []byte("hello\n"))
	ambiguous := writeFile(t, filepath.Join(dir, "amb.log"), []byte("#lines2\nok 1\n"))
	empty := writeFile(t, filepath.Join(dir, "empty.log"), nil)
	res, err := Run([]string{unknown, ambiguous, empty}, DriverOptions{Formats: testFormats})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if e := res.Inputs[0].Error; e == nil || !strings.Contains(*e, "unknown format") {
		t.Errorf("unknown input: error %v", e)
	}
	if e := res.Inputs[1].Error; e == nil || !strings.Contains(*e, "lines, lines2") {
		t.Errorf("ambiguous input: error %v, want both candidates named", e)
	}
	if in := res.Inputs[2]; in.Error != nil || in.Read != 0 {
		t.Errorf("empty input: %+v", in)
	}
	if len(res.Failed()) != 2 {
		t.Errorf("Failed() = %d inputs, want 2", len(res.Failed()))
	}
	res, err = Run([]string{ambiguous}, DriverOptions{Formats: testFormats, Format: "lines2"})
	if err != nil || res.Inputs[0].Error != nil || res.Inputs[0].Format != "lines2" || res.Inputs[0].Records != 1 {
		t.Errorf("--format did not override sniffing: %v %+v", err, res.Inputs)
	}
	if _, err := Run([]string{ambiguous}, DriverOptions{Formats: testFormats, Format: "nope"}); err == nil {
		t.Error("unknown --format accepted")
	}
}

func TestRunStdinAndHostOption(t *testing.T) {
	res, err := Run([]string{"-"}, DriverOptions{Formats: testFormats, Stdin: strings.NewReader("#lines\nok 7\n")})
	if err != nil {
		t.Fatal(err)
	}
	if in := res.Inputs[0]; in.Path != "-" || in.Host != "stdin" || in.Records != 1 || res.Events[0].InputFile != "-" {
		t.Errorf("stdin input: %+v", in)
	}
	res, err = Run([]string{"-"}, DriverOptions{Formats: testFormats, Host: "lb-3", Stdin: strings.NewReader("#lines\nok 7\n")})
	if err != nil || res.Events[0].Host != "lb-3" || res.Inputs[0].Host != "lb-3" {
		t.Errorf("--host not applied: %v %+v", err, res.Inputs)
	}
	if _, err := Run([]string{"-"}, DriverOptions{Formats: testFormats}); err == nil {
		t.Error("- without Stdin accepted")
	}
}

func TestRunDecodeErrorKeepsCounts(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), []byte("#lines\nok 1\nfatal\nok 2\n"))
	res, err := Run([]string{path}, DriverOptions{Formats: testFormats})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if in := res.Inputs[0]; in.Error == nil || !strings.Contains(*in.Error, "fatal") || in.Records != 1 {
		t.Errorf("%+v", in)
	}
}

// TestRunFormatPanic checks that a panicking format fails its input only.
func TestRunFormatPanic(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, filepath.Join(dir, "a.log"), []byte("#lines\nok 1\npanic\n"))
	b := writeFile(t, filepath.Join(dir, "b.log"), []byte("#lines\nok 2\n"))
	res, err := Run([]string{a, b}, DriverOptions{Formats: testFormats})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if e := res.Inputs[0].Error; e == nil || !strings.Contains(*e, "test format bug") {
		t.Errorf("a.log error %v", e)
	}
	if res.Inputs[1].Error != nil || res.Inputs[1].Records != 1 {
		t.Errorf("b.log %+v", res.Inputs[1])
	}
}

func TestExpandInputs(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"logs/b.log", "logs/a.log.gz", "logs/sub/c.log", "logs/.hidden", "logs/.git/x", "other/d.log"} {
		writeFile(t, filepath.Join(dir, p), []byte("x"))
	}
	j := func(p ...string) string { return filepath.Join(append([]string{dir}, p...)...) }
	got, err := ExpandInputs([]string{j("logs"), j("other", "*.log"), "-", j("logs", "b.log")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{j("logs", "a.log.gz"), j("logs", "b.log"), j("logs", "sub", "c.log"), j("other", "d.log"), "-"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ExpandInputs = %q\nwant %q", got, want)
	}
	for _, bad := range []string{j("missing.log"), j("none", "*.log")} {
		if _, err := ExpandInputs([]string{bad}); err == nil {
			t.Errorf("ExpandInputs(%s) succeeded", bad)
		}
	}
}

func TestHostFromPath(t *testing.T) {
	for in, want := range map[string]string{
		"logs/edge-1.access.log.1.gz": "edge-1",
		"gpu-7.log":                   "gpu-7",
		"/var/log/nginx/access.log":   "nginx", // generic stems: the folder (inputs.go)
		"proxy/gw-a/access.log.2.gz":  "gw-a",
		"/srv/router":                 "srv",
		"/router.log":                 "router",
		"a/b/Access_20250101.log":     "b",
		"a/b/traces.jsonl":            "b",
		"a/b/profile_export.json":     "b",
		"a/b/envoy-access.log":        "b",
		"a/b/gpu-01.log":              "gpu-01",
		"a/b/bench-1.json":            "bench-1",
		"a/b/access_2025-01-01.log":   "b",
		".env":                        ".env",
		"-":                           "stdin",
	} {
		if got := HostFromPath(in); got != want {
			t.Errorf("HostFromPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRunWithProgress draws the progress bar into a buffer: the run must
// finish and give the same counts as without it.
func TestRunWithProgress(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), manyLines(1000))
	var bar bytes.Buffer
	res, err := Run([]string{path, "-"}, DriverOptions{Formats: testFormats, Progress: &bar,
		Stdin: strings.NewReader("#lines\nok 5000\n")})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if len(res.Events) != 1001 {
		t.Errorf("%d events, want 1000 + 1", len(res.Events))
	}
}

// FuzzDriverInput feeds arbitrary bytes (plain, or looking gzip or zstd
// compressed) through decompression, sniffing and decoding: no panic, and
// the counts add up.
func FuzzDriverInput(f *testing.F) {
	f.Add([]byte("#lines\nok 1\nbad\n"))
	f.Add(gzipBytes(nil, manyLines(50)))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0})
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Run([]string{"-"}, DriverOptions{Formats: testFormats, Stdin: bytes.NewReader(data)})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
	})
}
