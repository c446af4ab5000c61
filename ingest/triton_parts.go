package ingest

import (
	"io"
	"os"

	"github.com/ttftrace/ttftrace/schema"
)

// Parts of the triton decoder shared by its general route and fast path.

// tritonNamed is the values of one timestamp name of a trace.
type tritonNamed struct {
	name string
	vals []int64
}

// values returns the values of the timestamp name.
func (tr *tritonTrace) values(name string) []int64 {
	for i := range tr.stamps {
		if tr.stamps[i].name == name {
			return tr.stamps[i].vals
		}
	}
	return nil
}

// add appends ns to the values of name; a name's first value is taken from
// the chunk *arena (nil: allocated alone).
func (tr *tritonTrace) add(name string, ns int64, arena *[]int64) {
	for i := range tr.stamps {
		if tr.stamps[i].name == name {
			tr.stamps[i].vals = append(tr.stamps[i].vals, ns)
			return
		}
	}
	vals := []int64{ns}
	if arena != nil {
		if len(*arena) == cap(*arena) {
			*arena = make([]int64, 0, 4096)
		}
		*arena = append(*arena, ns)
		n := len(*arena)
		vals = (*arena)[n-1 : n : n]
	}
	tr.stamps = append(tr.stamps, tritonNamed{name, vals})
}

// tritonBox holds an event with the values its pointer fields point to,
// allocated together.
type tritonBox struct {
	ev   schema.Event
	ns   [8]int64
	n    int
	done bool
}

// ptr stores v in the box and returns a pointer to it.
func (b *tritonBox) ptr(v int64) *int64 {
	b.ns[b.n] = v
	b.n++
	return &b.ns[b.n-1]
}

// tritonReadAll reads r to its end into a buffer sized by r's length or
// file size when r tells them.
func tritonReadAll(r io.Reader) ([]byte, error) {
	n := int64(0)
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
	b := make([]byte, 0, n+1)
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

// tritonErrReader returns err, the read error the general route reports
// after the bytes read before it.
type tritonErrReader struct{ err error }

func (r tritonErrReader) Read([]byte) (int, error) { return 0, r.err }
