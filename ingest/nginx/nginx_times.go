package nginx

import "errors"

// nginxTimeLocal is the layout of $time_local.
const nginxTimeLocal = "02/Jan/2006:15:04:05 -0700"

// nginxHasClock reports whether a log_format logs the end instant at all.
func nginxHasClock(f *nginxLogFormat) bool {
	for _, v := range f.vars {
		switch v.name {
		case "msec", "time_local", "time_iso8601":
			return true
		}
	}
	return false
}

// nginxAttemptSum is what the reader takes of an upstream time list
// ("0.010, 0.020 : 0.030", one time per attempt, "-" where nginx has none).
type nginxAttemptSum struct {
	n       int   // attempts listed
	last    int64 // the last attempt's time in ns, when lastSet (not "-")
	lastSet bool
	before  int64 // the earlier attempts' times added up ("-" adds nothing)
}

// nginxSumAttempts reads a list that matched as nginxList (items joined by
// ", " or " : "); ok is false for an item that is not a time or "-".
func nginxSumAttempts(v []byte) (a nginxAttemptSum, ok bool) {
	for len(v) > 0 {
		n := 0
		for n < len(v) && v[n] != ',' && v[n] != ' ' {
			n++
		}
		ns, set, err := nginxSeconds(v[:n])
		if err != nil {
			return a, false
		}
		if a.lastSet {
			a.before += a.last
		}
		a.n, a.last, a.lastSet = a.n+1, ns, set
		switch v = v[n:]; {
		case len(v) == 0:
		case len(v) >= 2 && v[0] == ',' && v[1] == ' ':
			v = v[2:]
		case len(v) >= 3 && v[0] == ' ' && v[1] == ':' && v[2] == ' ':
			v = v[3:]
		default:
			return a, false
		}
	}
	return a, true
}

// nginxHeadersAt estimates the instant the answering upstream's response
// headers arrived: end − its response time + its header time, or, without
// its response time, start + the earlier attempts' response times + its
// header time (a lower bound). The result is clamped to [start, end]; ok
// is false when the answering attempt has no header time.
func nginxHeadersAt(start *int64, end int64, hdr, resp nginxAttemptSum) (int64, bool) {
	if !hdr.lastSet {
		return 0, false
	}
	var at int64
	switch {
	case resp.lastSet && resp.n == hdr.n:
		at = end - resp.last + hdr.last
	case start != nil:
		at = *start + hdr.last + resp.before
	default:
		return 0, false
	}
	if start != nil && at < *start {
		at = *start
	}
	return min(at, end), true
}

var errNginxSeconds = errors.New("bad seconds value")

// nginxSeconds parses nginx's "seconds with a milliseconds resolution"
// ("12.345") exactly into nanoseconds; "-" and "" give ok=false. It reads
// strings and line bytes alike.
func nginxSeconds[S ~string | ~[]byte](s S) (ns int64, ok bool, err error) {
	if len(s) == 0 || len(s) == 1 && s[0] == '-' {
		return 0, false, nil
	}
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		ns = ns*10 + int64(s[i]-'0')
	}
	if i == 0 || i > 10 || ns > 9e9 { // 9e9 s is beyond int64 nanoseconds
		return 0, false, errNginxSeconds
	}
	ns *= 1e9
	if i == len(s) {
		return ns, true, nil
	}
	if s[i] != '.' || len(s)-i-1 > 9 {
		return 0, false, errNginxSeconds
	}
	// The fraction's digits as an integer, scaled once (a division per
	// digit was a sixth of nginxSeconds' instructions).
	var frac int64
	digits := len(s) - i - 1
	for i++; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false, errNginxSeconds
		}
		frac = frac*10 + int64(c)
	}
	return ns + frac*nginxFracScale[digits], true, nil
}

// nginxFracScale is the nanoseconds of a unit of the last digit of a
// fraction, by the number of its digits.
var nginxFracScale = [10]int64{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1}
