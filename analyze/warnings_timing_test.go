package analyze

import (
	"testing"

	fleetlog "github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// noteOf returns the timing note the ingest format declares for the log
// format spec, as the driver records it on an input's stats.
func noteOf(t *testing.T, format, spec string) *schema.TimingNote {
	t.Helper()
	f, ok := ingest.Lookup(format)
	tn, noter := f.(ingest.TimingNoter)
	if !ok || !noter {
		t.Fatalf("%s declares no timing note", format)
	}
	n := tn.TimingNote(decode.Options{LogFormat: spec})
	return &n
}

// TestTimingWarningNotes checks the whole warning, written by hand, of
// inputs read with a log format that lacks timing: nginx's default
// combined, a custom nginx log_format without $request_time (named from
// its directive), an Envoy format without a duration; and that an input
// read with a format that has timing (the fleet's nginx log_format), whose
// events have their instants, gives none. Rows map to notes by input file,
// never by format name: the custom and the combined input are both nginx.
func TestTimingWarningNotes(t *testing.T) {
	const custom = `log_format main '$remote_addr [$time_local] "$request" $status';`
	inputs := []schema.InputStats{
		{Path: "gw-a/access.log", Format: "nginx", TimingNote: noteOf(t, "nginx", "")},
		{Path: "gw-b/access.log", Format: "nginx", TimingNote: noteOf(t, "nginx", custom)},
		{Path: "edge/envoy.log", Format: "envoy", TimingNote: noteOf(t, "envoy", `[%START_TIME%] %RESPONSE_CODE% "%REQ(:PATH)%"`)},
		{Path: "gw-c/access.log", Format: "nginx", TimingNote: noteOf(t, "nginx", fleetlog.NginxLogFormat)},
	}
	evs := []schema.Event{
		{InputFile: "gw-a/access.log", Format: "nginx", EndNs: i64(5)},
		{InputFile: "gw-a/access.log", Format: "nginx", EndNs: i64(6)},
		{InputFile: "gw-b/access.log", Format: "nginx", EndNs: i64(5)},
		{InputFile: "edge/envoy.log", Format: "envoy", StartNs: i64(1)},
		{InputFile: "gw-c/access.log", Format: "nginx", StartNs: i64(1), EndNs: i64(5)},
	}
	const (
		counted = " successful %s records are in no latency figure (they count as succeeded requests): "
		file    = "give `--log-format nginx=@FILE` with the log_format line that wrote this log"
		written = " (the lines already written have no timing)"
	)
	want := []Warning{
		{WarnNoTiming, "gw-a/access.log", "gw-a/access.log: 2 successful nginx records are in no latency figure (they count as succeeded requests): " +
			"combined has no $request_time, so its lines give no start instant (its variables: $remote_addr $remote_user $time_local " +
			"$request $status $body_bytes_sent $http_referer $http_user_agent): " + file +
			"; if it is combined, add $request_time $msec to the log_format in nginx.conf" + written},
		{WarnNoTiming, "gw-b/access.log", "gw-b/access.log: 1 successful nginx records are in no latency figure (they count as succeeded requests): " +
			`log_format "main" has no $request_time, so its lines give no start instant (its variables: $remote_addr $time_local $request $status): ` +
			"add $request_time $msec to that log_format in nginx.conf" + written + ", or " + file},
		{WarnNoTiming, "edge/envoy.log", "edge/envoy.log: 1 successful envoy records are in no latency figure (they count as succeeded requests): " +
			"the format has no %DURATION%, %RESPONSE_DURATION% or %COMMON_DURATION(DS_RX_BEG:…)%, so its entries give no instant after the start " +
			`(its operators: %START_TIME% %RESPONSE_CODE% %REQ(:PATH)%): add %DURATION% to that format in Envoy's access log configuration ` +
			"(the entries already written have no timing), or give `--log-format envoy=@FILE` with the format that wrote this log"},
	}
	got := timingWarnings(columnsOf(t, evs, nil), inputs)
	if len(got) != len(want) {
		t.Fatalf("%d warnings, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("warning %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}
