package triton

import (
	"math/bits"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// tritonHeld is a decode.Sink that keeps the skips and rejects reported to it
// until flush; it takes no events. Each array element reports at most once,
// so both lists are in line order.
type tritonHeld struct {
	merged []uint64           // bit line%64 of word line/64: a "trace entry merged" skip
	others []tritonHeldReport // the rest
}

// tritonHeldReport is one skip (skip true) or reject.
type tritonHeldReport struct {
	line           int64
	reason, detail string
	skip           bool
}

func (h *tritonHeld) Event(int64, []byte, *schema.Event) { panic("triton: event held") }
func (h *tritonHeld) Skip(line int64, reason string) {
	if reason == "trace entry merged" {
		for int(line/64) >= len(h.merged) {
			h.merged = append(h.merged, 0)
		}
		h.merged[line/64] |= 1 << (line % 64)
		return
	}
	h.others = append(h.others, tritonHeldReport{line, reason, "", true})
}
func (h *tritonHeld) Reject(line int64, reason, detail string) {
	h.others = append(h.others, tritonHeldReport{line, reason, detail, false})
}

// flush reports what h holds to sink, in line order.
func (h *tritonHeld) flush(sink decode.Sink) {
	var from int64
	for _, r := range h.others {
		from = h.flushMerged(sink, from, r.line)
		if r.skip {
			sink.Skip(r.line, r.reason)
		} else {
			sink.Reject(r.line, r.reason, r.detail)
		}
	}
	h.flushMerged(sink, from, int64(len(h.merged))*64)
}

// flushMerged reports the merged skips of lines from ≤ line < to and
// returns to.
func (h *tritonHeld) flushMerged(sink decode.Sink, from, to int64) int64 {
	for w := from / 64; w < int64(len(h.merged)) && w*64 < to; w++ {
		word := h.merged[w]
		if w == from/64 {
			word &^= 1<<(from%64) - 1
		}
		for word != 0 {
			line := w*64 + int64(bits.TrailingZeros64(word))
			if line >= to {
				return to
			}
			sink.Skip(line, "trace entry merged")
			word &= word - 1
		}
	}
	return to
}
