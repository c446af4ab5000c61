package genaiperf

import (
	"encoding/binary"
	"hash/maphash"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// The document is read as a stream, but two facts every request takes come
// from elsewhere in it, in any key order: the top-level "endpoint"
// (perf_analyzer writes it after "experiments") and the experiment's
// "experiment" (a re-serializer may move it after "requests"). A request
// read before both are known is held, in order, until they are: held
// events keep their event and a 16-byte digest of their bytes (what the
// driver's duplicate check is given for every event), never the bytes
// themselves, so the document is never in memory; rejects keep their
// reason.

// gpSumSeeds seed the digests of requests' bytes; one pair per process
// so that a request repeated in two inputs gives the same digest.
var gpSumSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// gpRecord is one held record: an event, or a reject when ev is nil.
type gpRecord struct {
	index          int64
	experiment     int // index of its experiment in gpWalker.experiments
	ev             *schema.Event
	sum            [16]byte
	reason, detail string
}

// report reports request w.index's event (raw: its bytes) or, when ev is
// nil, its reject, holding it while the endpoint or its experiment is not
// known yet. Every event goes to the sink with the digest of its bytes,
// held or not, so that repeats are found alike in any key order.
func (w *gpWalker) report(ev *schema.Event, raw []byte, reason, detail string) {
	r := gpRecord{index: w.index, experiment: len(w.experiments) - 1, ev: ev, reason: reason, detail: detail}
	if ev != nil {
		binary.LittleEndian.PutUint64(r.sum[:8], maphash.Bytes(gpSumSeeds[0], raw))
		binary.LittleEndian.PutUint64(r.sum[8:], maphash.Bytes(gpSumSeeds[1], raw))
	}
	if w.endpointKnown && w.experimentKnown && len(w.held) == 0 {
		w.emit(r)
		return
	}
	w.held = append(w.held, r)
}

// release reports the held records whose facts are now known, in order.
func (w *gpWalker) release() {
	if !w.endpointKnown {
		return
	}
	n := 0
	for _, r := range w.held {
		if r.experiment == len(w.experiments)-1 && !w.experimentKnown {
			break
		}
		w.emit(r)
		n++
	}
	w.held = w.held[:copy(w.held, w.held[n:])]
}

// emit reports the record r with the facts of the document and of its
// experiment.
func (w *gpWalker) emit(r gpRecord) {
	if r.ev == nil {
		w.sink.Reject(decode.Pos{Line: r.index}, r.reason, r.detail) // an index: no column
		return
	}
	ev := r.ev
	if r.experiment >= 0 && w.experiments[r.experiment] != "" {
		ev.Attrs = map[string]string{"experiment": w.experiments[r.experiment]}
	}
	if w.endpoint != "" {
		ev.Endpoint = w.endpoint
	}
	ev.Host, ev.InputFile, ev.InputLine = w.in.Host, w.in.Name, r.index
	w.sink.Event(r.index, r.sum[:], ev)
}
