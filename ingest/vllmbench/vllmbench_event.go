package vllmbench

import (
	"math"
	"strconv"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The event of one vllm-bench request, built by the same code for both
// routes from the number texts each route found (vbenchReq).

// vbenchRun holds the run-level values every request's event carries, and
// the scratch its events are built in.
type vbenchRun struct {
	model, backend, label string
	stream                bool  // the document has itls
	origin                int64 // the earliest start time (ns)
	ev                    schema.Event
	vals                  []vbenchVals      // slab the events' pointer fields point into
	offs                  []int64           // the event's chunk offsets, reused
	attrMap               map[string]string // the event's Attrs, reused
	idx                   decode.DecimalTexts
}

// vbenchVals holds the values an event points to, so that one event's
// pointer fields take one allocation (amortized over a slab) instead of
// one each.
type vbenchVals struct {
	start, first, last, end, prompt, output int64
	status                                  int32
	stream, completed                       bool
}

// newVals returns zeroed values for one event, cut from the slab.
func (r *vbenchRun) newVals() *vbenchVals {
	if len(r.vals) == 0 {
		r.vals = make([]vbenchVals, 256)
	}
	v := &r.vals[0]
	r.vals = r.vals[1:]
	return v
}

// newOffsets returns a slice of n offsets for one event: the run's one
// buffer, which the sink copies (decode.Sink's contract lets formats reuse slices).
func (r *vbenchRun) newOffsets(n int) []int64 {
	if cap(r.offs) < n {
		r.offs = make([]int64, max(64, n))
	}
	return r.offs[:n:n]
}

// vbenchReq holds the values of one request as number texts (nil: missing
// or null); run.emit builds the event from it.
type vbenchReq struct {
	start, ttft, latency, input, output []byte
	itlNs                               []int64 // the itls in ns, < 0 for one to reject
	itlArr                              []byte  // the array itlNs was read from; nil when none
	err                                 string  // the error text, "" on success
}

// emit reports request i: its event, or a reject when one of its values is
// missing or not a number. raw is scratch for the record's canonical text.
func (r *vbenchRun) emit(in *decode.Input, sink decode.Sink, i int, req *vbenchReq, raw []byte) []byte {
	line := int64(i + 1)
	ev, reason, detail := r.request(in, req, i)
	if reason != "" {
		sink.Reject(decode.Pos{Line: line}, reason, detail) // an index: no column
		return raw
	}
	ev.InputLine = line
	raw = vbenchRaw(raw[:0], i, req)
	sink.Event(line, raw, ev)
	return raw
}

// request builds the event of request i; it returns a reject reason and
// detail when one of its values is missing or not a number.
func (r *vbenchRun) request(in *decode.Input, req *vbenchReq, i int) (*schema.Event, string, string) {
	var start int64
	if req.start != nil {
		ns, ok := vbenchNs(req.start)
		if !ok {
			return nil, "bad number", "start_times: " + decode.TruncateDetail(string(req.start))
		}
		start = ns - r.origin
	}
	var prompt int64
	if req.input != nil {
		n, ok := vbenchCount(req.input)
		if !ok {
			return nil, "bad token count", "input_lens: " + decode.TruncateDetail(string(req.input))
		}
		prompt = n
	}
	ev, v := &r.ev, r.newVals()
	*ev = schema.Event{
		Source: schema.SourceClient, Format: "vllm-bench", Host: in.Host, Clock: schema.ClockRelative,
		Model: r.model, InputFile: in.Name, Attrs: r.attrs(i),
	}
	if r.stream {
		v.stream, ev.Stream = true, &v.stream
	}
	v.start, ev.StartNs = start, &v.start
	if req.input != nil {
		v.prompt, ev.PromptTokens, ev.PromptTokensSource = prompt, &v.prompt, vbenchTokenSource(r.backend)
	}
	if req.err != "" {
		ev.Completed, ev.PromptTokensSource = &v.completed, schema.TokensCounted
		ev.Error, ev.Status = vbenchErrorClass(req.err)
		return ev, "", ""
	}
	if reason, detail := r.times(ev, v, req, i); reason != "" {
		return nil, reason, detail
	}
	if req.output != nil {
		n, ok := vbenchCount(req.output)
		if !ok {
			return nil, "bad token count", "output_lens: " + decode.TruncateDetail(string(req.output))
		}
		v.output, ev.OutputTokens, ev.OutputTokensSource = n, &v.output, vbenchTokenSource(r.backend)
	}
	v.status, v.completed = 200, true
	ev.Status, ev.Completed = &v.status, &v.completed
	return ev, "", ""
}

// attrs returns the attributes of request i's event: the run's one map,
// which the sink copies (decode.Sink's contract lets formats reuse it), with only
// request_index changing between requests.
func (r *vbenchRun) attrs(i int) map[string]string {
	if r.attrMap == nil {
		r.attrMap = make(map[string]string, 3)
		if r.backend != "" {
			r.attrMap["backend"] = r.backend
		}
		if r.label != "" {
			r.attrMap["label"] = r.label
		}
	}
	r.attrMap["request_index"] = r.idx.Get(i, math.MaxInt, func(j int) int64 { return int64(j) }) // texts ahead cost little
	return r.attrMap
}

// times sets the first token, chunk offsets, last token and end of a
// successful request i that started at v.start (ns on the relative clock).
func (r *vbenchRun) times(ev *schema.Event, v *vbenchVals, req *vbenchReq, i int) (string, string) {
	if req.ttft == nil {
		return "missing ttft", "ttfts[" + strconv.Itoa(i) + "]"
	}
	ttft, ok := vbenchNs(req.ttft)
	if !ok || ttft < 0 {
		return "bad number", "ttfts: " + decode.TruncateDetail(string(req.ttft))
	}
	offsets, reason, detail := r.offsets(req, ttft)
	if reason != "" {
		return reason, detail
	}
	last := offsets[len(offsets)-1]
	if req.latency != nil {
		lat, ok := vbenchNs(req.latency)
		if !ok || lat < 0 {
			return "bad number", "latencies: " + decode.TruncateDetail(string(req.latency))
		}
		last = lat
	}
	v.first, v.last, v.end = v.start+ttft, v.start+last, v.start+last
	ev.FirstTokenNs, ev.LastTokenNs, ev.EndNs = &v.first, &v.last, &v.end
	ev.ChunkOffsetsNs = offsets
	return "", ""
}

// offsets returns the chunk offsets of a request whose first token came
// ttft ns after its start: ttft, then each itl added; or a reject reason
// and detail for the first itl that is null, negative or not a number.
func (r *vbenchRun) offsets(req *vbenchReq, ttft int64) ([]int64, string, string) {
	offsets := r.newOffsets(1 + len(req.itlNs))
	offsets[0] = ttft
	for k, ns := range req.itlNs {
		if ns < 0 {
			return nil, "bad number", vbenchITLDetail(vbenchArrayElem(req.itlArr, k))
		}
		offsets[k+1] = offsets[k] + ns
	}
	return offsets, "", ""
}

// vbenchITLDetail is the reject detail of the itl text g (nil: null).
func vbenchITLDetail(g []byte) string {
	if g == nil {
		return "itls: null"
	}
	return "itls: " + decode.TruncateDetail(string(g))
}

// vbenchNs converts a number text in seconds to ns as textscan.ScaledDecimalNs
// does: the usual shape -?(0|[1-9][0-9]{0,8})(\.[0-9]+)? is read in place,
// rounding half away from zero at the tenth fraction digit; anything else
// goes to textscan.ScaledDecimalBytesNs.
func vbenchNs(b []byte) (int64, bool) {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i = 1
	}
	var sec, frac int64
	j := i
	for ; j < len(b) && j-i <= 9 && b[j] >= '0' && b[j] <= '9'; j++ {
		sec = sec*10 + int64(b[j]-'0')
	}
	if j == i || j-i > 9 || j-i > 1 && b[i] == '0' || len(b) > 64 {
		return vbenchNsSlow(b)
	}
	if j < len(b) {
		if b[j] != '.' || j+1 == len(b) {
			return vbenchNsSlow(b)
		}
		k := j + 1
		for ; k < len(b) && k-j <= 9 && b[k] >= '0' && b[k] <= '9'; k++ {
			frac = frac*10 + int64(b[k]-'0')
		}
		frac *= vbenchPow10[10-(k-j)]
		if k < len(b) && k-j == 10 && b[k] >= '5' && b[k] <= '9' {
			frac++
		}
		for ; k < len(b); k++ {
			if b[k] < '0' || b[k] > '9' {
				return vbenchNsSlow(b)
			}
		}
	}
	v := sec*1e9 + frac
	if i == 1 {
		v = -v
	}
	return v, true
}

// vbenchPow10 holds 10⁰ … 10⁹.
var vbenchPow10 = [10]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// vbenchNsSlow is vbenchNs for the other shapes.
func vbenchNsSlow(b []byte) (int64, bool) {
	if len(b) > 64 { // scaledDecimalToNs's limit, which scaledDecimalBytesNs does not apply
		return textscan.ScaledDecimalNs(string(b), 1e9)
	}
	return textscan.ScaledDecimalBytesNs(b, 1e9)
}

// vbenchCount reads a token count as json.Number.Int64 does; ok is false
// for a count that is not a non-negative int64.
func vbenchCount(b []byte) (int64, bool) {
	if v, end, ok := jsonwalk.StrictInt(b, 0); ok && end == len(b) {
		return v, v >= 0
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	return v, err == nil && v >= 0
}
