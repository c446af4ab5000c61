package reconcile

import (
	"github.com/ttftrace/ttftrace/ingest"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// nginxMsecFormat is an nginx log_format with $msec and $request_time, as
// the tests' nginx-like events are: start and end truncated to the ms.
const nginxMsecFormat = `$remote_addr [$time_local] "$request" $status $msec $request_time`

// withInputs returns a copy of events whose empty InputFile is set to the
// event's format name, and one input per format declaring its instants'
// errors as the ingest format does (nginx with nginxMsecFormat): what a
// dataset's commit log gives analysis.
func withInputs(events []schema.Event) ([]schema.Event, []schema.InputStats) {
	out := make([]schema.Event, len(events))
	seen := map[string]bool{}
	var inputs []schema.InputStats
	for k, e := range events {
		if e.InputFile == "" {
			e.InputFile = e.Format
		}
		out[k] = e
		if seen[e.InputFile] {
			continue
		}
		seen[e.InputFile] = true
		in := schema.InputStats{Path: e.InputFile, Format: e.Format, Host: e.Host}
		if f, ok := ingest.Lookup(e.Format); ok && f.(ingest.InstantErrorer) != nil {
			opts := decode.Options{}
			if e.Format == "nginx" {
				opts.LogFormat = nginxMsecFormat
			}
			errs := f.(ingest.InstantErrorer).InstantErrors(opts)
			in.InstantErrors = &errs
		}
		inputs = append(inputs, in)
	}
	return out, inputs
}

// reconcileDeclared reconciles events with the errors their formats
// declare (withInputs).
func reconcileDeclared(events []schema.Event) *Result {
	ev, in := withInputs(events)
	return Events(ev, in)
}
