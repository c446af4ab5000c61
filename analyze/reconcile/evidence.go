package reconcile

import (
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Bits of the per-run fields of an input (schema.InputStats.PerRunFields):
// fields its format sets once per run, so weak evidence for a join.
const (
	perRunEndpoint uint8 = 1 << iota
	perRunModel
)

// inputPerRun returns, per code of c.InputFile, the bits of the fields the
// input's format sets per run rather than per request. Two inputs of one
// path combine their bits; a row whose input is not in inputs has none.
func inputPerRun(c *dataset.Columns, inputs []schema.InputStats) []uint8 {
	byPath := map[string]uint8{}
	for _, in := range inputs {
		for _, f := range in.PerRunFields {
			switch f {
			case "endpoint":
				byPath[in.Path] |= perRunEndpoint
			case "model":
				byPath[in.Path] |= perRunModel
			}
		}
	}
	out := make([]uint8, len(c.InputFile.Values))
	for code, path := range c.InputFile.Values {
		out[code] = byPath[path]
	}
	return out
}
