package ingest

import (
	"strings"
	"testing"
)

// TestInputStatsCarryTimingNote checks that the driver records, on each
// input's stats, the timing note its format declares for the options the
// input was read with: nginx read with combined lacks $request_time, with
// the gateway's log_format it has it; a format that declares no note
// (OTLP) leaves it nil.
func TestInputStatsCarryTimingNote(t *testing.T) {
	gateway := `$remote_addr - [$time_local] $msec "$request" $status $body_bytes_sent $request_time $upstream_connect_time ` +
		`$upstream_header_time $upstream_response_time "$upstream_addr" $request_id "$http_traceparent" "$upstream_http_x_request_id" "$http_user_agent"`
	for _, tc := range []struct {
		format, file, logFormat, lack string
	}{
		{"nginx", "nginx/testdata/datadog_samples.log", "", "combined has no $request_time"},
		{"nginx", "nginx/testdata/llm_gateway.log", gateway, `their $request_time is "-"`},
		{"otlp", "otlp/testdata/client_spans.jsonl", "", ""},
	} {
		opts := DriverOptions{Format: tc.format, LogFormats: map[string]string{tc.format: tc.logFormat}}
		res, err := Run([]string{tc.file}, opts)
		if err != nil {
			t.Fatal(err)
		}
		in := res.Inputs[0]
		switch {
		case in.Records == 0:
			t.Errorf("%s: no records read", tc.file)
		case tc.lack == "" && in.TimingNote != nil:
			t.Errorf("%s: timing note %+v, want none", tc.file, in.TimingNote)
		case tc.lack != "" && (in.TimingNote == nil || !strings.HasPrefix(in.TimingNote.Lack, tc.lack)):
			t.Errorf("%s: timing note %+v, want one lacking %q…", tc.file, in.TimingNote, tc.lack)
		}
	}
}
