package har

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// InstantErrors says how far the logged instants may lie from the true
// ones: startedDateTime has milliseconds and the timings are ms, each
// rounded or truncated by the browser (which, the HAR spec does not say):
// start within ±1 ms, first token and end (start plus a duration) ±2 ms.
func (Format) InstantErrors(decode.Options) schema.InstantErrors {
	ms := schema.EitherRounding(1_000_000)
	return schema.InstantErrors{Start: ms, First: ms.Plus(ms), End: ms.Plus(ms)}
}
