package ingest

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// LineSplitter is implemented by a format whose records, in an input that
// starts with head, are each one line decoded on its own: no record spans
// lines and no line's meaning depends on another line. The driver then
// decodes a large input in blocks of whole lines on every core, each block
// handed to Decode as its own Input, and numbers each block's lines from
// the lines before it; records, rejects and their file:line are the same as
// when the input is decoded whole. Blocks are cut before a line that starts
// as the input's first line does (see splitter), so a stray line or a
// pretty-printed document shorter than a block does not change that; a
// record spanning more lines than a block holds is read in pieces (each
// counted, as rejects), unlike a whole decode.
type LineSplitter interface {
	LineRecords(head []byte) bool
}

// DefaultBlockBytes is the size of the blocks a line-split input is decoded
// in: large enough that a block's start-up cost (a Decode call, a log format
// compiled) is nothing beside its ~10,000 lines, small enough that the
// blocks in flight on 2 cores hold a few tens of MB.
const DefaultBlockBytes = 4 << 20

// maxBlockLine is the longest line the splitter keeps whole; a longer line
// is reported as one "line too long" reject and skipped without being held
// in memory. Formats have their own, smaller limits (decode.MaxLineBytes).
const maxBlockLine = 64 << 20

// block is a run of whole lines of an input.
type block struct {
	data  []byte // the lines, each ending in "\n" except perhaps the input's last
	base  int64  // lines of the input before the block
	lines int64  // lines in data, as the formats count them
	long  bool   // the block is one line longer than maxBlockLine (data is empty)
	// unterminated: the block is the input's last line alone, which lacks a
	// newline (the input's end, or a compressed stream's truncation, cut it).
	unterminated bool
}

// splitter cuts an input's bytes into blocks at line ends, preferably
// before a line that starts with the same byte as the input's first line
// (lead): each block then starts as the input does, so a format that looks
// at its input's first bytes (Envoy's JSON or text, an OTLP document's
// opening brace in column 0) sees in every block what it saw at the start,
// even when a stray line falls on a block boundary.
type splitter struct {
	r     io.Reader
	lead  byte   // the first byte of the input's first line; 0: none
	size  int    // the block size aimed at
	lines int64  // lines in the blocks returned so far
	rest  []byte // bytes read after the end of the last block
	eof   bool
	err   error // the read error that ended the input, if not io.EOF
}

// newSplitter returns a splitter of r into blocks of about size bytes;
// head is the input's first bytes.
func newSplitter(r io.Reader, size int, head []byte) *splitter {
	s := &splitter{r: r, size: max(size, 1)}
	if h := bytes.TrimPrefix(head, decode.UTF8BOM); len(h) > 0 && h[0] > ' ' {
		s.lead = h[0]
	}
	return s
}

// cut returns the end of the block in buf, whose last newline is at
// buf[last]: after the last newline followed by lead, else after last.
func (s *splitter) cut(buf []byte, from, last int) int {
	if s.lead != 0 {
		for i := last; i >= from; i-- {
			if buf[i] == '\n' && i+1 < len(buf) && buf[i+1] == s.lead {
				return i + 1
			}
		}
	}
	return last + 1
}

// next returns the next block, reading into buf (its contents are
// replaced), and false after the last block. A block holds about size
// bytes: the lines that fit, or one longer line whole.
func (s *splitter) next(buf []byte) (block, bool) {
	buf = append(buf[:0], s.rest...)
	s.rest = s.rest[:0]
	searched := 0 // buf[:searched] holds no newline
	for target := s.size; ; target = len(buf) + s.size {
		for len(buf) < target && !s.eof {
			buf = s.read(buf, target)
		}
		if i := bytes.LastIndexByte(buf[searched:], '\n'); i >= 0 {
			if first := searched + bytes.IndexByte(buf[searched:], '\n'); first > maxBlockLine {
				s.rest = append(s.rest, buf[first+1:]...)
				return s.emitLong(), true
			}
			cut := s.cut(buf, searched, searched+i)
			s.rest = append(s.rest, buf[cut:]...)
			return s.emit(buf[:cut]), true
		}
		if len(buf) > maxBlockLine {
			s.skipLine()
			return s.emitLong(), true
		}
		if s.eof {
			if len(buf) == 0 {
				return block{}, false
			}
			b := s.emit(buf) // no newline in buf: one unterminated line
			b.unterminated = true
			return b, true
		}
		searched = len(buf)
	}
}

// emit returns data as the next block and counts its lines.
func (s *splitter) emit(data []byte) block {
	n := int64(bytes.Count(data, []byte{'\n'}))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++ // a last line without a newline counts
	}
	b := block{data: data, base: s.lines, lines: n}
	s.lines += n
	return b
}

// skipLine reads past the end of the line being read (to the input's end
// when it has no newline), keeping what follows it in s.rest.
func (s *splitter) skipLine() {
	buf := make([]byte, 0, readChunk)
	for !s.eof {
		buf = s.read(buf[:0], cap(buf))
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			s.rest = append(s.rest, buf[i+1:]...)
			return
		}
	}
}

// emitLong returns the block of one line longer than maxBlockLine.
func (s *splitter) emitLong() block {
	b := block{base: s.lines, lines: 1, long: true}
	s.lines++
	return b
}

// readChunk is the least room read leaves for one Read.
const readChunk = 64 << 10

// blockPool recycles the buffers blocks are read into. Each is made at the
// block size plus two reads' room, so reading a block never grows it (a
// buffer grown from empty copied itself to 4 MiB: 0.22 s of CPU per GB of
// OTLP in slices.Grow, a tenth of the reader's work being memclr of new
// buffers). It keeps them in a channel, not a sync.Pool, which dropped
// them at every collection, and ingest's 200 MiB soft memory limit makes
// collections frequent. Only buffers of about the block size are kept (a
// long line grows one; a block of one line too long returns none).
type blockPool struct {
	free  chan []byte
	bytes int // the block size
}

// newBlockPool returns a pool keeping up to n buffers for blocks of about
// size bytes.
func newBlockPool(n, size int) *blockPool {
	return &blockPool{free: make(chan []byte, n), bytes: size}
}

func (p *blockPool) get() []byte {
	select {
	case b := <-p.free:
		return b
	default:
		return make([]byte, 0, p.bytes+2*readChunk)
	}
}

func (p *blockPool) put(b []byte) {
	if cap(b) < p.bytes || cap(b) > 2*(p.bytes+2*readChunk) {
		return
	}
	select {
	case p.free <- b[:0]:
	default:
	}
}

// read appends what one Read gives to buf, up to limit bytes in all,
// growing buf when nearly full.
func (s *splitter) read(buf []byte, limit int) []byte {
	if cap(buf)-len(buf) < readChunk {
		buf = slices.Grow(buf, max(readChunk, len(buf)/2))
	}
	n, err := s.r.Read(buf[len(buf):min(cap(buf), max(limit, len(buf)+1))])
	buf = buf[:len(buf)+n]
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
	}
	return buf
}

// longLineDetail is the detail of the reject of a line longer than
// maxBlockLine.
var longLineDetail = "longer than " + strconv.Itoa(maxBlockLine) + " bytes"
