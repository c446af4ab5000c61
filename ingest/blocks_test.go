package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
	"github.com/ttftrace/ttftrace/schema"
)

// blockFormat is a test-only LineSplitter. "#blocks" and "skip" lines and
// blank lines are skips, "ok N day=D" is a request with id N starting on
// day D after 2026-11-23 (so in partition date=2026-11-(23+D)), "boom" is
// a line its Decode fails on, anything else is a reject.
type blockFormat struct{}

func (blockFormat) Name() string                 { return "blocks" }
func (blockFormat) Source() string               { return schema.SourceProxy }
func (blockFormat) Describe() string             { return "test blocks" }
func (blockFormat) Sniff(head []byte) bool       { return bytes.HasPrefix(head, []byte("#blocks")) }
func (blockFormat) LineRecords(head []byte) bool { return true }
func (blockFormat) Decode(in *Input, sink Sink) error {
	sc := bufio.NewScanner(in.R)
	for line := int64(1); sc.Scan(); line++ {
		text := sc.Text()
		var id, day int
		switch {
		case text == "#blocks" || text == "skip" || text == "":
			sink.Skip(line, "not a request")
		case text == "boom":
			return fmt.Errorf("line %d: boom", line)
		default:
			if n, _ := fmt.Sscanf(text, "ok %d day=%d", &id, &day); n < 1 {
				sink.Reject(decode.At(line), "bad record", text)
				continue
			}
			start := int64(1795392000000000000) + int64(day)*86400e9 + int64(id)
			sink.Event(line, sc.Bytes(), &schema.Event{RequestID: strconv.Itoa(id), Clock: schema.ClockWall, StartNs: &start})
		}
	}
	return sc.Err()
}

var blockFormats = []Format{blockFormat{}}

// TestBlocksMatchWhole decodes every testdata file of every LineSplitter
// format in tiny blocks on 1 to 3 workers, and checks the result equals
// that of the file decoded in one block, and that the rejects' lines are
// those the format gives when called on the whole file without the driver.
func TestBlocksMatchWhole(t *testing.T) {
	for _, f := range Formats() {
		ls, ok := f.(LineSplitter)
		if !ok {
			continue
		}
		for _, path := range testdataFiles(t, f.Name()) {
			head, _ := os.ReadFile(path)
			if !ls.LineRecords(head[:min(len(head), SniffSize)]) {
				continue
			}
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				opts := DriverOptions{Format: f.Name(), Options: decodetest.Opts(t, path), BlockBytes: 1 << 30}
				whole, err := Run([]string{path}, opts)
				if err != nil {
					t.Fatal(err)
				}
				rec, _ := decodetest.DecodeFile(t, f, path)
				var lines []int64
				for _, r := range rec.Rejects {
					lines = append(lines, r.Line)
				}
				checkRejectLines(t, whole, lines)
				for _, size := range []int{1, 100, 1000} {
					for _, w := range []int{1, 2, 3} {
						opts.BlockBytes, opts.Workers = size, w
						res, err := Run([]string{path}, opts)
						if err != nil {
							t.Fatal(err)
						}
						if !reflect.DeepEqual(res.Inputs, whole.Inputs) || !reflect.DeepEqual(res.Rejects, whole.Rejects) ||
							!reflect.DeepEqual(res.Events, whole.Events) {
							t.Fatalf("blocks of %d bytes, %d workers: %+v\ndiffers from whole: %+v", size, w, res.Inputs, whole.Inputs)
						}
					}
				}
			})
		}
	}
}

// checkRejectLines checks the lines of res's rejects.
func checkRejectLines(t *testing.T, res *Result, want []int64) {
	t.Helper()
	var got []int64
	for _, r := range res.Rejects {
		got = append(got, r.Line)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reject lines %v, want %v", got, want)
	}
}

