package ingest

import "github.com/ttftrace/ttftrace/schema"

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

// tritonErrReader returns err, the read error the general route reports
// after the bytes read before it.
type tritonErrReader struct{ err error }

func (r tritonErrReader) Read([]byte) (int, error) { return 0, r.err }
