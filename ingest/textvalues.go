package ingest

import (
	"bytes"
	"encoding/binary"
	"slices"
	"time"
)

// This file holds the allocation-free value readers of the fast text paths
// (nginx, Envoy, HAProxy, TGI): each reads the common shape of a value
// straight from a line's bytes and reports ok=false for anything else, which
// the caller then hands to the general (string-based) parser, so that both
// give the same result.

// valueArena hands out the nullable numbers and flags of schema.Event from
// blocks, so that a record's instants do not cost one allocation each. Values
// are never reused: each pointer stays valid and unshared.
type valueArena struct {
	i64 []int64
	i32 []int32
	b   []bool
}

const arenaBlock = 256

func (a *valueArena) int64(v int64) *int64 {
	if len(a.i64) == cap(a.i64) {
		a.i64 = make([]int64, 0, arenaBlock)
	}
	a.i64 = append(a.i64, v)
	return &a.i64[len(a.i64)-1]
}

func (a *valueArena) int32(v int32) *int32 {
	if len(a.i32) == cap(a.i32) {
		a.i32 = make([]int32, 0, arenaBlock)
	}
	a.i32 = append(a.i32, v)
	return &a.i32[len(a.i32)-1]
}

func (a *valueArena) bool(v bool) *bool {
	if len(a.b) == cap(a.b) {
		a.b = make([]bool, 0, arenaBlock)
	}
	a.b = append(a.b, v)
	return &a.b[len(a.b)-1]
}

// internTable returns one string per distinct byte value for the values that
// repeat from record to record (methods, paths, hosts, user agents), so that
// each costs one allocation per input instead of one per record. A few
// recent values are compared before the map is looked up. It stops growing
// at internMax entries; longer values are not kept.
type internTable struct {
	recent [16]string // by internSlot
	m      map[string]string
}

const (
	internMax    = 4096
	internMaxLen = 256
)

// internSlot picks the recent-value slot of b from a hash of its length
// and last eight bytes (where ids and addresses differ).
func internSlot(b []byte) int {
	var x uint64
	if len(b) >= 8 {
		x = binary.LittleEndian.Uint64(b[len(b)-8:])
	} else {
		for _, c := range b {
			x = x<<8 | uint64(c)
		}
	}
	return int(((x ^ uint64(len(b))) * 0x9e3779b97f4a7c15) >> 60)
}

func (t *internTable) get(b []byte) string {
	slot := internSlot(b)
	if t.recent[slot] == string(b) {
		return t.recent[slot]
	}
	s, ok := t.m[string(b)]
	if !ok {
		s = string(b)
		if len(b) <= internMaxLen && len(t.m) < internMax {
			if t.m == nil {
				t.m = map[string]string{}
			}
			t.m[s] = s
		}
	}
	t.recent[slot] = s
	return s
}

