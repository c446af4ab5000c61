package ingest

import (
	"bufio"
	"bytes"
	"io"
)

// readRecordsByLine calls fn for every line of r with its 1-based number and
// its bytes without the line ending ("\n" or "\r\n"). A last line without a
// newline counts; lines have no length limit. The bytes fn gets are only
// valid during the call (they point into the reader's buffer, or into a
// buffer reused for lines longer than it). It returns the first read error
// other than io.EOF.
func readRecordsByLine(r io.Reader, fn func(line int64, b []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than br's buffer, gathered
	var n int64
	for {
		b, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, b...)
			continue
		}
		if len(long) > 0 {
			long = append(long, b...)
			b, long = long, long[:0]
		}
		if len(b) > 0 {
			n++
			b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
			fn(n, b)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// maxLineBytes is the longest line eachTextLine hands on; a longer line is
// reported once through its tooLong callback.
const maxLineBytes = 16 << 20

// utf8BOM is the byte-order mark some Windows tools write at a file's start.
var utf8BOM = []byte("\xef\xbb\xbf")

// eachTextLine calls fn with each line of r (1-based, without the newline
// and without a leading byte-order mark); lines longer than maxLineBytes go
// to tooLong instead. The bytes fn gets are only valid during the call.
func eachTextLine(r io.Reader, fn func(n int64, line []byte), tooLong func(n int64)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte // a line longer than br's buffer, gathered
	var n int64
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxLineBytes {
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
					line = bytes.TrimPrefix(line, utf8BOM)
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
