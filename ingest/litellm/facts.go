package litellm

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: epoch seconds as Python floats or ISO dates with microseconds,
// ±1 µs each.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.EitherRounding(1_000))
}
