package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Magic numbers of the compressed formats recognized whatever the file name.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompressed is an input's decompressed byte stream. A compressed stream
// that breaks off or is corrupt ends in a clean io.EOF for the reader, and
// Truncated reports it afterwards: what was readable is kept.
type decompressed struct {
	r         io.Reader
	close     func()
	truncated bool
	plain     bool  // r is the input itself, not a decompressor
	cause     error // the decompressor's error behind truncated
}

// decompress wraps r in a gzip or zstd decompressor when its first bytes are
// that format's magic number, and returns it unchanged otherwise.
func decompress(r io.Reader) *decompressed {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(len(zstdMagic))
	d := &decompressed{r: br, close: func() {}}
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil {
			d.fail(err)
			return d
		}
		d.r, d.close = zr, func() { zr.Close() }
	case bytes.HasPrefix(magic, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			d.fail(err)
			return d
		}
		d.r, d.close = zr, zr.Close
	default:
		d.plain = true
		return d
	}
	d.r = &tolerantReader{r: d.r, d: d}
	return d
}

// fail marks the stream truncated at its very start.
func (d *decompressed) fail(err error) {
	d.truncated, d.cause = true, err
	d.r = bytes.NewReader(nil)
}

// tolerantReader turns a decompressor's error (unexpected EOF, bad checksum,
// corrupt block) into a sticky io.EOF and marks the stream truncated.
type tolerantReader struct {
	r    io.Reader
	d    *decompressed
	done bool
}

func (t *tolerantReader) Read(p []byte) (int, error) {
	if t.done {
		return 0, io.EOF
	}
	n, err := t.r.Read(p)
	if err == nil {
		return n, nil
	}
	t.done = true
	if !errors.Is(err, io.EOF) {
		t.d.truncated, t.d.cause = true, err
	}
	return n, io.EOF
}
