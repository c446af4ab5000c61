package haproxy

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: the request date is truncated to the ms, and end = date + Ta, a
// duration truncated to the ms: start within [−1 ms, 0], first token and
// end within [−2 ms, 0]. Truncated instants read early: analysis de-biases
// them by half their range.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	ms := schema.Truncated(1_000_000)
	return schema.InstantErrors{Start: ms, First: ms.Plus(ms), End: ms.Plus(ms)}
}
