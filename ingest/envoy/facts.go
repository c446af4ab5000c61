package envoy

import (
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones, for the format string or JSON map of opts. %START_TIME% is
// truncated to its printed resolution: the ms by default, or what a
// %START_TIME(…)% strftime gives (%s alone: the second; %3f, %6f, %9f or
// %f: ms, µs, ns). Every other instant is START_TIME plus durations that
// Envoy truncates to the ms: the first token one (COMMON_DURATION from
// DS_RX_BEG, or RESPONSE_DURATION), the end up to two (DURATION, or
// RESPONSE_DURATION + RESPONSE_TX_DURATION when DURATION is absent). A
// duration given in µs or ns (COMMON_DURATION(…:us)) is still counted as
// ms: the range is wider than needed, never too narrow.
func (Format) InstantErrors(opts decode.Options) schema.InstantErrors {
	ms := schema.Truncated(1_000_000)
	start := schema.Truncated(startTimeResolution(opts.LogFormat))
	return schema.InstantErrors{Start: start, First: start.Plus(ms), End: start.Plus(ms).Plus(ms)}
}

// startTimeResolution returns the unit, ns, in which spec prints
// %START_TIME%: the ms unless a %START_TIME(…)% strftime format says
// otherwise.
func startTimeResolution(spec string) int64 {
	_, after, ok := strings.Cut(spec, "%START_TIME(")
	if !ok {
		return 1_000_000
	}
	layout, _, _ := strings.Cut(after, ")%")
	switch {
	case strings.Contains(layout, "%3f"):
		return 1_000_000
	case strings.Contains(layout, "%6f"):
		return 1_000
	case strings.Contains(layout, "%9f"), strings.Contains(layout, "%f"):
		return 1
	}
	return 1_000_000_000
}
