package decode

import (
	"io"
	"os"
)

// ReadAllSized reads r to its end into a buffer sized by r's length, its
// file size, or else size (the input's expected length; 0 if unknown), with
// one allocation and no copy when the sizes hold, and by io.ReadAll when no
// size is known. The decoders that read a whole document use it.
func ReadAllSized(r io.Reader, size int64) ([]byte, error) {
	n := size
	switch r := r.(type) {
	case interface{ Len() int }:
		n = int64(r.Len())
	case *os.File:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			n = st.Size()
		}
	}
	if n <= 0 || n >= 1<<31 {
		return io.ReadAll(r)
	}
	b := append([]byte(nil), make([]byte, n+1)...)[:0] // as io.ReadAll: not zeroed first
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// ErrReader returns err: after the bytes a fast path read before a read
// error, it makes the general route report that same error.
type ErrReader struct{ Err error }

func (r ErrReader) Read([]byte) (int, error) { return 0, r.Err }
