package aiperf

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: the ns timestamps plus ttft and latency in fractional ms, as
// printed by Python: ±1 µs each.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.EitherRounding(1_000))
}
