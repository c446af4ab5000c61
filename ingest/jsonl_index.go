package ingest

import (
	"bytes"
	"time"
)

// jsonlIndex finds the members of a walked jsonl line by object and key
// through a small open-addressing hash table, rebuilt for each line, so that
// the mapping's twenty-odd lookups do not each scan every member.
type jsonlIndex struct {
	ok    bool // the table holds the line (false: too many members)
	slots [jsonlIndexSize]int32
}

const jsonlIndexSize = 256 // a power of two, at least twice jsonlIndexMax

const jsonlIndexMax = 96

// jsonlHash hashes a key of object obj from its length and three of its
// bytes: cheap, and keys of one line rarely collide on all of them.
func jsonlHash(obj int, key string) uint32 {
	h := uint32(obj)*0x9E3779B1 ^ uint32(len(key))*0x85EBCA77
	if n := len(key); n > 0 {
		h ^= (uint32(key[0]) | uint32(key[n/2])<<8 | uint32(key[n-1])<<16) * 0xC2B2AE3D
	}
	return h ^ h>>15
}

// build indexes members, the last of duplicate keys winning.
func (x *jsonlIndex) build(members []jsonlMember) {
	x.ok = len(members) <= jsonlIndexMax
	if !x.ok {
		return
	}
	clear(x.slots[:])
	for k := range members {
		m := &members[k]
		for h := jsonlHash(m.obj, string(m.key)); ; h++ {
			s := &x.slots[h&(jsonlIndexSize-1)]
			if *s == 0 {
				*s = int32(k + 1)
				break
			}
			if o := &members[*s-1]; o.obj == m.obj && bytes.Equal(o.key, m.key) {
				*s = int32(k + 1)
				break
			}
		}
	}
}

// find returns the index of the last member key of object obj, or -1.
func (x *jsonlIndex) find(members []jsonlMember, obj int, key string) int {
	for h := jsonlHash(obj, key); ; h++ {
		s := x.slots[h&(jsonlIndexSize-1)]
		if s == 0 {
			return -1
		}
		if o := &members[s-1]; o.obj == obj && string(o.key) == key {
			return int(s - 1)
		}
	}
}

// looseRFC3339Ns reads the common shapes of the date formats jsonl's
// rfc3339 and litellm's ISO dates accept, in place: RFC 3339 with 'T' or
// ' ' between date and time, and, when tz is nil or UTC, without a zone;
// ok is false for anything else, which their time.Parse layouts then read.
func looseRFC3339Ns(s []byte, tz *time.Location) (int64, bool) {
	if ns, ok := rfc3339Ns(s); ok {
		return ns, true
	}
	if len(s) < 19 || len(s) > 47 || s[10] != ' ' && s[10] != 'T' {
		return 0, false
	}
	var buf [48]byte
	b := append(buf[:0], s...)
	b[10] = 'T'
	if ns, ok := rfc3339Ns(b); ok {
		return ns, true
	}
	if tz != nil && tz != time.UTC {
		return 0, false
	}
	return rfc3339Ns(append(b, 'Z'))
}
