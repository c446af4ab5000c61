package har

import (
	"time"

	"github.com/ttftrace/ttftrace/internal/textscan"
)

// The time and duration readers of the har fast path: startedDateTime and
// the ms timings read in place, exactly as time.Parse and textscan.DecimalScaled
// read them, which they call for any shape not read here.

// harStartNs returns the instant of the RFC 3339 time s in Unix ns as
// time.Parse(time.RFC3339Nano, s) gives it, and an error when it fails
// (textscan.ErrTimeRange for an instant outside int64 ns).
func harStartNs(s []byte) (int64, error) {
	if ns, ok := harRFC3339(s); ok {
		return ns, nil
	}
	return textscan.ParseNs(time.RFC3339Nano, string(s), time.UTC)
}

// harRFC3339 reads the strict shape time.Parse reads first for RFC 3339
// layouts (2006-01-02T15:04:05[.fraction](Z|±07:00), fields in range);
// ok is false for anything else, which goes to time.Parse.
func harRFC3339(s []byte) (int64, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	year, ok1 := harDigits(s[0:4], 1900, 2199) // others: ParseNs (int64 ns end in 2262)
	month, ok2 := harDigits(s[5:7], 1, 12)
	hour, ok3 := harDigits(s[11:13], 0, 23)
	minute, ok4 := harDigits(s[14:16], 0, 59)
	sec, ok5 := harDigits(s[17:19], 0, 59)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return 0, false
	}
	day, ok := harDigits(s[8:10], 1, harDaysIn(month, year))
	if !ok {
		return 0, false
	}
	s = s[19:]
	nsec := 0
	if len(s) >= 2 && s[0] == '.' && s[1] >= '0' && s[1] <= '9' {
		n := 2
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		digits := s[1:min(n, 10)]
		for _, c := range digits {
			nsec = nsec*10 + int(c-'0')
		}
		for range 9 - len(digits) {
			nsec *= 10
		}
		s = s[n:]
	}
	off, ok := harZone(s)
	if !ok {
		return 0, false
	}
	unix := time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC).Unix() - int64(off)
	return unix*1e9 + int64(nsec), true
}

// harZone reads the zone of an RFC 3339 time: "Z" or ±hh:mm, in seconds
// east of UTC.
func harZone(s []byte) (int, bool) {
	if len(s) == 1 && s[0] == 'Z' {
		return 0, true
	}
	if len(s) != 6 || s[0] != '+' && s[0] != '-' || s[3] != ':' {
		return 0, false
	}
	hr, ok1 := harDigits(s[1:3], 0, 23)
	mm, ok2 := harDigits(s[4:6], 0, 59)
	off := (hr*60 + mm) * 60
	if s[0] == '-' {
		off = -off
	}
	return off, ok1 && ok2
}

// harDigits reads the decimal digits b as a number in [lo, hi].
func harDigits(b []byte, lo, hi int) (int, bool) {
	x := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + int(c-'0')
	}
	return x, x >= lo && x <= hi
}

// harDaysIn returns the days of month in year (proleptic Gregorian).
func harDaysIn(month, year int) int {
	if month == 2 {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + (month+month/8)%2
}
