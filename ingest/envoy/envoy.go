// Package envoy reads Envoy access logs (text or JSON): the decoder is Format,
// whose doc says which instant each field marks.
package envoy

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes Envoy access logs (proxy source): text lines written with a
// format string, or JSON objects written with a key→operator map
// (decode.Options.LogFormat holds either; empty means Envoy's default text format, or
// one of Istio's, chosen per line, and for JSON the keys Istio's JSON encoding
// and Envoy AI Gateway use). Operators and what they give, from Envoy's
// access-log documentation (configuration/observability/access_log/usage.rst):
//
//   - %START_TIME% (optionally with a strftime format): when the first byte of
//     the downstream request was received (DS_RX_BEG) → start, UTC.
//   - %DURATION%: ms from start to the last byte sent downstream → end.
//   - %RESPONSE_DURATION%: ms from start to the first byte read from the
//     upstream host, the start of its response headers → headers.
//   - %RESPONSE_TX_DURATION%: ms from that first upstream byte to the last
//     byte sent downstream → end when %DURATION% is absent.
//   - %REQUEST_DURATION%: ms from start to the last request byte received →
//     attrs["request_duration_ms"].
//   - %COMMON_DURATION(DS_RX_BEG:END:PRECISION)%: END = US_RX_BEG (first
//     upstream response byte) → headers, US_RX_BODY_BEG (first upstream
//     response body byte) → first_token, DS_TX_END (last byte sent
//     downstream) → end; other points (DS_RX_END, US_CX_BEG, US_CX_END,
//     US_HS_END, US_TX_BEG, US_TX_END, US_RX_END, DS_TX_BEG) → attrs.
//   - %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%: upstream's own processing ms as
//     the upstream reports it → attrs["upstream_service_time_ms"].
//   - %REQ(X-REQUEST-ID)% → RequestID; %TRACE_ID% and %REQ(TRACEPARENT)% →
//     TraceID; %UPSTREAM_HOST%, %UPSTREAM_CLUSTER%, %ROUTE_NAME% → attrs.
//   - %RESPONSE_CODE% → status (0: no response was sent); %RESPONSE_FLAGS%
//     (short or long names) → error class: UT, SI, DT, UMSDR timeout; DC
//     interrupted; RL rate_limited; UF, UC, URX, UH, UO, UR, LR, NC, UPE, LH,
//     RLSE server_error; DPE, IH, UAEX client_error.
//   - %ACCESS_LOG_TYPE%: only the final entry of a stream (DownstreamEnd,
//     UpstreamEnd, TcpConnectionEnd, UdpSessionEnd, NotSet) is a record;
//     start and periodic entries are skips.
//
// JSON keys gen_ai.request.model and gen_ai.usage.input_tokens /
// output_tokens (Envoy AI Gateway) give the model and usage tokens.
type Format struct{}

func (Format) Name() string   { return "envoy" }
func (Format) Source() string { return schema.SourceProxy }
func (Format) Describe() string {
	return "Envoy/Istio access log (text format string or JSON map): start, time to upstream headers, first upstream body byte (COMMON_DURATION), end, ids; no token times"
}

// envoyDefaultFormat is Envoy's default access-log format string.
const envoyDefaultFormat = `[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"` + "\n"

// envoyIstioFormats are Istio's default text formats: 1.1–1.4 (Mixer
// status), 1.5–1.6 (transport failure reason, route) and 1.7+.
var envoyIstioFormats = []string{
	`[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% "%DYNAMIC_METADATA(istio.mixer:status)%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME%`,
	`[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% "%DYNAMIC_METADATA(istio.mixer:status)%" "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%`,
	`[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS% %CONNECTION_TERMINATION_DETAILS% "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER_RAW% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%`,
}

// envoyDefaultJSONMap maps the JSON keys of Istio's JSON encoding and of
// Envoy AI Gateway's example to operators, for JSON logs given no map.
var envoyDefaultJSONMap = map[string]string{
	"start_time": "%START_TIME%", "method": "%REQ(:METHOD)%", "path": "%REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%",
	"x-envoy-origin-path": "%REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%", "protocol": "%PROTOCOL%",
	"response_code": "%RESPONSE_CODE%", "response_flags": "%RESPONSE_FLAGS%", "duration": "%DURATION%",
	"upstream_service_time": "%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%", "x-envoy-upstream-service-time": "%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%",
	"request_id": "%REQ(X-REQUEST-ID)%", "x-request-id": "%REQ(X-REQUEST-ID)%", "authority": "%REQ(:AUTHORITY)%",
	":authority": "%REQ(:AUTHORITY)%", "upstream_host": "%UPSTREAM_HOST%", "upstream_cluster": "%UPSTREAM_CLUSTER%",
	"route_name": "%ROUTE_NAME%", "request_duration": "%REQUEST_DURATION%", "response_duration": "%RESPONSE_DURATION%",
	"response_tx_duration": "%RESPONSE_TX_DURATION%", "traceparent": "%REQ(TRACEPARENT)%", "trace_id": "%TRACE_ID%",
	"access_log_type": "%ACCESS_LOG_TYPE%",
}

