package textscan

import (
	"testing"
)

func TestScaledDecimalToNs(t *testing.T) {
	cases := []struct {
		in   string
		unit int64
		want int64
		ok   bool
	}{
		{"1.5", 1e9, 1_500_000_000, true},
		{"0.1", 1e9, 100_000_000, true}, // exact, unlike 0.1 * 1e9 in floating point
		{"1e-3", 1e9, 1_000_000, true},
		{"-2.5", 1e6, -2_500_000, true},
		{"0.0000000005", 1e9, 1, true},   // half a nanosecond rounds away from zero
		{"-0.0000000005", 1e9, -1, true}, // likewise below zero
		{"0.0000000004", 1e9, 0, true},
		{"1795428000.123456789", 1e9, 1_795_428_000_123_456_789, true},
		{"9223372036.854775807", 1e9, 9_223_372_036_854_775_807, true}, // max int64
		{"9223372036.854775808", 1e9, 0, false},                        // one past it
		{"1e31", 1, 0, false},                                          // exponent too large to allow
		{"abc", 1, 0, false},
		{"1/2", 1, 0, false},
		{"0x10", 1, 0, false},
		{"", 1, 0, false},
		{"NaN", 1, 0, false},
	}
	for _, c := range cases {
		got, ok := ScaledDecimalNs(c.in, c.unit)
		if ok != c.ok || got != c.want {
			t.Errorf("scaledDecimalToNs(%q, %d) = %d, %v; want %d, %v", c.in, c.unit, got, ok, c.want, c.ok)
		}
	}
}

// FuzzDecimalScaledBytes checks DecimalScaledBytes against DecimalScaled.
func FuzzDecimalScaledBytes(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "12.", ".5", "-.5", "1.2.3", "1e3", " 1", "+1", "-", "", "123456789012.123456789",
		"99999999999999999999", "007.0700", "1.9999999999", "1700000000.123456789", "-9223372036.854775808", "9223372036.854775807", "9999999999.999999999"} {
		f.Add(s, uint8(6))
		f.Add(s, uint8(9))
	}
	f.Fuzz(func(t *testing.T, s string, scale uint8) {
		sc := int(scale % 10)
		got, ok := DecimalScaledBytes([]byte(s), sc)
		want, wok := DecimalScaled(s, sc)
		if got != want || ok != wok {
			t.Fatalf("%q scale %d: %d %v, decimalScaled %d %v", s, sc, got, ok, want, wok)
		}
	})
}
