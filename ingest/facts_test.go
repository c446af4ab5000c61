package ingest

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestFormatsDeclareInstantErrors checks that every format of the table
// declares its instants' errors, each a range holding 0 whose rounding
// matches its shape: truncated instants are read early (high 0), rounded
// ones symmetric, exact ones zero.
func TestFormatsDeclareInstantErrors(t *testing.T) {
	for _, f := range formats {
		ie, ok := f.(InstantErrorer)
		if !ok {
			t.Errorf("%s: no InstantErrors (add it to ingest/<format>/facts.go)", f.Name())
			continue
		}
		e := ie.InstantErrors(Options{})
		for name, x := range map[string]schema.InstantError{"start": e.Start, "first": e.First, "end": e.End} {
			bad := x.LowNs > 0 || x.HighNs < 0
			switch x.Rounding {
			case schema.RoundingExact:
				bad = bad || x.LowNs != 0 || x.HighNs != 0
			case schema.RoundingTruncated:
				bad = bad || x.HighNs != 0 || x.LowNs >= 0 || x.ResolutionNs <= 0
			case schema.RoundingRounded, schema.RoundingEither:
				bad = bad || x.LowNs != -x.HighNs || x.ResolutionNs <= 0
			default:
				bad = true
			}
			if bad {
				t.Errorf("%s %s: %+v is not a %q range", f.Name(), name, x, x.Rounding)
			}
		}
	}
}

// TestInputStatsCarryInstantErrors checks that the driver records the
// declared errors on each input's stats, for the options the input was
// read with: nginx's custom log_format with $msec gives ms, the default
// combined format (time_local only) the second.
func TestInputStatsCarryInstantErrors(t *testing.T) {
	for _, tc := range []struct {
		file, logFormat string
		endLow          int64
	}{
		{"datadog_samples.log", "", -1_000_000_000},
		{"llm_gateway.log", `$remote_addr - [$time_local] $msec "$request" $status $body_bytes_sent $request_time $upstream_connect_time ` +
			`$upstream_header_time $upstream_response_time "$upstream_addr" $request_id "$http_traceparent" "$upstream_http_x_request_id" "$http_user_agent"`, -1_000_000},
	} {
		opts := DriverOptions{Format: "nginx", LogFormats: map[string]string{"nginx": tc.logFormat}}
		res, err := Run([]string{"nginx/testdata/" + tc.file}, opts)
		if err != nil {
			t.Fatal(err)
		}
		in := res.Inputs[0]
		if in.Records == 0 {
			t.Fatalf("%s: no records read", tc.file)
		}
		if in.InstantErrors == nil || in.InstantErrors.End.LowNs != tc.endLow || in.InstantErrors.End.Rounding != schema.RoundingTruncated {
			t.Errorf("log_format %q: instant errors %+v, want end truncated, low %d ns", tc.logFormat, in.InstantErrors, tc.endLow)
		}
	}
}

// TestPerRunFieldsRecorded checks that the driver records the fields a
// format sets per run: GenAI-Perf's endpoint, and none for nginx.
func TestPerRunFieldsRecorded(t *testing.T) {
	for _, tc := range []struct{ format, file, want string }{
		{"genai-perf", "genaiperf/testdata/profile_export.json", "endpoint"},
		{"nginx", "nginx/testdata/datadog_samples.log", ""},
	} {
		res, err := Run([]string{tc.file}, DriverOptions{Format: tc.format})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Inputs[0].PerRunFields, ","); got != tc.want || res.Inputs[0].Records == 0 {
			t.Errorf("%s: per-run fields %q (%d records), want %q", tc.format, got, res.Inputs[0].Records, tc.want)
		}
	}
}
