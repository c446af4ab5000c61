// Package triton reads Triton Inference Server trace files: the decoder is Format,
// whose doc says which instant each field marks.
package triton

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes a Triton Inference Server trace file written with
// --trace-config level=TIMESTAMPS (mode=triton, docs/user_guide/trace.md): a
// JSON array whose entries share a numeric "id" per traced request. One entry
// holds "model_name", "model_version", "request_id" and, for a model run
// inside an ensemble, "parent_id"; the others hold "timestamps"
// ([{"name", "ns"}]) or TENSORS data, in no particular order.
//
// Timestamps are nanoseconds of the server's steady (monotonic) clock, whose
// origin is arbitrary (often the boot): Clock is schema.ClockSteady, and these
// events join others only by request id. The instants, by timestamp name:
//
//	HTTP_RECV_START        HTTP request bytes start to be read          → start
//	GRPC_WAITREAD_END      gRPC request read (its start includes idle wait) → start, when no HTTP_RECV_START
//	REQUEST_START          the server's handler starts the request     → start, when neither of the above
//	QUEUE_START            request enters the scheduler's queue
//	COMPUTE_START          the backend starts executing it              (queue = COMPUTE_START − QUEUE_START)
//	COMPUTE_INPUT_END, COMPUTE_OUTPUT_START  input copy ends, output copy starts (not stored)
//	COMPUTE_END            the backend's execute ends                   (InferenceNs = COMPUTE_END − COMPUTE_START)
//	INFER_RESPONSE_COMPLETE a response is complete; a decoupled (streaming) model sends several
//	REQUEST_END            the handler releases the request             → end, when no send end
//	HTTP_SEND_END, GRPC_SEND_END  the response is sent                 → end
//
// A request with two or more INFER_RESPONSE_COMPLETE timestamps is a decoupled
// stream: the first is first_token, the last last_token, each one a chunk
// (offsets after start), PrefillNs = first_token − COMPUTE_START and DecodeNs =
// last_token − first_token. With one response there is no first-token
// instant. Status and token counts are not traced.
//
// Record accounting: every array element is one record, numbered from 1 in
// file order. The first element of each id stands for the request: it becomes
// the event (or a skip for a trace without timestamps or of a model inside an
// ensemble, whose parent trace is the request, or a reject when start or end
// is missing). Every later element of the same id is a skip "trace entry
// merged". Triton's mode=opentelemetry exports OTLP to a collector instead of
// a file; such spans are read by the otlp format. A record's "line" is that
// number, so a reject has no column (decode.Pos.Col 0).
type Format struct{}

func (Format) Name() string   { return "triton" }
func (Format) Source() string { return schema.SourceServer }
func (Format) Describe() string {
	return "Triton trace file (level=TIMESTAMPS): start, queue, compute, end on the server's steady clock; first token only for decoupled models"
}

func (Format) Sniff(head []byte) bool {
	head = bytes.TrimSpace(head)
	return bytes.HasPrefix(head, []byte("[")) && bytes.Contains(head, []byte(`"id"`)) &&
		(bytes.Contains(head, []byte(`"timestamps"`)) || bytes.Contains(head, []byte(`"model_name"`)))
}

// tritonTrace gathers the entries of one trace id.
type tritonTrace struct {
	id        int64
	line      int64
	model     string
	version   string
	requestID string
	child     bool
	bad       string        // detail of the first bad timestamp
	stamps    []tritonNamed // ns values by name, in order of first appearance
}

func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	data, err := decode.ReadAllSized(in.R, in.Size)
	if err != nil {
		return err
	}
	var r tritonReader
	return r.decode(in, data, sink)
}

// tritonReport reports an array element merged into tr (or rejected) and
// returns order with tr appended when the element is its trace's first.
func tritonReport(sink decode.Sink, order []*tritonTrace, tr *tritonTrace, line int64, reason, detail string) []*tritonTrace {
	switch {
	case reason != "":
		sink.Reject(decode.Pos{Line: line}, reason, detail)
	case tr.line != line:
		sink.Skip(line, "trace entry merged")
	default:
		order = append(order, tr)
	}
	return order
}

// first returns the earliest value of the timestamp name.
func (tr *tritonTrace) first(name string) (int64, bool) {
	if v := tr.values(name); len(v) > 0 {
		return slices.Min(v), true
	}
	return 0, false
}

// last returns the latest value of the timestamp name.
func (tr *tritonTrace) last(name string) (int64, bool) {
	if v := tr.values(name); len(v) > 0 {
		return slices.Max(v), true
	}
	return 0, false
}

// tritonFirstOf returns get(name) for the first name that has a value.
func tritonFirstOf(get func(string) (int64, bool), names ...string) (int64, bool) {
	for _, n := range names {
		if v, ok := get(n); ok {
			return v, true
		}
	}
	return 0, false
}

// tritonRaw is the canonical text of a trace (id and sorted timestamps), the
// bytes the driver compares to recognize a repeated trace: "id=7 NAME=[1 2]"
// as fmt's %v prints the sorted values. It sorts each name's values in
// place. It appends the text to b.
func tritonRaw(b []byte, tr *tritonTrace) []byte {
	var small [16]int
	return tritonRawOrdered(b, tr, tritonNameOrder(small[:0], tr))
}

// tritonNameOrder appends to idx the indexes of tr.stamps in the order of
// their names.
func tritonNameOrder(idx []int, tr *tritonTrace) []int {
	for i := range tr.stamps {
		idx = append(idx, i)
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(tr.stamps[a].name, tr.stamps[b].name) })
	return idx
}

// tritonRawOrdered is tritonRaw with the stamps' name order given.
func tritonRawOrdered(b []byte, tr *tritonTrace, idx []int) []byte {
	b = strconv.AppendInt(append(b, "id="...), tr.id, 10)
	for _, i := range idx {
		st := tr.stamps[i]
		vs := st.vals
		slices.Sort(vs)
		b = append(append(append(b, ' '), st.name...), "=["...)
		for i, v := range vs {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, v, 10)
		}
		b = append(b, ']')
	}
	return b
}
