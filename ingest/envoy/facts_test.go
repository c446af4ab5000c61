package envoy

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// TestInstantErrorsByStartTime checks START_TIME's declared resolution for
// the default and strftime formats, and that the first token and end add
// one and two truncated ms durations to it.
func TestInstantErrorsByStartTime(t *testing.T) {
	for _, tc := range []struct {
		spec string
		res  int64
	}{
		{"", 1_000_000},
		{`[%START_TIME%] "%REQ(:METHOD)%" %DURATION%`, 1_000_000},
		{`%START_TIME(%Y-%m-%dT%H:%M:%S.%3fZ)% %DURATION%`, 1_000_000},
		{`%START_TIME(%s.%6f)% %DURATION%`, 1_000},
		{`{"start":"%START_TIME(%s.%9f)%","d":"%DURATION%"}`, 1},
		{`%START_TIME(%s)% %DURATION%`, 1_000_000_000},
	} {
		e := Format{}.InstantErrors(decode.Options{LogFormat: tc.spec})
		if e.Start.ResolutionNs != tc.res || e.Start.LowNs != -tc.res ||
			e.First.LowNs != -tc.res-1_000_000 || e.End.LowNs != -tc.res-2_000_000 || e.End.HighNs != 0 {
			t.Errorf("%q: %+v, want start truncated to %d ns, first −1 ms more, end −2 ms more", tc.spec, e, tc.res)
		}
	}
}
