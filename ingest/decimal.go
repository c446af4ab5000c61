package ingest

import (
	"math/big"
	"strconv"
	"strings"
)

// maxDecimalExponent bounds the exponent of a decimal given to
// scaledDecimalToNs, so that hostile input cannot make big.Rat allocate
// without limit.
const maxDecimalExponent = 30

// scaledDecimalToNs returns the decimal number s (sign, digits, optional
// fraction and exponent, e.g. "1.5", "-2e3") times unitNs, as integer
// nanoseconds rounded to the nearest nanosecond (halves away from zero). It
// is exact: "1700000000.123456789" seconds gives 1700000000123456789. It
// reports false for text that is not such a number or does not fit an int64.
func scaledDecimalToNs(s string, unitNs int64) (int64, bool) {
	if s == "" || len(s) > 64 || strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E')
	}) {
		return 0, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > maxDecimalExponent || exp < -maxDecimalExponent {
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
