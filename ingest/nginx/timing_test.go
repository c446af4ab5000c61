package nginx

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// TestNginxTimingNote checks the note of each kind of log_format, written
// by hand: combined (no --log-format) asks for the log_format that wrote
// the log; a pasted directive without $request_time or $msec is named and
// asked for both; one with $msec only for $request_time; one with
// $request_time (the fleet's) only has lines whose value is "-".
func TestNginxTimingNote(t *testing.T) {
	const (
		written  = " (the lines already written have no timing)"
		giveFile = "give `--log-format nginx=@FILE` with the log_format line that wrote this log"
	)
	cases := []struct {
		spec string
		want schema.TimingNote
	}{
		{"", schema.TimingNote{
			Lack: "combined has no $request_time, so its lines give no start instant (its variables: " +
				"$remote_addr $remote_user $time_local $request $status $body_bytes_sent $http_referer $http_user_agent)",
			Fix: giveFile + "; if it is combined, add $request_time $msec to the log_format in nginx.conf" + written}},
		{`log_format main '$remote_addr [$time_local] "$request" $status';`, schema.TimingNote{
			Lack: `log_format "main" has no $request_time, so its lines give no start instant (its variables: $remote_addr $time_local $request $status)`,
			Fix:  "add $request_time $msec to that log_format in nginx.conf" + written + ", or " + giveFile}},
		{`$remote_addr $msec "$request" $status`, schema.TimingNote{
			Lack: `the log_format has no $request_time, so its lines give no start instant (its variables: $remote_addr $msec $request $status)`,
			Fix:  "add $request_time to that log_format in nginx.conf" + written + ", or " + giveFile}},
		{fleet.NginxLogFormat, schema.TimingNote{Lack: `their $request_time is "-", so they have no start instant`,
			Fix: "nginx logged no duration for them: nothing to give"}},
	}
	for _, c := range cases {
		if got := (Format{}).TimingNote(decode.Options{LogFormat: c.spec}); got != c.want {
			t.Errorf("log_format %.40q:\n got %+v\nwant %+v", c.spec, got, c.want)
		}
	}
}
