package envoy

import (
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the Envoy decoder, for text lines (envoy_fast_text.go)
// and JSON records (envoy_fast_json.go). Profiling the general route on the
// fleet's edge-2 JSON log showed encoding/json validating each line twice
// (json.Valid, then Unmarshal into a map of json.RawMessage), a third of
// the time in allocation (the map, its keys and values, the sorted key list,
// a string per value, operator names concatenated per value, a map of flag
// ranks per record); text lines spent theirs copying the line to a string,
// building the value list and in the same per-value work. Here each
// operator is compiled once into an envoyFastOp, values stay slices of the
// line (or of the JSON record, unescaped into a scratch buffer when needed),
// and build reads them in the general route's order with its rules.
// Whatever the general route would reject, and values the fast path does not
// read the same way, go to the general route (envoyEmit), so both give the
// same events, skips and rejects (TestEnvoyFastMatchesGeneral, FuzzEnvoy*).

// envoyCode says what build does with an operator's value.
type envoyCode uint8

const (
	ecIgnore envoyCode = iota
	ecStart
	ecLogType
	ecDuration
	ecRespDuration
	ecRespTx
	ecCommon
	ecCode
	ecFlags
	ecRequestID
	ecTraceparent
	ecTraceID
	ecPath
	ecAttr
	ecModel
	ecRespModel
	ecInTokens
	ecOutTokens
)

// The durations build collects, as indexes into envoyDurs.
const (
	edDuration = iota
	edRespDuration
	edRespTx
	edHeaders
	edFirstByte
	edEnd
	edCount
)

// envoyFastOp is an operator compiled for the fast path.
type envoyFastOp struct {
	op    envoyOp
	code  envoyCode
	attr  string // ecAttr: the attribute; ecCommon: the attribute of a point the event has no field for
	point int    // ecCommon: the envoyDurs index of the point, -1 when it goes to attr
	scale int    // ecCommon: the decimal scale; -1 when the argument is bad (a reject)
}

// envoyAttrOps are the operators that give an attribute, by envoySetField's keys.
var envoyAttrOps = map[string]string{
	"REQ(:METHOD)": "method", "REQ(:AUTHORITY)": "authority",
	"RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)": "upstream_service_time_ms", "REQUEST_DURATION()": "request_duration_ms",
	"UPSTREAM_HOST()": "upstream_host", "UPSTREAM_CLUSTER()": "upstream_cluster", "UPSTREAM_CLUSTER_RAW()": "upstream_cluster",
	"ROUTE_NAME()": "route",
}

// envoyFieldCodes are envoySetField's other keys.
var envoyFieldCodes = map[string]envoyCode{
	"REQ(X-REQUEST-ID)": ecRequestID, "REQ(TRACEPARENT)": ecTraceparent,
	"TRACE_ID()": ecTraceID, "REQ(X-B3-TRACEID)": ecTraceID,
	"REQ(X-ENVOY-ORIGINAL-PATH?:PATH)": ecPath, "REQ(:PATH)": ecPath, "REQ(X-ENVOY-ORIGINAL-PATH)": ecPath,
	"GENAI(gen_ai.request.model)": ecModel, "GENAI(gen_ai.response.model)": ecRespModel,
	"GENAI(gen_ai.usage.input_tokens)": ecInTokens, "GENAI(gen_ai.usage.output_tokens)": ecOutTokens,
}

// compileEnvoyOp compiles op by the switches of envoyEvent, set, common
// and envoySetField.
func compileEnvoyOp(op envoyOp) *envoyFastOp {
	f := &envoyFastOp{op: op, point: -1}
	switch op.name {
	case "START_TIME":
		f.code = ecStart
	case "ACCESS_LOG_TYPE":
		f.code = ecLogType
	case "DURATION":
		f.code = ecDuration
	case "RESPONSE_DURATION":
		f.code = ecRespDuration
	case "RESPONSE_TX_DURATION":
		f.code = ecRespTx
	case "COMMON_DURATION":
		f.code = ecCommon
		f.compileCommon()
	case "RESPONSE_CODE":
		f.code = ecCode
	case "RESPONSE_FLAGS", "RESPONSE_FLAGS_LONG":
		f.code = ecFlags
	default:
		key := op.name + "(" + op.arg + ")"
		if a, ok := envoyAttrOps[key]; ok {
			f.code, f.attr = ecAttr, a
		} else {
			f.code = envoyFieldCodes[key]
		}
	}
	return f
}

// compileCommon reads %COMMON_DURATION(START:END:PRECISION)%'s argument as
// envoyDurations.common does.
func (f *envoyFastOp) compileCommon() {
	parts := strings.Split(f.op.arg, ":")
	f.scale = -1
	if len(parts) != 3 {
		return
	}
	switch parts[2] {
	case "ms":
		f.scale = 6
	case "us":
		f.scale = 3
	case "ns":
		f.scale = 0
	}
	if parts[0] == "DS_RX_BEG" {
		switch parts[1] {
		case "US_RX_BEG":
			f.point = edHeaders
		case "US_RX_BODY_BEG":
			f.point = edFirstByte
		case "DS_TX_END":
			f.point = edEnd
		}
	}
	f.attr = strings.ToLower(parts[0]+"_to_"+parts[1]) + "_ns"
}

// envoyFastValue is the value an entry gives one operator ("-" already
// made empty); it points into the line, the record or the scratch buffer.
type envoyFastValue struct {
	op  *envoyFastOp
	val []byte
}

// envoyFast is the fast path's state for one input.
type envoyFast struct {
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte
	arena   decode.ValueArena
	strs    decode.InternTable
	idStrs  decode.StringBlock
	hour    textscan.RFC3339Hour
	maps    decode.AttrMaps
}

// envoyDurs are the durations of an entry in ns after start, by ed* index.
type envoyDurs struct {
	ns  [edCount]int64
	set [edCount]bool
}

// emit decodes one entry from vals, in the general route's order, and
// reports it to sink; it reports false, having told sink nothing, when the
// general route must decide (the entry is a reject).
func (d *envoyFast) emit(in *decode.Input, sink decode.Sink, line int64, raw []byte, vals []envoyFastValue) bool {
	start, logType, ok := d.start(vals)
	switch {
	case logType != nil:
		d.scratch = append(append(append(d.scratch[:0], "intermediate access log entry ("...), logType...), ')')
		sink.Skip(line, d.strs.Get(d.scratch))
		return true
	case !ok:
		return false
	}
	d.clearEvent(in, line)
	d.ev.StartNs = d.arena.Int64(start)
	d.attrs = d.attrs[:0]
	if !d.fields(vals, start) {
		return false
	}
	d.ev.Attrs = d.maps.Get(d.attrs)
	sink.Event(line, raw, &d.ev)
	return true
}

// clearEvent readies d.ev for the entry on line n: the fields build sets
// are cleared (the others stay zero), the input's fields set. The sink
// copies the event it is given, so d.ev is reused.
func (d *envoyFast) clearEvent(in *decode.Input, n int64) {
	ev := &d.ev
	if ev.Format == "" {
		*ev = schema.Event{Source: schema.SourceProxy, Format: "envoy", Clock: schema.ClockWall}
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	ev.RequestID, ev.TraceID, ev.Model, ev.Endpoint, ev.Error = "", "", "", "", ""
	ev.Status, ev.Completed, ev.Attrs = nil, nil, nil
	ev.PromptTokens, ev.PromptTokensSource, ev.OutputTokens, ev.OutputTokensSource = nil, "", nil, ""
	ev.StartNs, ev.HeadersNs, ev.FirstTokenNs, ev.EndNs = nil, nil, nil, nil
}

// start is envoyEvent's first pass: the start instant (the last
// START_TIME given), or the %ACCESS_LOG_TYPE% of an intermediate entry.
func (d *envoyFast) start(vals []envoyFastValue) (start int64, intermediate []byte, ok bool) {
	for i := range vals {
		v := &vals[i]
		if v.op.code == ecStart && len(v.val) > 0 {
			ns, good := d.startNs(v.val, v.op.op.arg)
			if !good {
				return 0, nil, false
			}
			start, ok = ns, true
		}
		if v.op.code == ecLogType && !envoyFinalLogType(string(v.val)) {
			return 0, v.val, false
		}
	}
	return start, nil, ok
}

// startNs is envoyStartTime for value bytes.
func (d *envoyFast) startNs(val []byte, layout string) (int64, bool) {
	if layout == "" {
		if ns, ok := d.hour.Ns(val); ok {
			return ns, true
		}
		ns, err := textscan.ParseNs(time.RFC3339Nano, string(val), time.UTC)
		return ns, err == nil
	}
	ns, err := envoyStartTime(string(val), layout)
	return ns, err == nil
}

// fields is envoyEvent's second pass, then apply and envoyClassify.
func (d *envoyFast) fields(vals []envoyFastValue, start int64) bool {
	var durs envoyDurs
	var rid, path, flags []byte
	var tid decode.TraceID
	code := int64(-1)
	ev := &d.ev
	for i := range vals {
		v := &vals[i]
		if len(v.val) == 0 {
			continue
		}
		op, ok := v.op, true
		switch op.code {
		case ecDuration, ecRespDuration, ecRespTx:
			ok = durs.ms(int(op.code-ecDuration), v.val)
		case ecCommon:
			ok = d.common(&durs, op, v.val)
		case ecCode:
			code, ok = textscan.DecimalScaledBytes(v.val, 0)
			if ok = ok && code >= 0 && code <= 999; ok && code > 0 {
				ev.Status = d.arena.Int32(int32(code))
			}
		case ecFlags:
			flags = v.val
		case ecRequestID:
			rid = v.val
		case ecTraceparent, ecTraceID:
			tid.Set(v.val, op.code == ecTraceparent)
		case ecPath:
			if len(path) == 0 {
				path = decode.EndpointPathBytes(v.val)
			}
		default:
			d.field(op, v.val)
		}
		if !ok {
			return false
		}
	}
	d.instants(&durs, start)
	if len(path) > 0 {
		ev.Endpoint = d.strs.Get(path)
	}
	d.ids(rid, &tid)
	d.classify(flags, code == 0)
	return true
}
