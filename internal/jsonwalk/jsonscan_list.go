package jsonwalk

// List is a list field of a Go struct (a slice) as encoding/json fills it
// from the arrays a document gives for it, its key repeated: each array is
// decoded over the elements of the arrays before it (element i of a later
// array is read on top of element i of the earlier ones: encoding/json
// reuses the slice's elements), and null or [] starts afresh. A reader
// reads the first array as it comes (Add reports it) and, when more follow,
// reads the field again from all of them (Elements).
type List struct {
	First  int   // the first array since the last null or []
	N      int   // how many arrays since then
	arrays []int // all of them, when there is more than one
}

// Add records the array at b[j] (validated or not), reporting whether it
// is the first since the last null or [].
func (l *List) Add(b []byte, j int) bool {
	if k := SkipWS(b, j+1); k < len(b) && b[k] == ']' {
		l.Reset()
		return false
	}
	switch l.N {
	case 0:
		l.First = j
	case 1:
		l.arrays = append(l.arrays[:0], l.First, j)
	default:
		l.arrays = append(l.arrays, j)
	}
	l.N++
	return l.N == 1
}

// Reset starts the list afresh (null or []).
func (l *List) Reset() { l.N, l.arrays = 0, l.arrays[:0] }

// Elements returns the sources of the list's elements when it had more
// than one array (validated): for each index k up to the longest array,
// where element k stands in every array that has one, in order. Elements
// from last on lie past the last array's length: encoding/json decodes
// them (and may refuse them) but drops them. skip returns the index past
// the value at b[e].
func (l *List) Elements(b []byte, skip func(e int) int) (elems [][]int, last int) {
	per := make([][]int, len(l.arrays))
	longest := 0
	for i, a := range l.arrays {
		WalkArray(b, a, func(e int) int {
			per[i] = append(per[i], e)
			return skip(e)
		})
		longest = max(longest, len(per[i]))
	}
	elems = make([][]int, longest)
	for k := range elems {
		for _, p := range per {
			if k < len(p) {
				elems[k] = append(elems[k], p[k])
			}
		}
	}
	return elems, len(per[len(per)-1])
}

// SkipDeep validates the JSON value at b[j] and returns the index past it,
// or -1 for bytes that are not JSON (nesting past encoding/json's limit
// counted from b[j] included). deep reports a value nesting deeper than
// WalkMaxDepth: where it stands in its document may take it past that
// limit, which the caller then checks (json.Valid of the document). stack
// is the scanner's scratch.
//
// A scalar (b[j] neither white space nor a container) is validated without
// the scanner's set-up: OTLP's times, enums and numeric values are skipped
// this way, ~10 million a GB.
func SkipDeep(b []byte, j int, stack *[]byte) (end int, deep bool) {
	if j < len(b) && b[j] > ' ' && b[j] != '{' && b[j] != '[' {
		return skipScalar(b, j), false
	}
	end, st, grown := ValueEnd(b, j, *stack)
	*stack = grown[:0]
	if deep = cap(grown) > WalkMaxDepth; deep {
		*stack = nil // let the scratch go
	}
	return EndIf(st == OK, end), deep
}
