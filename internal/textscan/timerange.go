package textscan

import (
	"errors"
	"math"
	"time"
)

// TimeRangeReason is the reject reason of an instant that int64 Unix
// nanoseconds cannot hold: before 1677-09-21T00:12:43Z or after
// 2262-04-11T23:47:16Z, where time.Time.UnixNano wraps around.
const TimeRangeReason = "time out of range"

// ErrTimeRange is UnixNs's and ParseNs's error for such an instant.
var ErrTimeRange = errors.New(TimeRangeReason)

var (
	minInstant = time.Unix(0, math.MinInt64)
	maxInstant = time.Unix(0, math.MaxInt64)
)

// UnixNs returns t in Unix nanoseconds, or ErrTimeRange when t is outside
// what int64 nanoseconds hold (t.UnixNano would give a wrong instant).
func UnixNs(t time.Time) (int64, error) {
	if !Fits(t) {
		return 0, ErrTimeRange
	}
	return t.UnixNano(), nil
}

// Fits reports whether t is within what int64 Unix nanoseconds hold.
func Fits(t time.Time) bool { return !t.Before(minInstant) && !t.After(maxInstant) }

// ParseNs is time.ParseInLocation(layout, s, loc) in Unix nanoseconds; an
// instant outside int64 nanoseconds is ErrTimeRange.
func ParseNs(layout, s string, loc *time.Location) (int64, error) {
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return 0, err
	}
	return UnixNs(t)
}

// TimeReason returns the reject reason of a time that did not read with
// err: TimeRangeReason for ErrTimeRange, else bad (a format's own reason,
// such as "bad timestamp").
func TimeReason(err error, bad string) string {
	if errors.Is(err, ErrTimeRange) {
		return TimeRangeReason
	}
	return bad
}
