package genaiperf

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: perf_analyzer writes system_clock nanoseconds, exact.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.Exact())
}

// PerRunFields names the fields GenAI-Perf sets per run: the endpoint is
// the document's top-level "endpoint" (or the API the responses' object
// type answers), the same for every request, not the path each request
// was sent to, which a proxy may log otherwise.
func (Format) PerRunFields() []string { return []string{"endpoint"} }
