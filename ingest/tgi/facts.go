package tgi

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: the log time has microseconds and total_time is a Rust Duration
// printed to its full precision, so start = end − total_time and end are
// within ±1 µs.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.EitherRounding(1_000))
}
