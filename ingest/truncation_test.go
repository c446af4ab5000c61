package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// flushWriter is a compressor that can flush what it was given so far as
// whole blocks, so a stream cut right after a flush decompresses to exactly
// the bytes written before it.
type flushWriter interface {
	Write([]byte) (int, error)
	Flush() error
	Close() error
}

// cutCompressed compresses data with the compressor kind ("gzip" or
// "zstd") and returns the stream cut just after data[:at]: it decompresses
// to data[:at], then fails as a truncated stream does.
func cutCompressed(t *testing.T, kind string, data []byte, at int) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w flushWriter
	if kind == "gzip" {
		w = gzip.NewWriter(&buf)
	} else {
		zw, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w = zw
	}
	w.Write(data[:at])
	w.Flush()
	n := buf.Len()
	w.Write(data[at:])
	w.Close()
	return buf.Bytes()[:n]
}

// TestTruncatedLastLineRejected cuts gzip and zstd streams of line formats
// decoded in blocks inside their first line, inside a later line and exactly
// at a line end. The expected figures come from the plain, uncompressed
// complete lines before the cut, ingested on their own: the truncated
// stream must give the same events, counts and rejects, plus, when the cut
// falls inside a line, one reject "cut by truncation" at that line, and be
// marked truncated without failing.
func TestTruncatedLastLineRejected(t *testing.T) {
	type cut struct {
		name string
		at   func(data []byte) int // the byte offset of the cut
	}
	lineEnd := func(data []byte, n int) int { // the offset after line n's newline
		at := 0
		for range n {
			at += bytes.IndexByte(data[at:], '\n') + 1
		}
		return at
	}
	cuts := []cut{
		{"inside first line", func(data []byte) int { return 12 }},
		{"inside line 4", func(data []byte) int { return lineEnd(data, 3) + 30 }},
		{"at end of line 4", func(data []byte) int { return lineEnd(data, 4) }},
	}
	formats := []struct{ name, path string }{
		{"nginx", "nginx/testdata/llm_gateway.log"},
		{"ttftrace-client", "client/testdata/chat.jsonl"},
	}
	for _, ff := range formats {
		data, err := os.ReadFile(ff.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"gzip", "zstd"} {
			for _, c := range cuts {
				t.Run(ff.name+"/"+kind+"/"+c.name, func(t *testing.T) {
					checkCut(t, ff.name, ff.path, data, kind, c.at(data))
				})
			}
		}
	}
}

// checkCut checks the ingest of data, the testdata file path of format
// name, compressed by kind and cut at byte at, against the ingest of its
// complete lines before the cut as a plain file.
func checkCut(t *testing.T, name, path string, data []byte, kind string, at int) {
	t.Helper()
	complete := bytes.Count(data[:at], []byte{'\n'})
	partial := at > 0 && data[at-1] != '\n'
	dir := t.TempDir()
	opts := DriverOptions{Format: name, Options: decodetest.Opts(t, path), Host: "h", BlockBytes: 256}
	cutFile := writeFile(t, filepath.Join(dir, "cut.log"), cutCompressed(t, kind, data, at))
	plainFile := writeFile(t, filepath.Join(dir, "plain.log"), data[:lineEndAt(data, at)])
	got, err := Run([]string{cutFile}, opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Run([]string{plainFile}, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, got)
	g, w := got.Inputs[0], want.Inputs[0]
	if !g.Truncated || g.Error != nil {
		t.Fatalf("truncated=%v error=%v, want truncated and no error", g.Truncated, g.Error)
	}
	wantRead, wantRejected := w.Read, w.Rejected
	if partial {
		wantRead, wantRejected = wantRead+1, wantRejected+1
	}
	if g.Read != wantRead || g.Records != w.Records || g.Rejected != wantRejected || g.Duplicates != w.Duplicates {
		t.Errorf("%d complete lines + partial %v: got %+v\nwant %+v plus the cut line", complete, partial, g, w)
	}
	if len(got.Events) != len(want.Events) {
		t.Errorf("%d events, want %d", len(got.Events), len(want.Events))
	}
	var cutRejects []string
	for _, r := range got.Rejects {
		if r.Reason == "cut by truncation" {
			cutRejects = append(cutRejects, r.File+":"+strconv.FormatInt(r.Line, 10))
		}
	}
	wantCut := ""
	if partial {
		wantCut = cutFile + ":" + strconv.Itoa(complete+1)
	}
	if strings.Join(cutRejects, ",") != wantCut {
		t.Errorf("cut rejects %v, want %q", cutRejects, wantCut)
	}
}

// lineEndAt returns the offset just after the last newline in data[:at].
func lineEndAt(data []byte, at int) int {
	return bytes.LastIndexByte(data[:at], '\n') + 1
}

// TestEarlyTruncatedSniffed cuts a gzip and a zstd stream inside their
// first line, too early for any format to claim them, and ingests each with
// a complete file: the cut input is reported truncated, its one partial line
// rejected as cut, and the other input is read whole.
func TestEarlyTruncatedSniffed(t *testing.T) {
	data := manyLines(300) // "#lines\n" then 300 records
	for _, kind := range []string{"gzip", "zstd"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			cut := writeFile(t, filepath.Join(dir, "a.log.gz"), cutCompressed(t, kind, data, 3))
			whole := writeFile(t, filepath.Join(dir, "b.log"), data)
			res, err := Run([]string{cut, whole}, DriverOptions{Formats: testFormats})
			if err != nil {
				t.Fatal(err)
			}
			checkAccounting(t, res)
			a, b := res.Inputs[0], res.Inputs[1]
			if !a.Truncated || a.Error != nil || a.Read != 1 || a.Rejected != 1 || a.Records != 0 {
				t.Errorf("cut input: %+v, want truncated, 1 line read and rejected, no error", a)
			}
			if b.Error != nil || b.Records != 300 {
				t.Errorf("whole input: %+v", b)
			}
			if len(res.Rejects) != 1 || res.Rejects[0].Reason != "cut by truncation" || res.Rejects[0].File != cut || res.Rejects[0].Line != 1 {
				t.Errorf("rejects %+v", res.Rejects)
			}
		})
	}
}

// TestCleanUnterminatedLastLineKept checks that a plain file and a complete
// gzip stream whose last line lacks a newline keep that line as a record.
func TestCleanUnterminatedLastLineKept(t *testing.T) {
	data := bytes.TrimSuffix(manyLines(20), []byte("\n"))
	dir := t.TempDir()
	plain := writeFile(t, filepath.Join(dir, "a.log"), data)
	gz := writeFile(t, filepath.Join(dir, "b.log.gz"), gzipBytes(t, data))
	res, err := Run([]string{plain, gz}, DriverOptions{Formats: testFormats, BlockBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	for _, in := range res.Inputs {
		if in.Truncated || in.Read != 21 || in.Records+in.Duplicates != 20 || in.Rejected != 0 {
			t.Errorf("%+v, want 21 lines read, 20 records or duplicates, none rejected", in)
		}
	}
}
