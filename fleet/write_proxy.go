package fleet

import (
	"io"
	"strconv"
	"time"
)

// msTrunc is an instant truncated to whole milliseconds, as nginx and Envoy
// keep their clocks.
func msTrunc(ns int64) int64 { return ns / 1e6 }

// secMs formats whole milliseconds as seconds with three decimals ("1.234").
func secMs(b []byte, msv int64) []byte {
	b = strconv.AppendInt(b, msv/1000, 10)
	b = append(b, '.')
	f := msv % 1000
	b = append(b, byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
	return b
}

// writeNginx writes h's requests in NginxLogFormat, one line when each
// request ends. nginx keeps time in whole milliseconds: $msec is the end,
// $request_time is end − start of those truncated instants, so
// start = $msec − $request_time is the true start truncated to the ms.
func (f *Fleet) writeNginx(w io.Writer, h *Host) error {
	b := make([]byte, 0, 1024)
	for _, r := range f.Logged(h) {
		b = appendNginx(b[:0], r, h)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// appendNginx appends r's line in NginxLogFormat as proxy h logs it.
func appendNginx(b []byte, r *Request, h *Host) []byte {
	startMs, endMs := msTrunc(r.ProxyStart+h.OffsetNs), msTrunc(r.ProxyEnd+h.OffsetNs)
	status := r.Status
	if r.ErrorClass == "interrupted" {
		status = 499
	}
	b = append(b, "10.0."...)
	b = strconv.AppendInt(b, int64(r.Index%7), 10)
	b = append(b, ".12 - - ["...)
	b = time.UnixMilli(endMs).UTC().AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, `] "POST /v1/chat/completions HTTP/1.1" `...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(180*r.OutputTokens+120), 10)
	b = append(b, ` "-" "`...)
	b = append(b, userAgent(r)...)
	b = append(b, `" rt=`...)
	b = secMs(b, endMs-startMs)
	if r.Server == nil {
		b = append(b, ` uct="-" uht="-" urt="-"`...)
	} else {
		b = append(b, ` uct="0.000" uht="`...)
		b = secMs(b, msTrunc(r.ProxyHeaders+h.OffsetNs)-startMs)
		b = append(b, `" urt="`...)
		b = secMs(b, endMs-startMs)
		b = append(b, '"')
	}
	b = append(b, " msec="...)
	b = secMs(b, endMs)
	b = append(b, " rid="...)
	b = append(b, dash(r.RequestID)...)
	b = append(b, " tp="...)
	b = append(b, dash(traceparent(r))...)
	return append(b, '\n')
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func traceparent(r *Request) string {
	if r.TraceID == "" {
		return ""
	}
	return "00-" + r.TraceID + "-" + r.TraceID[:16] + "-01"
}

func userAgent(r *Request) string {
	if r.Client.Format == "genai-perf" {
		return "perf_analyzer/2.55"
	}
	return "chat-web/1.4 python-httpx/0.27.2"
}

// writeEnvoy writes h's requests as JSON access-log lines in EnvoyLogFormat.
// Envoy prints START_TIME to the ms and durations as whole ms.
func (f *Fleet) writeEnvoy(w io.Writer, h *Host) error {
	b := make([]byte, 0, 1024)
	for _, r := range f.Logged(h) {
		b = appendEnvoy(b[:0], r, h)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// appendEnvoy appends r's JSON line in EnvoyLogFormat as proxy h logs it.
func appendEnvoy(b []byte, r *Request, h *Host) []byte {
	start := r.ProxyStart + h.OffsetNs
	code, flags := r.Status, "-"
	if r.ErrorClass == "interrupted" {
		code, flags = 200, "DC"
	}
	b = append(b, `{"start_time":"`...)
	b = time.Unix(0, start).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	b = append(b, `","method":"POST","path":"/v1/chat/completions","protocol":"HTTP/1.1","response_code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"response_flags":"`...)
	b = append(b, flags...)
	b = append(b, `","duration":`...)
	b = strconv.AppendInt(b, (r.ProxyEnd-r.ProxyStart)/1e6, 10)
	b = append(b, `,"response_duration":`...)
	b = appendNullMs(b, r.ProxyHeaders-r.ProxyStart, r.Server != nil)
	b = append(b, `,"first_body_byte":`...)
	b = appendNullMs(b, r.ProxyFirstByte-r.ProxyStart, r.ProxyFirstByte != 0)
	b = append(b, `,"upstream_service_time":`...)
	b = appendNullMs(b, r.ServerHeaders-r.ServerStart+r.BackProxyNs, r.Server != nil)
	b = append(b, `,"x_request_id":`...)
	b = appendNullString(b, r.RequestID)
	b = append(b, `,"traceparent":`...)
	b = appendNullString(b, traceparent(r))
	b = append(b, `,"upstream_host":`...)
	if r.Server != nil {
		b = appendNullString(b, r.Server.Name+":8000")
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"user_agent":"`...)
	b = append(b, userAgent(r)...)
	return append(b, "\"}\n"...)
}

func appendNullMs(b []byte, ns int64, ok bool) []byte {
	if !ok {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, ns/1e6, 10)
}

func appendNullString(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return strconv.AppendQuote(b, s)
}
