package vllmbench

import (
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// The itls of a vllm-bench document. They hold most of a document's
// numbers, so each is validated and converted to ns in one visit as the
// document is read, into blocks of one arena; the event is built from the
// values, and the number's text is looked up again only to reject it.

// vbenchITLBlock is the number of values in each block of the arena.
const vbenchITLBlock = 1 << 15

// vbenchITLs holds every request's itls.
type vbenchITLs struct {
	blocks [][]int64      // the arena; the last is being filled
	block  []int64        // the last block
	sets   []vbenchITLSet // request i's, in order
}

// vbenchITLSet is one request's itls: its array's place in the document
// (lo < 0 for a null list) and where its values in ns are in the arena,
// a value < 0 standing for one the event route rejects (null, negative,
// or a text vbenchNs does not read). It holds no pointer, for the
// collector's sake.
type vbenchITLSet struct {
	arr          vbenchSpan
	block, lo, n int32
}

// values returns the values of set s.
func (x *vbenchITLs) values(s vbenchITLSet) []int64 {
	if s.n == 0 {
		return nil
	}
	return x.blocks[s.block][s.lo : s.lo+s.n : s.lo+s.n]
}

// array reads the array of numbers and nulls at b[j] as the itls of the
// next request and returns the index past it, or -1 for anything else.
func (x *vbenchITLs) array(b []byte, j int) int {
	lo := j
	start := len(x.block)
	if j = jsonwalk.SkipWS(b, j+1); j < len(b) && b[j] == ']' {
		x.sets = append(x.sets, vbenchITLSet{arr: vbenchSpan{lo, j + 1}})
		return j + 1
	}
	for j < len(b) {
		e, ns, ok := vbenchNsAt(b, j)
		if !ok {
			if e, ns = vbenchITL(b, j); e < 0 {
				return -1
			}
		} else if ns < 0 {
			ns = -1
		}
		if len(x.block) == cap(x.block) {
			x.grow(start)
			start = 0
		}
		x.block = append(x.block, ns)
		if j = jsonwalk.SkipWS(b, e); j >= len(b) {
			return -1
		}
		switch b[j] {
		case ']':
			x.sets = append(x.sets, vbenchITLSet{vbenchSpan{lo, j + 1},
				int32(len(x.blocks) - 1), int32(start), int32(len(x.block) - start)})
			return j + 1
		case ',':
			j = jsonwalk.SkipWS(b, j+1)
		default:
			return -1
		}
	}
	return -1
}

// grow starts a new block, moving to it the values of the array being
// read, which begin at block[start].
func (x *vbenchITLs) grow(start int) {
	part := x.block[start:]
	x.block = append(make([]int64, 0, max(vbenchITLBlock, 2*len(part))), part...)
	x.blocks = append(x.blocks, x.block)
}

// vbenchITL reads the number, null or number-holding string at b[j] that
// vbenchNsAt declined and returns the index past it (-1 for anything else)
// and its value in ns, -1 for one the event route rejects.
func vbenchITL(b []byte, j int) (int, int64) {
	e, s := vbenchElem(b, j)
	if e < 0 || s.lo < 0 {
		return e, -1
	}
	ns, ok := vbenchNs(b[s.lo:s.hi])
	if !ok || ns < 0 {
		return e, -1
	}
	return e, ns
}

// vbenchArrayElem returns the text of element k of the array arr, which
// was validated as numbers, nulls and number strings; nil for null.
func vbenchArrayElem(arr []byte, k int) []byte {
	for j := jsonwalk.SkipWS(arr, 1); j < len(arr) && arr[j] != ']'; k-- {
		e, s := vbenchElem(arr, j)
		if e < 0 {
			break // not after vbenchITLs.array
		}
		if k == 0 {
			if s.lo < 0 {
				return nil
			}
			return arr[s.lo:s.hi:s.hi]
		}
		if j = jsonwalk.SkipWS(arr, e); j < len(arr) && arr[j] == ',' {
			j = jsonwalk.SkipWS(arr, j+1)
		}
	}
	return nil
}

// vbenchNsAt reads the number at b[j] in the usual shape
// -?(0|[1-9][0-9]{0,8})(\.[0-9]+)? followed by a byte that cannot continue
// a JSON number, and returns the index past it and its value as vbenchNs
// gives it, in one visit of its bytes; ok is false for anything else, which
// jsonwalk.NumberEnd and vbenchNs read.
func vbenchNsAt(b []byte, j int) (end int, ns int64, ok bool) {
	i := j
	if i < len(b) && b[i] == '-' {
		i++
	}
	var sec, frac int64
	k := i
	for ; k < len(b) && b[k]-'0' <= 9; k++ {
		sec = sec*10 + int64(b[k]-'0')
	}
	if k == i || k-i > 9 || k-i > 1 && b[i] == '0' {
		return 0, 0, false
	}
	if k < len(b) && b[k] == '.' {
		d := k + 1
		for k = d; k < len(b) && k-d < 9 && b[k]-'0' <= 9; k++ {
			frac = frac*10 + int64(b[k]-'0')
		}
		if k == d {
			return 0, 0, false
		}
		frac *= vbenchPow10[9-(k-d)]
		if k < len(b) && b[k]-'0' <= 9 {
			if b[k] >= '5' {
				frac++
			}
			for k++; k < len(b) && b[k]-'0' <= 9; k++ {
			}
		}
	}
	if k >= len(b) || k-j > 64 || b[k] == '.' || b[k] == 'e' || b[k] == 'E' || b[k] == '+' || b[k] == '-' {
		return 0, 0, false
	}
	ns = sec*1e9 + frac
	if i > j {
		ns = -ns
	}
	return k, ns, true
}
