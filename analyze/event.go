package analyze

import (
	"slices"

	"github.com/ttftrace/ttftrace/analyze/reconcile"
	"github.com/ttftrace/ttftrace/dataset"
)

// event is row i of a Columns: one request as one observer saw it. It is
// two words, made where needed, never stored per request.
type event struct {
	c *dataset.Columns
	i int
}

func (e event) source() string     { return e.c.Source.At(e.i) }
func (e event) format() string     { return e.c.Format.At(e.i) }
func (e event) host() string       { return e.c.Host.At(e.i) }
func (e event) clock() string      { return e.c.Clock.At(e.i) }
func (e event) model() string      { return e.c.Model.At(e.i) }
func (e event) endpoint() string   { return e.c.Endpoint.At(e.i) }
func (e event) errorClass() string { return e.c.Error.At(e.i) }

// status returns the HTTP status, and false when it was not logged.
func (e event) status() (int32, bool) { return e.c.Status.Get(e.i) }

// completed returns whether the stream's end was seen, and false when unknown.
func (e event) completed() (bool, bool) { return e.c.Completed.Get(e.i) }

func (e event) promptTokens() (int64, bool) { return e.c.PromptTokens.Get(e.i) }
func (e event) outputTokens() (int64, bool) { return e.c.OutputTokens.Get(e.i) }

// at returns the instant or duration of column col, ns.
func (e event) at(col *dataset.ColumnsNullable[int64]) instant {
	v, ok := col.Get(e.i)
	return instant{v, ok}
}

// chunkOffsets returns the chunks' arrivals, ns after start.
func (e event) chunkOffsets() dataset.ChunkOffsets { return e.c.ChunkOffsetsNs.At(e.i) }

// chunkTokensList returns the tokens each chunk carried, empty when unknown.
func (e event) chunkTokensList() []int32 { return e.c.ChunkTokensAt(e.i) }

// text returns row i's id of a text column ("" when not kept).
func (e event) text(col *dataset.ColumnsList[byte]) string { return string(col.At(e.i)) }

// ColumnsOptions are the options analysis with opts reads Columns with:
// what reconciliation needs (reconcile.ColumnsOptions: normalized join
// keys, the client's ids as text) and the attributes opts.By names.
func ColumnsOptions(opts Options) dataset.ColumnsOptions {
	co := reconcile.ColumnsOptions()
	for _, keys := range opts.By {
		for _, k := range keys {
			if !slices.Contains(builtinKeys, k) && !slices.Contains(co.Attrs, k) {
				co.Attrs = append(co.Attrs, k)
			}
		}
	}
	return co
}
