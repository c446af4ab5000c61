package haproxy

import (
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// TimingNote says why a successful line may be in no latency figure: its
// end is start + Ta, so a line has none when Ta is -1 or logged before the
// response ended ("+Ta", option logasap), and no instant after the start
// unless Tr is set too.
func (Format) TimingNote(decode.Options) schema.TimingNote {
	return schema.TimingNote{Lack: "their timers give no instant after the start (Ta is -1 or logged early as `+Ta`, and Tr is -1)",
		Fix: "log with `option httplog` and without `option logasap`"}
}
