// Package envoy reads Envoy access logs (text or JSON): the decoder is Format,
// whose doc says which instant each field marks.
package envoy

import (
	"bytes"
	"encoding/json"
	"regexp"

	"github.com/ttftrace/ttftrace/ingest/decode"
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
//
// A reject's column is the byte column of the value refused (a bad
// %START_TIME%, duration or %RESPONSE_CODE%) when it is read in place; a
// JSON record that is no JSON is rejected at the byte encoding/json
// refuses; a line no format fits, an entry without a start or a JSON value
// read unescaped at the record's start. A JSON record's columns are counted
// as if its first line started with its '{' (leading blanks are not kept).
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
	return envoyDecode(in, sink)
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
