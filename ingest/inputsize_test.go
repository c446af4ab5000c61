package ingest

import (
	"bytes"
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// sizeFormat is a test-only format that reports one event whose request id
// is the Size its Input carried.
type sizeFormat struct{}

func (sizeFormat) Name() string { return "size" }

func (sizeFormat) Source() string { return schema.SourceProxy }

func (sizeFormat) Describe() string { return "test: reports Input.Size" }

func (sizeFormat) Sniff(head []byte) bool { return bytes.HasPrefix(head, []byte("#size")) }

func (sizeFormat) Decode(in *Input, sink Sink) error {
	if _, err := io.Copy(io.Discard, in.R); err != nil {
		return err
	}
	sink.Event(1, nil, &schema.Event{RequestID: strconv.FormatInt(in.Size, 10), Clock: schema.ClockWall})
	return nil
}

// TestRunInputSize checks that a plain file's decoder is told the file's
// size, and that a compressed file's or standard input's is told nothing.
func TestRunInputSize(t *testing.T) {
	dir := t.TempDir()
	data := []byte("#size\n" + string(bytes.Repeat([]byte("x"), 5000)) + "\n")
	plain := writeFile(t, filepath.Join(dir, "a.log"), data)
	gz := writeFile(t, filepath.Join(dir, "b.log.gz"), gzipBytes(t, data))
	res, err := Run([]string{plain, gz}, DriverOptions{Formats: []Format{sizeFormat{}}, KeepEvents: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(res.Events); got != strconv.Itoa(len(data))+",0" {
		t.Errorf("sizes %s, want %d,0", got, len(data))
	}
	res, err = Run([]string{StdinName}, DriverOptions{Formats: []Format{sizeFormat{}}, Stdin: bytes.NewReader(data), KeepEvents: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(res.Events); got != "0" {
		t.Errorf("standard input's size %s, want 0", got)
	}
}
