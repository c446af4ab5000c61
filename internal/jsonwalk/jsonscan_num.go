package jsonwalk

import "strconv"

// Float parses the JSON number at b[i] exactly as strconv.ParseFloat
// does, and returns it and the index just past it (where NumberEnd
// ends it); ok is false when b[i] does not start a number of JSON's grammar
// or the number is out of float64's range. It does not allocate.
//
// Numbers of at most 19 significant digits whose mantissa fits in 53 bits
// and whose decimal exponent is within ±22 are converted by one exact
// multiplication or division (Clinger's fast path, which ParseFloat takes
// for them too, so the result is the same correctly rounded float); any
// other number goes to ParseFloat itself.
func Float(b []byte, i int) (f float64, end int, ok bool) {
	neg := i < len(b) && b[i] == '-'
	mant, digits, frac, j, ok := jsonMantissa(b, i+btoi(neg))
	if !ok {
		return 0, j, false
	}
	exp := 0
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		var short bool
		if exp, j, ok, short = jsonExponent(b, j+1); !ok {
			return 0, j, false
		} else if !short {
			return jsonFloatSlow(b, i, j)
		}
	}
	if digits > 19 || mant > 1<<53 {
		return jsonFloatSlow(b, i, j)
	}
	f = float64(mant)
	switch e := exp - frac; {
	case e == 0:
	case e > 0 && e <= 22:
		f *= jsonPow10[e]
	case e < 0 && e >= -22:
		f /= jsonPow10[-e]
	default:
		return jsonFloatSlow(b, i, j)
	}
	if neg {
		f = -f
	}
	return f, j, true
}

// jsonMantissa reads the digits of a number's integer part and fraction
// starting at b[j] (after the sign), with JSON's grammar, as one integer
// (wrapping past 19 digits); frac counts the fraction's digits.
func jsonMantissa(b []byte, j int) (mant uint64, digits, frac, end int, ok bool) {
	if j < len(b) && b[j] == '0' {
		j, digits = j+1, 1
	} else {
		for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
			mant = mant*10 + uint64(b[j]-'0')
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, 0, j, false
	}
	if j < len(b) && b[j] == '.' {
		for j++; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
			mant = mant*10 + uint64(b[j]-'0')
			digits++
			frac++
		}
		if frac == 0 {
			return 0, 0, 0, j, false
		}
	}
	return mant, digits, frac, j, true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// jsonExponent reads the exponent starting at b[j] (after the 'e'); ok is
// false when it has no digits, short is false when it has more than 4,
// which Float leaves to ParseFloat.
func jsonExponent(b []byte, j int) (e, end int, ok, short bool) {
	neg := false
	if j < len(b) && (b[j] == '+' || b[j] == '-') {
		neg = b[j] == '-'
		j++
	}
	n := 0
	for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
		if n < 4 {
			e = e*10 + int(b[j]-'0')
		}
		n++
	}
	if neg {
		e = -e
	}
	return e, j, n > 0, n <= 4
}

// jsonFloatSlow parses the number b[i:j] with strconv.ParseFloat, which
// does not allocate for numbers of up to 32 bytes.
func jsonFloatSlow(b []byte, i, j int) (float64, int, bool) {
	f, err := strconv.ParseFloat(string(b[i:j]), 64)
	return f, j, err == nil
}

// jsonPow10 holds the powers of ten that float64 represents exactly.
var jsonPow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// StrictInt parses the JSON integer at b[i] (no fraction or exponent)
// and returns it and the index just past it; ok is false when b[i] does
// not start a number of JSON's grammar, the number has a fraction or an
// exponent, or it is out of int64's range. It does not allocate.
func StrictInt(b []byte, i int) (v int64, end int, ok bool) {
	j := i
	neg := j < len(b) && b[j] == '-'
	if neg {
		j++
	}
	var u uint64
	start := j
	if j < len(b) && b[j] == '0' {
		j++
	} else {
		for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
			if u > (1<<63)/10 {
				return 0, j, false
			}
			u = u*10 + uint64(b[j]-'0')
		}
	}
	switch {
	case j == start, j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E'):
		return 0, j, false
	case neg && u <= 1<<63:
		return -int64(u), j, true
	case !neg && u < 1<<63:
		return int64(u), j, true
	}
	return 0, j, false
}
