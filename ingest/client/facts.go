package client

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: start is an RFC 3339 time whose writer prints microseconds (rounded
// or truncated), first token and end are start plus fractional ms offsets:
// ±1 µs each.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.EitherRounding(1_000))
}
