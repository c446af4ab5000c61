package jsonl

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// TimingNote says why a successful record may be in no latency figure:
// the mapping (opts.Map, whose start is required) names no later instant,
// or the record has no value for the mapped fields.
func (Format) TimingNote(decode.Options) schema.TimingNote {
	return schema.TimingNote{Lack: "they have no start instant or no instant after it",
		Fix: "map an instant after the start in `--map` (end, first_token, headers or last_token) and check the records hold the mapped fields"}
}
