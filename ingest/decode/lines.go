package decode

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
)

// ReadRecordsByLine calls fn for every line of r with its 1-based number and
// its bytes without the line ending ("\n" or "\r\n"); the bytes are valid
// only during the call (they point into a reused buffer). A last line
// without a newline counts. A line longer than MaxLineBytes is not handed to
// fn but rejected on sink ("line too long"), and reading goes on after it.
// It returns the first read error other than io.EOF.
func ReadRecordsByLine(r io.Reader, sink Sink, fn func(line int64, b []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	var n int64
	long := false
	for {
		frag, err := br.ReadSlice('\n')
		line := frag // a whole line in the reader's buffer: no copy
		if err == bufio.ErrBufferFull || len(buf) > 0 || long {
			if len(buf)+len(frag) > MaxLineBytes+len("\r\n") {
				long, buf = true, buf[:0]
			} else if !long {
				buf = append(buf, frag...)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			line = buf
		}
		if len(line) > 0 || long {
			n++
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			if long || len(line) > MaxLineBytes {
				sink.Reject(AtCol(n, MaxLineBytes+1), "line too long", "longer than "+strconv.Itoa(MaxLineBytes)+" bytes")
			} else {
				fn(n, line)
			}
		}
		buf, long = buf[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// MaxLineBytes is the longest line (without its ending) ReadRecordsByLine
// and EachTextLine hand on; a longer line is rejected or reported once
// through EachTextLine's tooLong callback.
const MaxLineBytes = 16 << 20

// UTF8BOM is the byte-order mark some Windows tools write at a file's start.
var UTF8BOM = []byte("\xef\xbb\xbf")

// FirstLine returns the input's first line without its line ending, a
// leading byte-order mark and surrounding spaces, or nil when head holds no
// whole line.
func FirstLine(head []byte) []byte {
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		return nil
	}
	return bytes.TrimSpace(bytes.TrimPrefix(head[:i], UTF8BOM))
}

// EachTextLine calls fn with each line of r (1-based, without the newline
// and without a leading byte-order mark); lines longer than MaxLineBytes go
// to tooLong instead. The bytes fn gets are only valid during the call.
//
// A BytesReader not yet read from is read in place: its lines are handed
// on where they lie, without copying them through a buffer.
func EachTextLine(r io.Reader, fn func(n int64, line []byte), tooLong func(n int64)) error {
	if m, ok := r.(*BytesReader); ok && m.Len() == len(m.data) {
		m.Seek(0, io.SeekEnd)
		eachTextLineOf(m.data, fn, tooLong)
		return nil
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte // a line longer than br's buffer, gathered
	var n int64
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			long = true
		} else if !long && (len(buf) > 0 || err == bufio.ErrBufferFull) {
			buf = append(buf, chunk...)
			chunk = buf
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(chunk) > 0 || long {
			n++
			if long {
				tooLong(n)
			} else {
				line := bytes.TrimSuffix(chunk, []byte("\n"))
				if n == 1 {
					line = bytes.TrimPrefix(line, UTF8BOM)
				}
				fn(n, line)
			}
		}
		buf, long = buf[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// eachTextLineOf is EachTextLine on data in memory: a line is too long when
// it is, with its newline, longer than MaxLineBytes, as when read through
// the buffer.
func eachTextLineOf(data []byte, fn func(n int64, line []byte), tooLong func(n int64)) {
	var n int64
	for len(data) > 0 {
		chunk := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			chunk = data[:i+1]
		}
		data = data[len(chunk):]
		n++
		if len(chunk) > MaxLineBytes {
			tooLong(n)
			continue
		}
		line := bytes.TrimSuffix(chunk, []byte("\n"))
		if n == 1 {
			line = bytes.TrimPrefix(line, UTF8BOM)
		}
		fn(n, line)
	}
}

// BytesReader is a bytes.Reader over an input held in memory whose lines
// EachTextLine reads in place (the driver's blocks of lines): a 1 GB OTLP
// log's blocks were copied again through a 64 KB buffer, made anew per
// block.
type BytesReader struct {
	bytes.Reader
	data []byte
}

// NewBytesReader returns a BytesReader of data.
func NewBytesReader(data []byte) *BytesReader {
	r := &BytesReader{data: data}
	r.Reset(data)
	return r
}