// digitsValue returns the value of b when it is 1 to 18 ASCII digits.
func digitsValue(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// twoDigits returns the value of b[i:i+2] when both are digits, else -1.
func twoDigits(b []byte, i int) int {
	c, d := b[i]-'0', b[i+1]-'0'
	if c > 9 || d > 9 {
		return -1
	}
	return int(c)*10 + int(d)
}

// unixDays returns the days from 1970-01-01 to the given proleptic
// Gregorian date (Howard Hinnant's days_from_civil).
func unixDays(y, m, d int) int64 {
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

// daysInMonth is the number of days of month m (1-12) in year y.
func daysInMonth(m, y int) int {
	if m == 2 && (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		return 29
	}
	return int("\x1f\x1c\x1f\x1e\x1f\x1e\x1f\x1f\x1e\x1f\x1e\x1f"[m-1])
}

// civilNs is a validated date and time of day (years 1900-2199, so that
// any instant fits int64 nanoseconds) as Unix nanoseconds, UTC.
func civilNs(y, mo, d, h, mi, s int) (int64, bool) {
	if y < 1900 || y > 2199 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(mo, y) ||
		h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 {
		return 0, false
	}
	return (unixDays(y, mo, d)*86400 + int64(h*3600+mi*60+s)) * 1e9, true
}

// rfc3339Ns reads "2006-01-02T15:04:05[.fraction](Z|±07:00)" as
// time.Parse(time.RFC3339Nano, …).UnixNano() does, for years 1900-2199 and
// zone offsets below 24 h; it reports false for any other text.
func rfc3339Ns(b []byte) (int64, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	y1, y2 := twoDigits(b, 0), twoDigits(b, 2)
	if y1 < 0 || y2 < 0 {
		return 0, false
	}
	ns, ok := civilNs(y1*100+y2, twoDigits(b, 5), twoDigits(b, 8), twoDigits(b, 11), twoDigits(b, 14), twoDigits(b, 17))
	if !ok {
		return 0, false
	}
	rest := b[19:]
	if len(rest) >= 2 && rest[0] == '.' && rest[1] >= '0' && rest[1] <= '9' {
		n := 1
		var frac, scale int64 = 0, 1e9
		for ; n < len(rest) && rest[n] >= '0' && rest[n] <= '9'; n++ {
			if n <= 9 {
				frac, scale = frac*10+int64(rest[n]-'0'), scale/10
			}
		}
		ns += frac * scale
		rest = rest[n:]
	}
	off, ok := zoneOffset(rest, true)
	return ns - off, ok
}

// zoneOffset reads "Z" (when z is set), "±hh:mm" (colon) or "±hhmm" as the
// whole of b, with hh below 24 and mm below 60, into nanoseconds east of UTC.
func zoneOffset(b []byte, colon bool) (int64, bool) {
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
	h, m := twoDigits(b, 1), twoDigits(b, mm)
	if h < 0 || h > 23 || m < 0 || m > 59 || b[0] != '+' && b[0] != '-' {
		return 0, false
	}
	off := int64(h*3600+m*60) * 1e9
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

// clfMonths are the month names of the Common Log Format's dates, in order.
const clfMonths = "JanFebMarAprMayJunJulAugSepOctNovDec"

// clfDate reads "02/Jan/2006:15:04:05" at the start of b: the layout of
// nginx's $time_local and HAProxy's dates, without their zone or
// milliseconds. It returns the fields, or ok=false for anything that
// time.Parse might read differently (one-digit hours, other month cases).
func clfDate(b []byte) (y, mo, d, h, mi, s int, ok bool) {
	if len(b) < 20 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' {
		return
	}
	for i := 0; i < len(clfMonths); i += 3 {
		if string(b[3:6]) == clfMonths[i:i+3] {
			mo = i/3 + 1
		}
	}
	y1, y2 := twoDigits(b, 7), twoDigits(b, 9)
	d, h, mi, s = twoDigits(b, 0), twoDigits(b, 12), twoDigits(b, 15), twoDigits(b, 18)
	return y1*100 + y2, mo, d, h, mi, s, mo > 0 && y1 >= 0 && y2 >= 0
}

// timeLocalNs reads nginx's $time_local ("02/Jan/2006:15:04:05 -0700") as
// time.Parse does, for the shapes clfDate, civilNs and zoneOffset take.
func timeLocalNs(b []byte) (int64, bool) {
	y, mo, d, h, mi, s, ok := clfDate(b)
	if !ok || len(b) != 26 || b[20] != ' ' {
		return 0, false
	}
	ns, ok := civilNs(y, mo, d, h, mi, s)
	off, zok := zoneOffset(b[21:], false)
	return ns - off, ok && zok
}

// clfMillisNs reads HAProxy's "02/Jan/2006:15:04:05.000" in loc as
// time.ParseInLocation does, for the shapes clfDate and civilNs take.
func clfMillisNs(b []byte, loc *time.Location) (int64, bool) {
	y, mo, d, h, mi, s, ok := clfDate(b)
	if !ok || len(b) != 24 || b[20] != '.' {
		return 0, false
	}
	ms, ok2 := digitsValue(b[21:24])
	if _, ok3 := civilNs(y, mo, d, h, mi, s); !ok2 || !ok3 {
		return 0, false
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, int(ms)*1e6, loc).UnixNano(), true
}

// asciiGraphic reports whether c is a printable ASCII character other than
// the space: a byte no trimming or field splitting touches.
func asciiGraphic(c byte) bool { return c > ' ' && c < 0x7f }

// appendTraceparentID appends the trace id TraceIDFromTraceparent gives
// for the line bytes b (nothing when it gives ""); ok is false when b is not
// of the common shape, and TraceIDFromTraceparent must read it.
func appendTraceparentID(dst, b []byte) (out []byte, ok bool) {
	if len(b) == 0 || !asciiGraphic(b[0]) || !asciiGraphic(b[len(b)-1]) {
		return dst, false
	}
	i := bytes.IndexByte(b, '-')
	if i < 0 {
		return dst, true
	}
	rest := b[i+1:]
	j := bytes.IndexByte(rest, '-')
	if j < 0 || bytes.IndexByte(rest[j+1:], '-') < 0 {
		return dst, true // fewer than four parts
	}
	return appendTraceID(dst, rest[:j])
}

// appendTraceID appends the id NormalizeTraceID gives for b (nothing for
// ""); ok is false when b has a 0x prefix or dashes, which NormalizeTraceID
// must read.
func appendTraceID(dst, b []byte) (out []byte, ok bool) {
	if len(b) >= 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') || bytes.IndexByte(b, '-') >= 0 {
		return dst, false
	}
	if len(b) != 32 {
		return dst, true
	}
	var nonZero byte
	for _, c := range b {
		l := hexLower[c]
		if l == 0 {
			return dst, true
		}
		nonZero |= l ^ '0'
	}
	if nonZero == 0 {
		return dst, true
	}
	for _, c := range b {
		dst = append(dst, hexLower[c])
	}
	return dst, true
}

// hexLower maps each hex digit to its lower-case form and any other byte to 0.
var hexLower = func() (t [256]byte) {
	for _, c := range []byte("0123456789abcdef") {
		t[c] = c
	}
	for _, c := range []byte("ABCDEF") {
		t[c] = c + 'a' - 'A'
	}
	return t
}()

// endpointPath is EndpointPath for line bytes: the target up to its query
// or fragment.
func endpointPath(b []byte) []byte {
	for i, c := range b {
		if c == '?' || c == '#' {
			return b[:i]
		}
	}
	return b
}

// attrKV is one attribute of an event being built.
type attrKV struct{ key, val string }

// attrMaps returns one attribute map per distinct set of attributes, shared
// by every event with that set, so that an event's Attrs cost no allocation
// when its attributes repeat (methods, hosts, user agents). The maps are
// read-only once handed out: the Sink contract lets a format reuse what it
// passes, and the driver clones the maps it keeps. At most attrMapsMax sets
// are kept; beyond that each event gets its own map.
type attrMaps struct {
	recent [8]attrSet // the sets last asked for, most recent first
	key    []byte
	maps   map[string]map[string]string
}

// attrSet is a set of attributes and its map.
type attrSet struct {
	attrs []attrKV
	m     map[string]string
}

const attrMapsMax = 1024

// get returns the map holding attrs (later entries win), nil when empty.
func (c *attrMaps) get(attrs []attrKV) map[string]string {
	if len(attrs) == 0 {
		return nil
	}
	for i := range c.recent {
		if r := c.recent[i]; slices.Equal(r.attrs, attrs) {
			copy(c.recent[1:i+1], c.recent[:i])
			c.recent[0] = r
			return r.m
		}
	}
	m := c.lookup(attrs)
	last := c.recent[len(c.recent)-1].attrs
	copy(c.recent[1:], c.recent[:])
	c.recent[0] = attrSet{append(last[:0], attrs...), m}
	return m
}

// lookup returns the map of attrs from the table of sets, adding it.
func (c *attrMaps) lookup(attrs []attrKV) map[string]string {
	c.key = c.key[:0]
	for _, a := range attrs {
		c.key = append(binary.AppendUvarint(c.key, uint64(len(a.key))), a.key...)
		c.key = append(binary.AppendUvarint(c.key, uint64(len(a.val))), a.val...)
	}
	if m, ok := c.maps[string(c.key)]; ok {
		return m
	}
	m := make(map[string]string, len(attrs))
	for _, a := range attrs {
		m[a.key] = a.val
	}
	if len(c.maps) < attrMapsMax {
		if c.maps == nil {
			c.maps = map[string]map[string]string{}
		}
		c.maps[string(c.key)] = m
	}
	return m
}

// decimalScaledBytes is decimalScaled for value bytes: "-"?digits with an
// optional fraction is read in place, anything else by decimalScaled.
func decimalScaledBytes(b []byte, scale int) (int64, bool) {
	i, neg := 0, len(b) > 0 && b[0] == '-'
	if neg {
		i = 1
	}
	var v int64
	start := i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	if i == start || i-start+scale > 18 || i < len(b) && b[i] != '.' {
		return decimalScaled(string(b), scale)
	}
	frac := 0
	if i < len(b) {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if frac < scale {
				v, frac = v*10+int64(b[i]-'0'), frac+1
			}
		}
		if i < len(b) {
			return decimalScaled(string(b), scale)
		}
	}
	for ; frac < scale; frac++ {
		v *= 10
	}
	if neg {
		v = -v
	}
	return v, true
}

