package envoy

import (
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// TimingNote says, for the format string or JSON key map of opts (Envoy's
// and Istio's defaults when none is given, which log both), why a
// successful entry may be in no latency figure and what to give instead.
// A format without %START_TIME%, or without an instant after it, gives
// none on any entry: the note names it and its operators (MissingTiming)
// and the operators to add. With both, only an entry whose durations are
// "-" has no instant after the start.
func (Format) TimingNote(opts decode.Options) schema.TimingNote {
	lack, err := MissingTiming(opts.LogFormat)
	if err != nil || lack == "" {
		return schema.TimingNote{Lack: `their durations are "-", so they have no instant after the start`,
			Fix: "Envoy logged none for them: nothing to give"}
	}
	name, ops := envoyFormatOps(opts.LogFormat)
	start, after := timingOps(ops)
	var add []string
	if !start {
		add = append(add, "%START_TIME%")
	}
	if !after {
		add = append(add, "%DURATION%")
	}
	return schema.TimingNote{Lack: lack, Fix: "add " + strings.Join(add, " ") + " to " + strings.Replace(name, "the ", "that ", 1) +
		" in Envoy's access log configuration (the entries already written have no timing), " +
		"or give `--log-format envoy=@FILE` with the format that wrote this log"}
}
