package textscan

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestRFC3339Hour compares RFC3339Hour with RFC3339Ns on runs of random
// timestamps sharing hours, with bad minutes, seconds, fractions and zones.
func TestRFC3339Hour(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var c RFC3339Hour
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	hour, hits := "2026-11-23T10", 0
	for range 200000 {
		if r.Intn(4) == 0 {
			hour = fmt.Sprintf("%s-%s-%sT%s", pick("2026", "1899", "2200", "2024", "20x6"),
				pick("02", "11", "13", "00"), pick("29", "30", "01", "3a"), pick("10", "23", "24"))
		}
		s := fmt.Sprintf("%s:%02d:%02d%s%s", hour, r.Intn(62), r.Intn(62),
			pick("", ".", ".123", ".1234567891234", ".x"), pick("Z", "", "+01:00", "-23:59", "+24:00", "z", "Z "))
		if r.Intn(50) == 0 {
			b := []byte(s)
			b[r.Intn(len(b))] = pick(":", "-", "T", "9")[0]
			s = string(b)
		}
		if c.ok && len(s) >= 13 && s[:13] == string(c.prefix[:]) {
			hits++
		}
		gn, gok := c.Ns([]byte(s))
		wn, wok := RFC3339Ns([]byte(s))
		if gn != wn || gok != wok {
			t.Fatalf("rfc3339Hour.ns(%q) = %d, %v; rfc3339Ns gives %d, %v", s, gn, gok, wn, wok)
		}
	}
	if hits < 2000 {
		t.Errorf("only %d values of a remembered hour", hits)
	}
}
