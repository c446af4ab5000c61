package otlp

import "github.com/ttftrace/ttftrace/internal/jsonwalk"

// How encoding/json fills a struct from JSON, which the reader follows:
// the members of an object (or of several objects decoded over each
// other) are matched to fields as it matches them, and a list field given
// more than once is decoded element over element.

// otlpList is a list field of a struct as encoding/json fills it
// (jsonwalk.List), and whether anything was read into it.
type otlpList struct {
	jsonwalk.List
	dirty bool // something was read into the field (which starts empty)
}

// overlay calls read with the sources of every element of the list's
// arrays (element k of each array that has one, in order); keep is false
// for elements past the last array's length, which encoding/json decodes
// (and may refuse) but drops.
func (f *otlpReader) overlay(b []byte, l *otlpList, read func(srcs []int, keep bool)) {
	elems, last := l.Elements(b, func(e int) int { return f.skip(b, e) })
	for k, srcs := range elems {
		read(srcs, k < last)
	}
}

// fields walks the members of the objects at srcs, in order, as
// encoding/json decodes them into one struct whose JSON names are names:
// field gets the index of each member it matches (escapes decoded, the
// exact name first, else case-insensitively) and its value; other members
// are skipped. A null source adds nothing; a source of another type is a
// type error. It returns the index past the last source, or -1 for bytes
// that are not JSON.
func (f *otlpReader) fields(b []byte, srcs []int, names []string, field func(k, j int) int) int {
	end := -1
	for _, i := range srcs {
		switch b[i] {
		case 'n':
			end = jsonwalk.WalkLiteral(b, i, "null")
		case '{':
			end = jsonwalk.WalkObject(b, i, func(key []byte, j int) int {
				if k := otlpField(key, names); k >= 0 {
					return field(k, j)
				}
				return f.skip(b, j)
			})
		default:
			end = f.wrongType(b, i)
		}
		if end < 0 {
			return -1
		}
	}
	return end
}

// otlpField returns the index in names of a raw key as encoding/json
// matches struct fields, or -1.
func otlpField(key []byte, names []string) int {
	for i, n := range names {
		if string(key) == n {
			return i
		}
	}
	k, _ := jsonwalk.FieldIndex(key, names) // the key was validated by the walk
	return k
}

// wrongType notes a value encoding/json would refuse for its field and
// returns the index past it.
func (f *otlpReader) wrongType(b []byte, j int) int {
	f.typeErr = true
	return f.skip(b, j)
}

// clear empties the attribute set of the list, unless nothing was read
// into it.
func (l *otlpList) clear(set *otlpAttrSet) {
	if l.dirty {
		set.reset()
	}
}
