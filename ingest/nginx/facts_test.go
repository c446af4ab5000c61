package nginx

import (
	"regexp"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// TestInstantErrorsByLogFormat checks the end's declared resolution for
// log_formats with and without $msec (ms when present, else the second).
func TestInstantErrorsByLogFormat(t *testing.T) {
	for _, tc := range []struct {
		spec string
		res  int64
	}{
		{"", 1_000_000_000}, // combined: $time_local only
		{"combined", 1_000_000_000},
		{`$remote_addr [$time_iso8601] $request_time`, 1_000_000_000},
		{`$remote_addr $msec $request_time`, 1_000_000},
		{`${msec}|$request_time`, 1_000_000},
		{`$msec`, 1_000_000},
		{`$msecs $time_local`, 1_000_000_000}, // another variable's name
		{`msec $time_local`, 1_000_000_000},   // not a variable
	} {
		e := Format{}.InstantErrors(decode.Options{LogFormat: tc.spec})
		if e.End.ResolutionNs != tc.res || e.End.LowNs != -tc.res || e.End.HighNs != 0 {
			t.Errorf("%q: end %+v, want truncated to %d ns", tc.spec, e.End, tc.res)
		}
		// start = end − $request_time: the end's truncation and, without
		// $msec, one more ms from $request_time.
		wantLow := -tc.res
		if tc.res != 1_000_000 {
			wantLow -= 1_000_000
		}
		if e.Start.LowNs != wantLow || e.Start.HighNs != 0 {
			t.Errorf("%q: start %+v, want [%d, 0]", tc.spec, e.Start, wantLow)
		}
	}
}

// FuzzLogsVariable checks logsVariable against a regular expression.
func FuzzLogsVariable(f *testing.F) {
	for _, s := range []string{"$msec", "${msec}", "$msecs", "x$msec y", "$$msec", "${msec", "$msec_"} {
		f.Add(s)
	}
	re := regexp.MustCompile(`\$(\{msec\}|msec([^_0-9A-Za-z]|$))`)
	f.Fuzz(func(t *testing.T, spec string) {
		if got, want := logsVariable(spec, "msec"), re.MatchString(spec); got != want {
			t.Errorf("logsVariable(%q) = %v, regexp says %v", spec, got, want)
		}
	})
}