// decimalNs is scaledDecimalToNs for digits with an optional fraction
// ("1.234567") and a power-of-ten unit, read without big.Rat: num × unit
// rounded to the nearest ns, halves away from zero. Anything else goes to
// scaledDecimalToNs.
func decimalNs[S ~string | ~[]byte](num S, unit int64) (int64, bool) {
	p := 0 // unit = 10^p
	switch unit {
	case 1e9:
		p = 9
	case 1e6:
		p = 6
	case 1e3:
		p = 3
	default:
		for p < 18 && pow10(p) < unit {
			p++
		}
	}
	var ip, frac int64
	i := 0
	for ; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
		ip = ip*10 + int64(num[i]-'0')
	}
	whole, k, dot := i, 0, i < len(num) && num[i] == '.'
	if dot {
		for i++; i < len(num) && num[i] >= '0' && num[i] <= '9'; i, k = i+1, k+1 {
			frac = frac*10 + int64(num[i]-'0')
		}
	}
	if pow10(p) != unit || whole == 0 || whole+p > 18 || i != len(num) || dot && k == 0 || k > 18 {
		return scaledDecimalToNs(string(num), unit)
	}
	ns := ip * unit
	if k <= p {
		return ns + frac*pow10(p-k), true
	}
	div := pow10(k - p)
	q, r := frac/div, frac%div
	if 2*r >= div {
		q++
	}
	return ns + q, true
}

// pow10 returns 10^n for n from 0 to 18.
func pow10(n int) int64 { return pow10s[n] }

var pow10s = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}