var envoyTextHead = regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)\] "`)

// Sniff claims text lines that start like Envoy's default format and JSON
// objects carrying Envoy-only keys (response_flags, upstream_cluster,
// x-envoy-upstream-service-time) together with start_time.
func (Format) Sniff(head []byte) bool {
	line := firstNonBlankLine(head)
	if envoyTextHead.Match(line) {
		return true
	}
	t := bytes.TrimSpace(head)
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t, []byte(`"start_time"`)) {
		return false
	}
	for _, k := range []string{`"response_flags"`, `"upstream_cluster"`, `"x-envoy-upstream-service-time"`, `"upstream_service_time"`} {
		if bytes.Contains(t, []byte(k)) {
			return true
		}
	}
	return false
}

// firstNonBlankLine returns the first line of head holding anything but
// white space, trimmed.
func firstNonBlankLine(head []byte) []byte {
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte("\n"))
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t
		}
		head = rest
	}
	return nil
}

// LineRecords reports whether every access log line is a record of its
// own (text lines, or JSON lines: not a pretty-printed JSON document), so the
// driver may decode a large log in blocks.
func (Format) LineRecords(head []byte) bool {
	first := decode.FirstLine(head)
	return len(first) > 0 && (first[0] != '{' || json.Valid(first))
}

// Decode reads text lines with the given (or default) format string, or JSON
// records when decode.Options.LogFormat is a JSON object, or when no format is
// given and the input starts with '{' (then with envoyDefaultJSONMap).
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	return envoyDecode(in, sink, true)
}

// envoyEmit turns the operator values of one entry into an event, a skip or
// a reject.
func envoyEmit(in *decode.Input, sink decode.Sink, line int64, raw []byte, vals []envoyValue) {
	ev, skip, reason, detail := envoyEvent(vals)
	decode.Emit(in, sink, line, raw, decode.OnWallClock(ev, in, "envoy", schema.SourceProxy), skip, reason, detail)
}

// envoyEvent builds the event of one entry from its operator values. It
// returns a skip reason for intermediate entries, or a reject reason and
// detail for a bad one.
func envoyEvent(vals []envoyValue) (ev *schema.Event, skip, reason, detail string) {
	ev = &schema.Event{}
	var start *int64
	for _, v := range vals {
		if v.op.name == "START_TIME" && v.val != "" {
			ns, err := envoyStartTime(v.val, v.op.arg)
			if err != nil {
				return nil, "", textscan.TimeReason(err, "bad timestamp"), v.val
			}
			start = &ns
		}
		if v.op.name == "ACCESS_LOG_TYPE" && !envoyFinalLogType(v.val) {
			return nil, "intermediate access log entry (" + v.val + ")", "", ""
		}
	}
	if start == nil {
		return nil, "", "missing start time", "no %START_TIME% value"
	}
	ev.StartNs = start
	var d envoyDurations
	for _, v := range vals {
		if v.val == "" {
			continue
		}
		if r, det := d.set(ev, v); r != "" {
			return nil, "", r, det
		}
	}
	d.apply(ev, *start)
	envoyClassify(ev, d.flags, d.noResponse)
	return ev, "", "", ""
}

// envoyFinalLogType reports whether an %ACCESS_LOG_TYPE% value marks the
// last entry of a stream or connection.
func envoyFinalLogType(t string) bool {
	switch t {
	case "", "NotSet", "DownstreamEnd", "UpstreamEnd", "TcpConnectionEnd", "UdpSessionEnd":
		return true
	}
	return false
}

// envoyDurations collects the durations of an entry, in ns after start.
type envoyDurations struct {
	duration, respDur, respTx, headers, firstByte, end *int64
	flags                                              string
	noResponse                                         bool // RESPONSE_CODE 0
}

// set records one operator value; it returns a reject reason for a bad one.
func (d *envoyDurations) set(ev *schema.Event, v envoyValue) (string, string) {
	ms := func(dst **int64) (string, string) {
		ns, ok := textscan.DecimalScaled(v.val, 6)
		if !ok || ns < 0 {
			return "bad duration", v.op.name + "=" + v.val
		}
		*dst = &ns
		return "", ""
	}
	switch v.op.name {
	case "DURATION":
		return ms(&d.duration)
	case "RESPONSE_DURATION":
		return ms(&d.respDur)
	case "RESPONSE_TX_DURATION":
		return ms(&d.respTx)
	case "COMMON_DURATION":
		return d.common(ev, v)
	case "RESPONSE_CODE":
		code, ok := textscan.DecimalScaled(v.val, 0)
		if !ok || code < 0 || code > 999 {
			return "bad status", v.val
		}
		if code > 0 {
			ev.Status = decode.Ptr(int32(code))
		}
		d.noResponse = code == 0
	case "RESPONSE_FLAGS", "RESPONSE_FLAGS_LONG":
		d.flags = v.val
	default:
		envoySetField(ev, v)
	}
	return "", ""
}

