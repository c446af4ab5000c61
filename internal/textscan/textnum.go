package textscan

import "math"

// This file holds the fast text paths' readers of numbers (see
// textvalues.go): each reads the common form in place and hands anything else
// to the general parser, so that both give the same result.

// Digits returns the value of b when it is 1 to 18 ASCII digits.
func Digits(b []byte) (int64, bool) {
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

// DecimalScaledBytes is DecimalScaled for value bytes: "-"?digits with an
// optional fraction is read in place, anything else by DecimalScaled.
func DecimalScaledBytes(b []byte, scale int) (int64, bool) {
	i, neg := 0, len(b) > 0 && b[0] == '-'
	if neg {
		i = 1
	}
	var v uint64 // 19 digits fit: epoch seconds (10 digits) in ns too
	start := i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + uint64(b[i]-'0')
	}
	if i == start || i-start+scale > 19 || i < len(b) && b[i] != '.' {
		return DecimalScaled(string(b), scale)
	}
	frac := 0
	if i < len(b) {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if frac < scale {
				v, frac = v*10+uint64(b[i]-'0'), frac+1
			}
		}
		if i < len(b) {
			return DecimalScaled(string(b), scale)
		}
	}
	for ; frac < scale; frac++ {
		v *= 10
	}
	if v > math.MaxInt64 {
		return DecimalScaled(string(b), scale)
	}
	if neg {
		return -int64(v), true
	}
	return int64(v), true
}

// DecimalNs is ScaledDecimalNs for digits with an optional fraction
// ("1.234567") and a power-of-ten unit, read without big.Rat: num × unit
// rounded to the nearest ns, halves away from zero. Anything else goes to
// ScaledDecimalNs.
func DecimalNs[S ~string | ~[]byte](num S, unit int64) (int64, bool) {
	p := 0 // unit = 10^p
	switch unit {
	case 1e9:
		p = 9
	case 1e6:
		p = 6
	case 1e3:
		p = 3
	default:
		for p < 18 && Pow10(p) < unit {
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
	if Pow10(p) != unit || whole == 0 || whole+p > 18 || i != len(num) || dot && k == 0 || k > 18 {
		return ScaledDecimalNs(string(num), unit)
	}
	ns := ip * unit
	if k <= p {
		return ns + frac*Pow10(p-k), true
	}
	div := Pow10(k - p)
	q, r := frac/div, frac%div
	if 2*r >= div {
		q++
	}
	return ns + q, true
}

// Pow10 returns 10^n for n from 0 to 18.
func Pow10(n int) int64 { return pow10s[n] }

var pow10s = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// ASCIISpace reports whether c is ASCII white space as unicode.IsSpace has it.
func ASCIISpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}
