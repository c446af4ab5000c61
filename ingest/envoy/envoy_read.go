package envoy

import (
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The Envoy reader, for text lines (envoy_text.go) and JSON records
// (envoy_json.go). Each operator is compiled once into an envoyOpPlan,
// values stay slices of the line (or of the JSON record, unescaped into a
// scratch buffer when needed), and emit reads them in the order of the
// format (text) or of the sorted keys (JSON). The event is reused from
// entry to entry: the sink copies it.

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

// envoyOpPlan is an operator compiled for reading.
type envoyOpPlan struct {
	op    envoyOp
	code  envoyCode
	attr  string // ecAttr: the attribute; ecCommon: the attribute of a point the event has no field for
	point int    // ecCommon: the envoyDurs index of the point, -1 when it goes to attr
	scale int    // ecCommon: the decimal scale; -1 when the argument is bad (a reject)
	bad   string // ecCommon with scale -1: the reject detail
}

// envoyAttrOps are the operators that give an attribute, by NAME(ARG).
var envoyAttrOps = map[string]string{
	"REQ(:METHOD)": "method", "REQ(:AUTHORITY)": "authority",
	"RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)": "upstream_service_time_ms", "REQUEST_DURATION()": "request_duration_ms",
	"UPSTREAM_HOST()": "upstream_host", "UPSTREAM_CLUSTER()": "upstream_cluster", "UPSTREAM_CLUSTER_RAW()": "upstream_cluster",
	"ROUTE_NAME()": "route",
}

// envoyFieldCodes are the other operators the event reads, by NAME(ARG).
var envoyFieldCodes = map[string]envoyCode{
	"REQ(X-REQUEST-ID)": ecRequestID, "REQ(TRACEPARENT)": ecTraceparent,
	"TRACE_ID()": ecTraceID, "REQ(X-B3-TRACEID)": ecTraceID,
	"REQ(X-ENVOY-ORIGINAL-PATH?:PATH)": ecPath, "REQ(:PATH)": ecPath, "REQ(X-ENVOY-ORIGINAL-PATH)": ecPath,
	"GENAI(gen_ai.request.model)": ecModel, "GENAI(gen_ai.response.model)": ecRespModel,
	"GENAI(gen_ai.usage.input_tokens)": ecInTokens, "GENAI(gen_ai.usage.output_tokens)": ecOutTokens,
}

// compileEnvoyOp compiles op: what its value gives the event.
func compileEnvoyOp(op envoyOp) *envoyOpPlan {
	f := &envoyOpPlan{op: op, point: -1}
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

// compileCommon reads %COMMON_DURATION(START:END:PRECISION)%'s argument:
// DS_RX_BEG to US_RX_BEG, US_RX_BODY_BEG and DS_TX_END are the event's
// headers, first token and end; other points go to an attribute
// (start_to_end_ns). A bad argument makes a non-empty value a reject.
func (f *envoyOpPlan) compileCommon() {
	parts := strings.Split(f.op.arg, ":")
	f.scale = -1
	if len(parts) != 3 {
		f.bad = "COMMON_DURATION(" + f.op.arg + ")"
		return
	}
	switch parts[2] {
	case "ms":
		f.scale = 6
	case "us":
		f.scale = 3
	case "ns":
		f.scale = 0
	default:
		f.bad = "COMMON_DURATION precision " + parts[2]
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

// envoyOpValue is the value an entry gives one operator ("-" already
// made empty); it points into the line, the record or the scratch buffer.
type envoyOpValue struct {
	op  *envoyOpPlan
	val []byte
}

// envoyReader is the reader's state for one input, shared by text and JSON.
type envoyReader struct {
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte
	arena   decode.ValueArena
	strs    decode.InternTable
	idStrs  decode.StringBlock
	hour    textscan.RFC3339Hour
	maps    decode.AttrMaps
	// missing, when set, gives the reject reason and detail of the entry
	// raw that has no start, saying why.
	missing func(raw []byte) (string, string)
	bad     []byte // the value start or fields refused, nil when none
}

// rejectAt returns the position of a reject of the entry raw, which starts
// at column 1 of line: the value refused when it was read in place from
// raw, else raw's start.
func (d *envoyReader) rejectAt(line int64, raw []byte) decode.Pos {
	return decode.AtOffset(line, 1, raw, int(decode.ColIn(raw, d.bad))-1)
}

// envoyMissingStart is the reason of an entry without a start instant.
const envoyMissingStart = "missing start time"

// envoyDurs are the durations of an entry in ns after start, by ed* index.
type envoyDurs struct {
	ns  [edCount]int64
	set [edCount]bool
}

// emit decodes one entry from vals, in the order of the format or of the
// sorted JSON keys, and reports it to sink: an event, a skip (an
// intermediate entry) or a reject.
func (d *envoyReader) emit(in *decode.Input, sink decode.Sink, line int64, raw []byte, vals []envoyOpValue) {
	d.bad = nil
	start, logType, reason, detail := d.start(vals)
	switch {
	case logType != nil:
		d.scratch = append(append(append(d.scratch[:0], "intermediate access log entry ("...), logType...), ')')
		sink.Skip(line, d.strs.Get(d.scratch))
		return
	case reason == envoyMissingStart && d.missing != nil:
		reason, detail = d.missing(raw)
		fallthrough
	case reason != "":
		sink.Reject(d.rejectAt(line, raw), reason, decode.TruncateDetail(detail))
		return
	}
	d.clearEvent(in, line)
	d.ev.StartNs = d.arena.Int64(start)
	d.attrs = d.attrs[:0]
	if reason, detail := d.fields(vals, start); reason != "" {
		sink.Reject(d.rejectAt(line, raw), reason, decode.TruncateDetail(detail))
		return
	}
	d.ev.Attrs = d.maps.Get(d.attrs)
	sink.Event(line, raw, &d.ev)
}

// clearEvent readies d.ev for the entry on line n: the fields build sets
// are cleared (the others stay zero), the input's fields set. The sink
// copies the event it is given, so d.ev is reused.
func (d *envoyReader) clearEvent(in *decode.Input, n int64) {
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

// start is the first pass over an entry: the start instant (the last
// START_TIME given), the %ACCESS_LOG_TYPE% of an intermediate entry, or
// the reject reason of a bad or missing start, whichever comes first.
func (d *envoyReader) start(vals []envoyOpValue) (start int64, intermediate []byte, reason, detail string) {
	ok := false
	for i := range vals {
		v := &vals[i]
		if v.op.code == ecStart && len(v.val) > 0 {
			ns, err := d.startNs(v.val, v.op.op.arg)
			if err != nil {
				d.bad = v.val
				return 0, nil, textscan.TimeReason(err, "bad timestamp"), string(v.val)
			}
			start, ok = ns, true
		}
		if v.op.code == ecLogType && !envoyFinalLogType(string(v.val)) {
			return 0, v.val, "", ""
		}
	}
	if !ok {
		return 0, nil, envoyMissingStart, "no %START_TIME% value"
	}
	return start, nil, "", ""
}

// startNs reads a %START_TIME% value: with no layout RFC 3339 (an hour of
// lines read in place, textscan.RFC3339Hour, others by time.Parse), else
// the operator's strftime layout (envoyStartTime).
func (d *envoyReader) startNs(val []byte, layout string) (int64, error) {
	if layout == "" {
		if ns, ok := d.hour.Ns(val); ok {
			return ns, nil
		}
		return textscan.ParseNs(time.RFC3339Nano, string(val), time.UTC)
	}
	return envoyStartTime(string(val), layout)
}

// fields is the second pass over an entry: every value the event reads,
// then the instants and the error class. It returns the reject reason and
// detail of the first bad value.
func (d *envoyReader) fields(vals []envoyOpValue, start int64) (string, string) {
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
		d.bad = v.val // what a reject below refuses
		switch op.code {
		case ecDuration, ecRespDuration, ecRespTx:
			if !durs.ms(int(op.code-ecDuration), v.val) {
				return "bad duration", op.op.name + "=" + string(v.val)
			}
		case ecCommon:
			if reason, detail := d.common(&durs, op, v.val); reason != "" {
				return reason, detail
			}
		case ecCode:
			code, ok = textscan.DecimalScaledBytes(v.val, 0)
			if ok = ok && code >= 0 && code <= 999; !ok {
				return "bad status", string(v.val)
			} else if code > 0 {
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
	}
	d.instants(&durs, start)
	if len(path) > 0 {
		ev.Endpoint = d.strs.Get(path)
	}
	d.ids(rid, &tid)
	d.classify(flags, code == 0)
	return "", ""
}
