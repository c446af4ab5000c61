package textscan

import (
	"testing"
	"time"
)

// textTimeSeeds are times in the layouts the fast readers take, and near
// misses they must leave to time.Parse.
var textTimeSeeds = []string{
	"2026-11-23T10:00:01.500000Z", "2026-11-23T10:00:01Z", "2026-11-23T10:00:01.123456789123Z",
	"2026-11-23T10:00:01+05:30", "2026-11-23T10:00:01.5-08:00", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z",
	"2026-13-23T10:00:01Z", "2026-11-23t10:00:01Z", "2026-11-23T10:00:60Z", "2026-11-23T10:00:01.Z",
	"2026-11-23T10:00:01+24:00", "2026-11-23T10:00:01+0530", "1677-01-01T00:00:00Z", "2300-01-01T00:00:00Z",
	"23/Nov/2026:10:00:01 +0000", "23/Nov/2026:10:00:01 -0730", "29/Feb/2024:00:00:00 +0100", "29/Feb/2023:00:00:00 +0100",
	"23/nov/2026:10:00:01 +0000", "23/Nov/2026:24:00:01 +0000", "23/Nov/2026:10:00:01 +2400", "3/Nov/2026:10:00:01 +0000",
	"23/Nov/2026:10:00:01.123", "23/Nov/2026:10:00:01.12", "31/Apr/2026:10:00:01.123", "01/Jan/1970:00:00:00.000",
}

func TestUnixDays(t *testing.T) {
	for d := time.Date(1890, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2210; d = d.AddDate(0, 0, 1) {
		if got := UnixDays(d.Year(), int(d.Month()), d.Day()); got != d.Unix()/86400 {
			t.Fatalf("unixDays(%v) = %d, want %d", d, got, d.Unix()/86400)
		}
		if d.Day() == 1 {
			next := d.AddDate(0, 1, -1)
			if got := DaysInMonth(int(d.Month()), d.Year()); got != next.Day() {
				t.Fatalf("daysInMonth(%v) = %d, want %d", d, got, next.Day())
			}
		}
	}
}

func TestTextTimes(t *testing.T) {
	took := 0
	for _, s := range textTimeSeeds {
		checkTextTimes(t, s)
		_, a := RFC3339Ns([]byte(s))
		_, b := TimeLocalNs([]byte(s))
		_, c := CLFMillisNs([]byte(s), time.UTC)
		if a || b || c {
			took++
		}
	}
	if took < 10 {
		t.Errorf("the fast readers took only %d seeds", took)
	}
}

func FuzzTextTimes(f *testing.F) {
	for _, s := range textTimeSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTextTimes)
}

func TestDigitsValue(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "007": 7, "123456789012345678": 123456789012345678, "": -1, "1234567890123456789": -1, "-1": -1, "1a": -1} {
		got, ok := Digits([]byte(s))
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("digitsValue(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzDecimalNs checks DecimalNs against ScaledDecimalNs.
func FuzzDecimalNs(f *testing.F) {
	for _, s := range []string{"1.234567", "40", "25.3", "0.5", "0.05", "1.", ".5", "1.2.3", "", "999999999.999999999", "9223372036.854775807",
		"0.0000000005", "1234567890123456789", "3.463885359", "1e3"} {
		f.Add(s, uint8(2))
	}
	units := []int64{1, 1e3, 1e6, 1e9, 60e9, 3600e9, 10}
	f.Fuzz(func(t *testing.T, s string, u uint8) {
		unit := units[int(u)%len(units)]
		got, ok := DecimalNs(s, unit)
		want, wok := ScaledDecimalNs(s, unit)
		if got != want || ok != wok {
			t.Fatalf("%q × %d: %d %v, scaledDecimalToNs %d %v", s, unit, got, ok, want, wok)
		}
	})
}

// checkTextTimes checks every fast time reader against time.Parse on s:
// when a fast reader takes s, both must give the same instant.
func checkTextTimes(t *testing.T, s string) {
	if got, ok := RFC3339Ns([]byte(s)); ok {
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || want.UnixNano() != got {
			t.Fatalf("rfc3339Ns(%q) = %d, time.Parse: %d %v", s, got, want.UnixNano(), err)
		}
	}
	if got, ok := TimeLocalNs([]byte(s)); ok {
		want, err := time.Parse("02/Jan/2006:15:04:05 -0700", s)
		if err != nil || want.UnixNano() != got {
			t.Fatalf("timeLocalNs(%q) = %d, time.Parse: %d %v", s, got, want.UnixNano(), err)
		}
	}
	for _, loc := range []*time.Location{time.UTC, time.FixedZone("x", -3600*5)} {
		if got, ok := CLFMillisNs([]byte(s), loc); ok {
			want, err := time.ParseInLocation("02/Jan/2006:15:04:05.000", s, loc)
			if err != nil || want.UnixNano() != got {
				t.Fatalf("clfMillisNs(%q) = %d, time.Parse: %d %v", s, got, want.UnixNano(), err)
			}
		}
	}
}
