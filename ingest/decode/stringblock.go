package decode

import "strings"

// StringBlock hands out strings carved from shared blocks of
// stringBlockSize bytes, so that values unique to each record (request and
// trace ids) cost one allocation per block instead of one per record. It
// builds on strings.Builder, whose String never aliases bytes written
// later: a string handed out is never changed, and a block is only
// appended to until it is full, then replaced. A string keeps its whole
// block alive, which is fine for values the events keep anyway.
type StringBlock struct {
	b *strings.Builder
}

// stringBlockSize is the size of a block: some hundreds of ids.
const stringBlockSize = 16 << 10

// get returns string(b).
func (s *StringBlock) Get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s.b == nil || s.b.Cap()-s.b.Len() < len(b) {
		if len(b) > stringBlockSize/8 {
			return string(b)
		}
		s.b = new(strings.Builder)
		s.b.Grow(stringBlockSize)
	}
	off := s.b.Len()
	s.b.Write(b)
	return s.b.String()[off:]
}
