package textscan

import (
	"errors"
	"math"
	"testing"
	"time"
)

// TestUnixNsBounds checks the two ends of int64 nanoseconds, written out by
// hand: 2262-04-11T23:47:16.854775807Z is math.MaxInt64 and
// 1677-09-21T00:12:43.145224192Z is math.MinInt64; one nanosecond beyond
// either is out of range (UnixNano would wrap around).
func TestUnixNsBounds(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int64
		err  error
	}{
		{"2262-04-11T23:47:16.854775807Z", math.MaxInt64, nil},
		{"2262-04-11T23:47:16.854775808Z", 0, ErrTimeRange},
		{"1677-09-21T00:12:43.145224192Z", math.MinInt64, nil},
		{"1677-09-21T00:12:43.145224191Z", 0, ErrTimeRange},
		{"2300-01-01T00:00:00+01:00", 0, ErrTimeRange},
		{"1970-01-01T00:00:01Z", 1e9, nil},
		{"yesterday", 0, nil},
	} {
		got, err := ParseNs(time.RFC3339Nano, c.s, time.UTC)
		if c.s == "yesterday" {
			if err == nil || errors.Is(err, ErrTimeRange) || TimeReason(err, "bad") != "bad" {
				t.Errorf("%s: %v", c.s, err)
			}
			continue
		}
		if got != c.want || !errors.Is(err, c.err) || err == nil && c.err != nil {
			t.Errorf("%s: %d %v, want %d %v", c.s, got, err, c.want, c.err)
		}
		if c.err != nil && TimeReason(err, "bad") != TimeRangeReason {
			t.Errorf("%s: reason %q", c.s, TimeReason(err, "bad"))
		}
	}
}
