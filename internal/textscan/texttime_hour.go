package textscan

// RFC3339Hour is RFC3339Ns with the date and hour of the last value read
// remembered: access log lines of one hour share "2006-01-02T15", so the
// calendar arithmetic (CivilNs, with RFC3339Ns a tenth of DecodeEnvoyText's
// instructions) runs once per hour of log instead of once per line.
type RFC3339Hour struct {
	prefix [13]byte // "2006-01-02T15" of the hour remembered
	base   int64    // its Unix ns (UTC), when ok
	ok     bool
}

// ns returns RFC3339Ns(b).
func (c *RFC3339Hour) Ns(b []byte) (int64, bool) {
	if !c.ok || len(b) < 20 || string(b[:13]) != string(c.prefix[:]) {
		return c.miss(b)
	}
	mi, s := TwoDigits(b, 14), TwoDigits(b, 17)
	if b[13] != ':' || b[16] != ':' || mi < 0 || mi > 59 || s < 0 || s > 59 {
		return 0, false
	}
	return RFC3339Rest(b[19:], c.base+int64(mi*60+s)*1e9)
}

// miss reads b by RFC3339Ns and remembers its hour when it is valid.
func (c *RFC3339Hour) miss(b []byte) (int64, bool) {
	ns, ok := RFC3339Ns(b)
	if ok {
		// RFC3339Ns checked the date and hour.
		y := TwoDigits(b, 0)*100 + TwoDigits(b, 2)
		c.base, c.ok = CivilNs(y, TwoDigits(b, 5), TwoDigits(b, 8), TwoDigits(b, 11), 0, 0)
		copy(c.prefix[:], b[:13])
	}
	return ns, ok
}

// RFC3339Rest is the end of RFC3339Ns: the fraction and zone of rest added
// to ns, the instant its first 19 bytes give in UTC.
func RFC3339Rest(rest []byte, ns int64) (int64, bool) {
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
	off, ok := ZoneOffset(rest, true)
	return ns - off, ok
}
