package jsonl

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones. The mapping names the fields but not the writer's precision, so
// they are taken as microseconds, rounded or truncated: ±1 µs.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	return schema.SameErrors(schema.EitherRounding(1_000))
}
