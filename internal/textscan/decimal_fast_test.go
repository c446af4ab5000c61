package textscan

import (
	"strings"
	"testing"
)

// TestScaledDecimalBytesNs checks the in-place reader against
// ScaledDecimalNs.
func TestScaledDecimalBytesNs(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "1.5", "-0.5", "0.0000000005", "-0.0000000005", "0.0000000004",
		"1795428001.3234567891", "1795428001.32345678951", "40.5", "007", "0.1e3", "+1", "1.", ".5", "-", "",
		"999999999999999999", "9223372036.854775807", "9223372036.854775808", "-9223372036.854775808",
		"12.999999999999", "1x", "1.2.3", "00", "-0", "123456789012345678.5",
		"0." + strings.Repeat("0", 70) + "1", "1." + strings.Repeat("9", 62)} {
		for _, unit := range []int64{1, 1e3, 1e6, 1e9, 7} {
			got, gok := ScaledDecimalBytesNs([]byte(s), unit)
			want, wok := ScaledDecimalNs(s, unit)
			if got != want || gok != wok {
				t.Errorf("%q × %d: got %d %v, want %d %v", s, unit, got, gok, want, wok)
			}
		}
	}
}

func FuzzScaledDecimalBytesNs(f *testing.F) {
	for _, s := range []string{"0", "1.5", "-0.5", "1795428001.3234567891", "1e3"} {
		f.Add(s, uint8(9))
	}
	f.Fuzz(func(t *testing.T, s string, u uint8) {
		unit := int64(1)
		for range u % 10 {
			unit *= 10
		}
		got, gok := ScaledDecimalBytesNs([]byte(s), unit)
		want, wok := ScaledDecimalNs(s, unit)
		if got != want || gok != wok {
			t.Errorf("%q × %d: got %d %v, want %d %v", s, unit, got, gok, want, wok)
		}
	})
}