// TestBlocksRejectLines checks file:line of rejects far into a log decoded
// in 4 KB blocks: line i is garbage when i%997 == 0, else request i.
func TestBlocksRejectLines(t *testing.T) {
	var b strings.Builder
	var want []int64
	b.WriteString("#blocks\n")
	for i := 2; i <= 20000; i++ {
		if i%997 == 0 {
			fmt.Fprintf(&b, "garbage %d\n", i)
			want = append(want, int64(i))
		} else {
			fmt.Fprintf(&b, "ok %d\n", i)
		}
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), []byte(b.String()))
	for _, w := range []int{1, 2} {
		res, err := Run([]string{path}, DriverOptions{Formats: blockFormats, BlockBytes: 4096, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		checkAccounting(t, res)
		checkRejectLines(t, res, want)
		for _, r := range res.Rejects {
			if r.File != path || r.Detail != fmt.Sprintf("garbage %d", r.Line) {
				t.Fatalf("reject %+v does not name its own line", r)
			}
		}
		for _, e := range res.Events {
			if strconv.FormatInt(e.InputLine, 10) != e.RequestID {
				t.Fatalf("event %s has line %d", e.RequestID, e.InputLine)
			}
		}
		if in := res.Inputs[0]; in.Read != 20000 || in.Skipped != 1 || in.Rejected != int64(len(want)) {
			t.Errorf("workers %d: %+v", w, in)
		}
	}
}

// TestBlocksDecodeError checks that a Decode error in a later block fails
// the input, with the others' records still counted.
func TestBlocksDecodeError(t *testing.T) {
	data := "#blocks\n" + strings.Repeat("ok 1\n", 3000) + "boom\n" + strings.Repeat("ok 2\n", 10)
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), []byte(data))
	res, err := Run([]string{path}, DriverOptions{Formats: blockFormats, BlockBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if in := res.Inputs[0]; in.Error == nil || !strings.Contains(*in.Error, "boom") {
		t.Errorf("input %+v: want the block's error", in)
	}
}

// TestSplitterLongLine checks that a line longer than maxBlockLine becomes
// one reject of its own line, and the lines around it are read.
func TestSplitterLongLine(t *testing.T) {
	long := bytes.Repeat([]byte("x"), maxBlockLine+10)
	data := append(append([]byte("#blocks\nok 1\n"), long...), "\nok 3\ntail"...)
	path := writeFile(t, filepath.Join(t.TempDir(), "a.log"), data)
	res, err := Run([]string{path}, DriverOptions{Formats: blockFormats, BlockBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	// The long line is rejected at its first byte past the limit.
	want := []schema.Reject{{File: path, Line: 3, Column: maxBlockLine + 1, Reason: "line too long", Detail: longLineDetail},
		{File: path, Line: 5, Column: 1, Reason: "bad record", Detail: "tail"}}
	if !reflect.DeepEqual(res.Rejects, want) || ids(res.Events) != "1,3" {
		t.Errorf("rejects %+v events %q", res.Rejects, ids(res.Events))
	}
}

// FuzzSplitter checks the block splitter on any bytes and block size: the
// blocks put back together are the input, each but the last ends a line,
// and their line counts add up to the lines decode.EachTextLine reads.
func FuzzSplitter(f *testing.F) {
	f.Add([]byte("a\nb\r\n\nlast"), 1)
	f.Add([]byte("\n\n\n"), 2)
	f.Add([]byte("one long line without end"), 3)
	f.Fuzz(func(t *testing.T, data []byte, size int) {
		size = 1 + abs(size)%64
		sp := newSplitter(bytes.NewReader(data), size, data)
		var joined []byte
		var lines int64
		var buf []byte
		for {
			b, ok := sp.next(buf)
			if !ok {
				break
			}
			if b.base != lines || b.long {
				t.Fatalf("block base %d after %d lines (long %v)", b.base, lines, b.long)
			}
			if len(b.data) == 0 || (b.data[len(b.data)-1] != '\n' && len(joined)+len(b.data) != len(data)) {
				t.Fatalf("block %q does not end a line", b.data)
			}
			joined = append(joined, b.data...)
			lines += b.lines
			buf = b.data
		}
		if !bytes.Equal(joined, data) {
			t.Fatalf("blocks join to %q, want %q", joined, data)
		}
		var want int64
		decode.EachTextLine(bytes.NewReader(data), func(n int64, _ []byte) { want = n }, func(n int64) { want = n })
		if lines != want {
			t.Fatalf("%d lines in blocks, EachTextLine read %d", lines, want)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// readFile returns the content of path, failing the test when it cannot.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// oneByteReader reads one byte at a time, as a slow pipe may.
type oneByteReader struct{ r io.Reader }

func (o oneByteReader) Read(p []byte) (int, error) { return o.r.Read(p[:min(1, len(p))]) }

// TestSplitterSlowReader checks blocks read through one-byte reads.
func TestSplitterSlowReader(t *testing.T) {
	data := []byte("a\nbb\nccc\n\ndddd")
	sp := newSplitter(oneByteReader{bytes.NewReader(data)}, 3, nil)
	var got []string
	for b, ok := sp.next(nil); ok; b, ok = sp.next(nil) {
		got = append(got, fmt.Sprintf("%d+%d:%q", b.base, b.lines, b.data))
	}
	want := []string{`0+1:"a\n"`, `1+1:"bb\n"`, `2+2:"ccc\n\n"`, `4+1:"dddd"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks %v, want %v", got, want)
	}
}

// TestBlocksStrayLines builds logs where a line unlike the first falls
// anywhere: an Envoy text log (default format, which Envoy's Decode tells
// from JSON by its first byte) with "{…}" lines, and OTLP JSON lines with
// pretty-printed documents spanning lines. Decoded in blocks larger than a
// document, every result must equal the whole file's: blocks start at lines
// beginning as the input does.
func TestBlocksStrayLines(t *testing.T) {
	envoyLines := readFile(t, "envoy/testdata/datadog_envoy_samples.log")
	otlpLines := readFile(t, "otlp/testdata/client_spans.jsonl")
	pretty := readFile(t, "otlp/testdata/vllm_pretty.json")
	var env, otl bytes.Buffer
	for i := range 40 {
		env.Write(envoyLines)
		fmt.Fprintf(&env, "{\"stray\": %d}\n", i)
		otl.Write(otlpLines)
		if i%10 == 3 {
			otl.Write(pretty)
		}
	}
	dir := t.TempDir()
	for _, c := range []struct{ format, path string }{
		{"envoy", writeFile(t, filepath.Join(dir, "envoy.log"), env.Bytes())},
		{"otlp", writeFile(t, filepath.Join(dir, "spans.jsonl"), otl.Bytes())},
	} {
		opts := DriverOptions{Format: c.format, BlockBytes: 1 << 30}
		whole, err := Run([]string{c.path}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Records == 0 {
			t.Fatalf("%s: no records", c.format)
		}
		for _, size := range []int{len(pretty) + 1, 3000, 4096, 10000} {
			opts.BlockBytes = size
			res, err := Run([]string{c.path}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Inputs, whole.Inputs) || !reflect.DeepEqual(res.Rejects, whole.Rejects) ||
				!reflect.DeepEqual(res.Events, whole.Events) {
				t.Errorf("%s in blocks of %d: %+v\nwhole: %+v", c.format, size, res.Inputs[0], whole.Inputs[0])
			}
		}
	}
}
