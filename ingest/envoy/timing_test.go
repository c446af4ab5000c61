package envoy

import (
	"testing"

	"github.com/ttftrace/ttftrace/fleet"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// TestEnvoyTimingNote checks the note of each kind of format, written by
// hand: a format string without a duration, a key map without
// %START_TIME%, a format without either, and the defaults and the fleet's
// map, which log both.
func TestEnvoyTimingNote(t *testing.T) {
	const (
		noAfter = "no %DURATION%, %RESPONSE_DURATION% or %COMMON_DURATION(DS_RX_BEG:…)%, so its entries give no instant after the start"
		config  = " in Envoy's access log configuration (the entries already written have no timing), " +
			"or give `--log-format envoy=@FILE` with the format that wrote this log"
		hasBoth = `their durations are "-", so they have no instant after the start`
	)
	cases := []struct {
		spec string
		want schema.TimingNote
	}{
		{`[%START_TIME%] "%REQ(:PATH)%" %RESPONSE_CODE% %BYTES_SENT%`, schema.TimingNote{
			Lack: "the format has " + noAfter + " (its operators: %START_TIME% %REQ(:PATH)% %RESPONSE_CODE% %BYTES_SENT%)",
			Fix:  "add %DURATION% to that format" + config}},
		{`{"code":"%RESPONSE_CODE%","dur":"%DURATION%"}`, schema.TimingNote{
			Lack: "the key map has no %START_TIME%, so its entries give no start instant (its operators: %RESPONSE_CODE% %DURATION%)",
			Fix:  "add %START_TIME% to that key map" + config}},
		{`%RESPONSE_CODE% %BYTES_SENT%`, schema.TimingNote{
			Lack: "the format has no %START_TIME%, so its entries give no start instant (its operators: %RESPONSE_CODE% %BYTES_SENT%)",
			Fix:  "add %START_TIME% %DURATION% to that format" + config}},
		{"", schema.TimingNote{Lack: hasBoth, Fix: "Envoy logged none for them: nothing to give"}},
		{fleet.EnvoyLogFormat, schema.TimingNote{Lack: hasBoth, Fix: "Envoy logged none for them: nothing to give"}},
	}
	for _, c := range cases {
		if got := (Format{}).TimingNote(decode.Options{LogFormat: c.spec}); got != c.want {
			t.Errorf("format %.40q:\n got %+v\nwant %+v", c.spec, got, c.want)
		}
	}
}
