package genaiperf

import (
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// JSON readers of the one-pass reading for the request object itself (plain
// JSON, unlike the escaped events). Each validates what it reads and
// returns an index into b, gpMore when b ends first, or gpBail.

// gpOuterOpen reads the '{' or '[' (want) at b[i]; it returns the index of
// the first member or element and empty=true when the container is empty
// (the index is then past it).
func gpOuterOpen(b []byte, i int, want, close byte) (int, bool) {
	if i >= len(b) {
		return gpMore, false
	}
	if b[i] != want {
		return gpBail, false
	}
	i = jsonwalk.SkipWS(b, i+1)
	if i >= len(b) {
		return gpMore, false
	}
	if b[i] == close {
		return i + 1, true
	}
	return i, false
}

// gpOuterNext reads what follows a member or element at b[i]: it returns
// the index of the next one and more=true after a ',', or the index past
// the closing delimiter and more=false.
func gpOuterNext(b []byte, i int, close byte) (int, bool) {
	if i < len(b) && b[i] == ',' { // the compact form, without white space
		if i++; i < len(b) && b[i] > ' ' {
			return i, true
		}
		i--
	}
	i = jsonwalk.SkipWS(b, i)
	if i >= len(b) {
		return gpMore, false
	}
	switch b[i] {
	case ',':
		i = jsonwalk.SkipWS(b, i+1)
		if i >= len(b) {
			return gpMore, false
		}
		return i, true
	case close:
		return i + 1, false
	}
	return gpBail, false
}

// gpOuterKey reads an object key of printable ASCII without escapes at
// b[i] and the ':' after it; it returns the key and the index of the value.
func gpOuterKey(b []byte, i int) ([]byte, int) {
	if i >= len(b) {
		return nil, gpMore
	}
	if b[i] != '"' {
		return nil, gpBail
	}
	j := i + 1
	for j < len(b) && gpEscPlain[b[j]] {
		j++
	}
	if j >= len(b) {
		return nil, gpMore
	}
	if b[j] != '"' {
		return nil, gpBail
	}
	key := b[i+1 : j]
	j = jsonwalk.SkipWS(b, j+1)
	if j >= len(b) {
		return nil, gpMore
	}
	if b[j] != ':' {
		return nil, gpBail
	}
	if j = jsonwalk.SkipWS(b, j+1); j >= len(b) {
		return nil, gpMore
	}
	return key, j
}

// gpOuterInt reads the integer at b[i] (no fraction or exponent, within
// int64) and returns it and the index past it.
func gpOuterInt(b []byte, i int) (int64, int) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	var u uint64
	first := j
	for j < len(b) && j-first < 20 {
		d := b[j] - '0'
		if d > 9 {
			break
		}
		u = u*10 + uint64(d)
		j++
	}
	n := j - first
	switch {
	case j >= len(b):
		return 0, gpMore
	case n == 0 || n >= 20 || (n > 1 && b[first] == '0'):
		return 0, gpBail
	case b[j] == '.' || b[j] == 'e' || b[j] == 'E' || (b[j] >= '0' && b[j] <= '9'):
		return 0, gpBail
	}
	limit := uint64(1<<63 - 1)
	if first > i {
		limit++
	}
	if u > limit {
		return 0, gpBail
	}
	if first > i {
		return -int64(u), j
	}
	return int64(u), j
}

// gpOuterSkip skips the value at b[i], validating it.
func gpOuterSkip(b []byte, i int, stack *[]byte) int {
	end, st, grown := jsonwalk.ValueEnd(b, i, *stack)
	*stack = grown
	switch st {
	case jsonwalk.OK:
		return end
	case jsonwalk.More:
		return gpMore
	}
	return gpBail
}
