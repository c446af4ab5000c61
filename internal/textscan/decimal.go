package textscan

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// MaxDecimalExponent bounds the exponent of a decimal given to
// ScaledDecimalNs, so that hostile input cannot make big.Rat allocate
// without limit.
const MaxDecimalExponent = 30

// ScaledDecimalNs returns the decimal number s (sign, digits, optional
// fraction and exponent, e.g. "1.5", "-2e3") times unitNs, as integer
// nanoseconds rounded to the nearest nanosecond (halves away from zero). It
// is exact: "1700000000.123456789" seconds gives 1700000000123456789. It
// reports false for text that is not such a number or does not fit an int64.
func ScaledDecimalNs(s string, unitNs int64) (int64, bool) {
	if s == "" || len(s) > 64 || strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E')
	}) {
		return 0, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > MaxDecimalExponent || exp < -MaxDecimalExponent {
			return 0, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	r.Mul(r, new(big.Rat).SetInt64(unitNs))
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	// Round half away from zero: |2m| >= den moves q one step outwards.
	if m.Sign() != 0 && new(big.Int).Abs(new(big.Int).Lsh(m, 1)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(m.Sign())))
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

// DecimalScaled parses a decimal number s ("1717171717.123456", "-1",
// "12.5") and returns it multiplied by 10^scale, truncated toward zero,
// without the rounding errors of float64. Exponent forms go through float64.
func DecimalScaled(s string, scale int) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		v := f * math.Pow10(scale)
		if err != nil || math.IsNaN(v) || math.Abs(v) > 9e18 {
			return 0, false
		}
		return int64(v), true
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	ip, fp, _ := strings.Cut(s, ".")
	if ip == "" && fp == "" || !AllDigits(ip) || !AllDigits(fp) {
		return 0, false
	}
	if len(fp) > scale {
		fp = fp[:scale]
	}
	digits := strings.TrimLeft(ip+fp+strings.Repeat("0", scale-len(fp)), "0")
	if len(digits) > 19 {
		return 0, false
	}
	v, err := strconv.ParseInt("0"+digits, 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

func AllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
