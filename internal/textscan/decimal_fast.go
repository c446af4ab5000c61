package textscan

// ScaledDecimalBytesNs is ScaledDecimalNs for value bytes: the common
// shape -?(0|[1-9][0-9]*)(\.[0-9]+)? with at most 18 integer digits and a
// power-of-ten unit up to 1e9 is read in place, exactly and without
// allocating; anything else goes to ScaledDecimalNs.
func ScaledDecimalBytesNs(b []byte, unitNs int64) (int64, bool) {
	if len(b) > 64 { // scaledDecimalToNs refuses these; so must this
		return ScaledDecimalNs(string(b), unitNs)
	}
	u := DecimalUnitDigits(unitNs)
	i, neg := 0, len(b) > 0 && b[0] == '-'
	if neg {
		i = 1
	}
	start := i
	var v int64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	n := i - start
	if u < 0 || n == 0 || n > 18 || n > 1 && b[start] == '0' || v > (1<<62)/unitNs {
		return ScaledDecimalNs(string(b), unitNs)
	}
	v *= unitNs
	if i < len(b) {
		if b[i] != '.' || i+1 == len(b) {
			return ScaledDecimalNs(string(b), unitNs)
		}
		var frac, round int64
		scale := unitNs
		for j := i + 1; j < len(b); j++ {
			c := b[j]
			if c < '0' || c > '9' {
				return ScaledDecimalNs(string(b), unitNs)
			}
			switch {
			case j-i <= u:
				scale /= 10
				frac += int64(c-'0') * scale
			case j-i == u+1 && c >= '5':
				round = 1
			}
		}
		v += frac + round
	}
	if neg {
		v = -v
	}
	return v, true
}

// DecimalUnitDigits returns log10(unitNs) for 1, 10, … 1e9, else -1.
func DecimalUnitDigits(unitNs int64) int {
	for u, p := 0, int64(1); u <= 9; u, p = u+1, p*10 {
		if p == unitNs {
			return u
		}
	}
	return -1
}