// common records %COMMON_DURATION(START:END:PRECISION)%.
func (d *envoyDurations) common(ev *schema.Event, v envoyValue) (string, string) {
	parts := strings.Split(v.op.arg, ":")
	if len(parts) != 3 {
		return "bad duration", "COMMON_DURATION(" + v.op.arg + ")"
	}
	scale := map[string]int{"ms": 6, "us": 3, "ns": 0}[parts[2]]
	if parts[2] != "ms" && parts[2] != "us" && parts[2] != "ns" {
		return "bad duration", "COMMON_DURATION precision " + parts[2]
	}
	ns, ok := textscan.DecimalScaled(v.val, scale)
	if !ok {
		return "bad duration", "COMMON_DURATION(" + v.op.arg + ")=" + v.val
	}
	if parts[0] == "DS_RX_BEG" && ns >= 0 {
		switch parts[1] {
		case "US_RX_BEG":
			d.headers = &ns
			return "", ""
		case "US_RX_BODY_BEG":
			d.firstByte = &ns
			return "", ""
		case "DS_TX_END":
			d.end = &ns
			return "", ""
		}
	}
	decode.SetAttr(ev, strings.ToLower(parts[0]+"_to_"+parts[1])+"_ns", strconv.FormatInt(ns, 10))
	return "", ""
}

// apply places the collected durations on the start instant.
func (d *envoyDurations) apply(ev *schema.Event, start int64) {
	at := func(off *int64) *int64 {
		if off == nil {
			return nil
		}
		return decode.Ptr(start + *off)
	}
	ev.HeadersNs = at(decode.FirstSet(d.headers, d.respDur))
	ev.FirstTokenNs = at(d.firstByte)
	end := decode.FirstSet(d.end, d.duration)
	if end == nil && d.respDur != nil && d.respTx != nil {
		end = decode.Ptr(*d.respDur + *d.respTx)
	}
	ev.EndNs = at(end)
}

// envoySetField records the ids, endpoint, model, tokens and attributes.
func envoySetField(ev *schema.Event, v envoyValue) {
	switch v.op.name + "(" + v.op.arg + ")" {
	case "REQ(X-REQUEST-ID)":
		ev.RequestID = v.val
	case "REQ(TRACEPARENT)":
		if id := decode.TraceIDFromTraceparent(v.val); id != "" {
			ev.TraceID = id
		}
	case "TRACE_ID()", "REQ(X-B3-TRACEID)":
		if id := decode.NormalizeTraceID(v.val); id != "" && ev.TraceID == "" {
			ev.TraceID = id
		}
	case "REQ(X-ENVOY-ORIGINAL-PATH?:PATH)", "REQ(:PATH)", "REQ(X-ENVOY-ORIGINAL-PATH)":
		if ev.Endpoint == "" {
			ev.Endpoint = decode.EndpointPath(v.val)
		}
	case "REQ(:METHOD)":
		decode.SetAttr(ev, "method", v.val)
	case "REQ(:AUTHORITY)":
		decode.SetAttr(ev, "authority", v.val)
	case "RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)":
		decode.SetAttr(ev, "upstream_service_time_ms", v.val)
	case "REQUEST_DURATION()":
		decode.SetAttr(ev, "request_duration_ms", v.val)
	case "UPSTREAM_HOST()":
		decode.SetAttr(ev, "upstream_host", v.val)
	case "UPSTREAM_CLUSTER()", "UPSTREAM_CLUSTER_RAW()":
		decode.SetAttr(ev, "upstream_cluster", v.val)
	case "ROUTE_NAME()":
		decode.SetAttr(ev, "route", v.val)
	case "GENAI(gen_ai.request.model)", "GENAI(gen_ai.response.model)":
		if ev.Model == "" || v.op.arg == "gen_ai.response.model" {
			ev.Model = v.val
		}
	case "GENAI(gen_ai.usage.input_tokens)":
		if n, ok := textscan.DecimalScaled(v.val, 0); ok && n >= 0 {
			ev.PromptTokens, ev.PromptTokensSource = decode.Ptr(n), schema.TokensUsage
		}
	case "GENAI(gen_ai.usage.output_tokens)":
		if n, ok := textscan.DecimalScaled(v.val, 0); ok && n >= 0 {
			ev.OutputTokens, ev.OutputTokensSource = decode.Ptr(n), schema.TokensUsage
		}
	}
}
