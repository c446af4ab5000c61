package tgi

import (
	"math"
	"strings"

	"github.com/ttftrace/ttftrace/internal/textscan"
)

// tgiDurationUnits are the units of Rust Duration Debug strings and of
// compound forms, in nanoseconds, longest suffix first.
var tgiDurationUnits = []struct {
	suffix string
	ns     int64
}{
	{"ms", 1e6}, {"µs", 1e3}, {"μs", 1e3}, {"us", 1e3}, {"ns", 1},
	{"h", 3600e9}, {"m", 60e9}, {"s", 1e9},
}

// tgiDurationUnit returns the unit at the start of s, the first of
// tgiDurationUnits it starts with, and its length; 0 when there is none.
func tgiDurationUnit[S ~string | ~[]byte](s S) (int64, int) {
	if len(s) == 0 {
		return 0, 0
	}
	two := len(s) >= 2 && s[1] == 's'
	switch s[0] {
	case 'm':
		if two {
			return 1e6, 2
		}
		return 60e9, 1
	case 'u':
		if two {
			return 1e3, 2
		}
	case 'n':
		if two {
			return 1, 2
		}
	case 'h':
		return 3600e9, 1
	case 's':
		return 1e9, 1
	case 0xc2, 0xce: // µ (U+00B5) and μ (U+03BC)
		if len(s) >= 3 && s[2] == 's' && (s[0] == 0xc2 && s[1] == 0xb5 || s[0] == 0xce && s[1] == 0xbc) {
			return 1e3, 3
		}
	}
	return 0, 0
}

// tgiDuration parses a Rust Duration Debug string ("1.234567s", "40ms",
// "25.3µs", "812ns") or a compound one ("1m5.3s", "1h2m") into nanoseconds.
// It reads strings and line bytes alike.
func tgiDuration[S ~string | ~[]byte](s S) (int64, bool) {
	for len(s) > 0 && textscan.ASCIISpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && textscan.ASCIISpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && (s[0] >= 0x80 || s[len(s)-1] >= 0x80) {
		return tgiDurationOf(strings.TrimSpace(string(s)))
	}
	return tgiDurationOf(s)
}

// tgiDurationOf is tgiDuration for trimmed text.
func tgiDurationOf[S ~string | ~[]byte](s S) (int64, bool) {
	if len(s) == 0 {
		return 0, false
	}
	var total int64
	for len(s) > 0 {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if i == 0 {
			return 0, false
		}
		num, rest := s[:i], s[i:]
		unit, n := tgiDurationUnit(rest)
		if unit == 0 {
			return 0, false
		}
		rest = rest[n:]
		ns, ok := textscan.DecimalNs(num, unit)
		if !ok || total > math.MaxInt64-ns {
			return 0, false
		}
		total, s = total+ns, rest
	}
	return total, true
}
