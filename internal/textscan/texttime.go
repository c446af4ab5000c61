package textscan

import "time"

// This file holds the fast text paths' readers of dates (see textvalues.go):
// each reads the common layout in place and reports false for anything else,
// which the caller hands to time.Parse.

// TwoDigits returns the value of b[i:i+2] when both are digits, else -1.
func TwoDigits(b []byte, i int) int {
	c, d := b[i]-'0', b[i+1]-'0'
	if c > 9 || d > 9 {
		return -1
	}
	return int(c)*10 + int(d)
}

// UnixDays returns the days from 1970-01-01 to the given proleptic
// Gregorian date (Howard Hinnant's days_from_civil).
func UnixDays(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400 // y >= 0 here
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097 + doe - 719468)
}

// DaysInMonth is the number of days of month m (1-12) in year y.
func DaysInMonth(m, y int) int {
	if m == 2 && (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		return 29
	}
	return int("\x1f\x1c\x1f\x1e\x1f\x1e\x1f\x1f\x1e\x1f\x1e\x1f"[m-1])
}

// CivilNs is a validated date and time of day (years 1900-2199, so that
// any instant fits int64 nanoseconds) as Unix nanoseconds, UTC.
func CivilNs(y, mo, d, h, mi, s int) (int64, bool) {
	if y < 1900 || y > 2199 || mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(mo, y) ||
		h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 {
		return 0, false
	}
	return (UnixDays(y, mo, d)*86400 + int64(h*3600+mi*60+s)) * 1e9, true
}

// RFC3339Ns reads "2006-01-02T15:04:05[.fraction](Z|±07:00)" as
// time.Parse(time.RFC3339Nano, …).UnixNano() does, for years 1900-2199 and
// zone offsets below 24 h; it reports false for any other text.
func RFC3339Ns(b []byte) (int64, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	y1, y2 := TwoDigits(b, 0), TwoDigits(b, 2)
	if y1 < 0 || y2 < 0 {
		return 0, false
	}
	ns, ok := CivilNs(y1*100+y2, TwoDigits(b, 5), TwoDigits(b, 8), TwoDigits(b, 11), TwoDigits(b, 14), TwoDigits(b, 17))
	if !ok {
		return 0, false
	}
	return RFC3339Rest(b[19:], ns)
}

// ZoneOffset reads "Z" (when z is set), "±hh:mm" (colon) or "±hhmm" as the
// whole of b, with hh below 24 and mm below 60, into nanoseconds east of UTC.
func ZoneOffset(b []byte, colon bool) (int64, bool) {
	if z := len(b) == 1 && b[0] == 'Z'; z || len(b) == 0 {
		return 0, z && colon
	}
	mm := 3
	if colon {
		if len(b) != 6 || b[3] != ':' {
			return 0, false
		}
		mm = 4
	} else if len(b) != 5 {
		return 0, false
	}
	h, m := TwoDigits(b, 1), TwoDigits(b, mm)
	if h < 0 || h > 23 || m < 0 || m > 59 || b[0] != '+' && b[0] != '-' {
		return 0, false
	}
	off := int64(h*3600+m*60) * 1e9
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

// CLFMonths are the month names of the Common Log Format's dates, in order.
const CLFMonths = "JanFebMarAprMayJunJulAugSepOctNovDec"

// CLFDate reads "02/Jan/2006:15:04:05" at the start of b: the layout of
// nginx's $time_local and HAProxy's dates, without their zone or
// milliseconds. It returns the fields, or ok=false for anything that
// time.Parse might read differently (one-digit hours, other month cases).
func CLFDate(b []byte) (y, mo, d, h, mi, s int, ok bool) {
	if len(b) < 20 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' {
		return
	}
	for i := 0; i < len(CLFMonths); i += 3 {
		if string(b[3:6]) == CLFMonths[i:i+3] {
			mo = i/3 + 1
		}
	}
	y1, y2 := TwoDigits(b, 7), TwoDigits(b, 9)
	d, h, mi, s = TwoDigits(b, 0), TwoDigits(b, 12), TwoDigits(b, 15), TwoDigits(b, 18)
	return y1*100 + y2, mo, d, h, mi, s, mo > 0 && y1 >= 0 && y2 >= 0
}

// TimeLocalNs reads nginx's $time_local ("02/Jan/2006:15:04:05 -0700") as
// time.Parse does, for the shapes CLFDate, CivilNs and ZoneOffset take.
func TimeLocalNs(b []byte) (int64, bool) {
	y, mo, d, h, mi, s, ok := CLFDate(b)
	if !ok || len(b) != 26 || b[20] != ' ' {
		return 0, false
	}
	ns, ok := CivilNs(y, mo, d, h, mi, s)
	off, zok := ZoneOffset(b[21:], false)
	return ns - off, ok && zok
}

// CLFMillisNs reads HAProxy's "02/Jan/2006:15:04:05.000" in loc as
// time.ParseInLocation does, for the shapes CLFDate and CivilNs take.
func CLFMillisNs(b []byte, loc *time.Location) (int64, bool) {
	y, mo, d, h, mi, s, ok := CLFDate(b)
	if !ok || len(b) != 24 || b[20] != '.' {
		return 0, false
	}
	ms, ok2 := Digits(b[21:24])
	ns, ok3 := CivilNs(y, mo, d, h, mi, s)
	if !ok2 || !ok3 {
		return 0, false
	}
	if loc == time.UTC {
		return ns + ms*1e6, true
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, int(ms)*1e6, loc).UnixNano(), true
}

// LooseRFC3339Ns reads the common shapes of the date formats jsonl's
// rfc3339 and litellm's ISO dates accept, in place: RFC 3339 with 'T' or
// ' ' between date and time, and, when tz is nil or UTC, without a zone;
// ok is false for anything else, which their time.Parse layouts then read.
func LooseRFC3339Ns(s []byte, tz *time.Location) (int64, bool) {
	if ns, ok := RFC3339Ns(s); ok {
		return ns, true
	}
	if len(s) < 19 || len(s) > 47 || s[10] != ' ' && s[10] != 'T' {
		return 0, false
	}
	var buf [48]byte
	b := append(buf[:0], s...)
	b[10] = 'T'
	if ns, ok := RFC3339Ns(b); ok {
		return ns, true
	}
	if tz != nil && tz != time.UTC {
		return 0, false
	}
	return RFC3339Ns(append(b, 'Z'))
}
