package ingest

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// fitsLogFormat reports whether the complete lines of head read as request
// records under the --log-format given for f: at least one record, and at
// least as many records as lines rejected. chooseFormat asks it only when
// no Sniff claims head.
func fitsLogFormat(f Format, logFormat string, head []byte) bool {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && len(head) == SniffSize {
		head = head[:i+1] // the last line may be cut at SniffSize
	}
	var c sniffCount
	in := &decode.Input{R: bytes.NewReader(head), Name: "sniff", Opts: decode.Options{LogFormat: logFormat}}
	if err := safeDecode(f, in, &c); err != nil {
		return false
	}
	return c.events > 0 && c.events >= c.rejects
}

// sniffCount counts what a trial decode reports.
type sniffCount struct{ events, rejects int }

func (c *sniffCount) Event(int64, []byte, *schema.Event) { c.events++ }
func (c *sniffCount) Skip(int64, string)                 {}
func (c *sniffCount) Reject(decode.Pos, string, string)  { c.rejects++ }
