package vllmbench

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: perf_counter seconds and durations printed as Python floats, ±1 µs
// (the events are on a relative clock and never join).
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.EitherRounding(1_000))
}
