// Package nginx reads nginx access logs: the decoder is Format,
// whose doc says which instant each field marks.
package nginx

import (
	"bytes"
	"fmt"
	"iter"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes nginx access logs written with a log_format the user gives
// (decode.Options.LogFormat; default "combined", with the Common Log Format tried
// next). One line is one request, seen by nginx as a proxy, on the wall clock
// of the host running nginx. What each variable marks
// (https://nginx.org/en/docs/http/ngx_http_log_module.html,
// https://nginx.org/en/docs/http/ngx_http_upstream_module.html#variables):
//
//   - $msec: the time the log line was written, Unix seconds with millisecond
//     resolution. It is the end instant (last byte sent downstream).
//   - $time_local, $time_iso8601: the same instant at one-second resolution;
//     used for end only when $msec is absent (attrs["time_resolution"]="1s",
//     and start is then known to a second only).
//   - $request_time: seconds (ms resolution) from the first request byte read
//     to the log write, so start = end − request_time.
//   - $upstream_connect_time, $upstream_header_time, $upstream_response_time:
//     seconds (ms resolution) from the start of each upstream attempt to the
//     connection, to the response headers, and to the last response byte.
//     Attempts are listed with ", " (same upstream group) and " : " (after an
//     internal redirect); the last attempt is the one that answered.
//
// Upstream times are measured from the start of each attempt, not from the
// request start, and nginx does not log when an attempt began. The answering
// attempt's last byte reaches nginx close to the end of the request for an
// unbuffered stream, so headers = end − last response time + last header
// time (clamped to [start, end]). Without the last response time, headers =
// start + the earlier attempts' response times + the last header time, a
// lower bound. Time to upstream headers is never TTFT: FirstTokenNs stays
// nil. ConnectNs is the answering attempt's connect time.
//
// Ids: $request_id, $http_x_request_id, then any other variable ending in
// request_id give RequestID (first non-empty; the others go to OtherIDs, as
// do $upstream_http_x_request_id and $upstream_http_x_*_id); $http_traceparent
// gives TraceID. $request gives the method (attrs["method"]) and the endpoint
// path; $request_uri or $uri give the endpoint when $request is absent.
type Format struct{}

func (Format) Name() string   { return "nginx" }
func (Format) Source() string { return schema.SourceProxy }
func (Format) Describe() string {
	return "nginx access log with the given log_format (default combined): start ($msec − $request_time), end, " +
		"upstream connect and header times, ids; no first token (time to upstream headers is not TTFT)"
}

// nginxAccessLine matches the start of a combined or common log line:
// `IP - user [dd/Mon/yyyy:hh:mm:ss +zzzz] "`.
var nginxAccessLine = regexp.MustCompile(`^\S+ \S+ \S+ \[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "`)

// nginxTimeLocalField matches a bracketed $time_local anywhere in a line,
// and nginxRequestStatus a quoted "$request" followed by a status: together
// they recognize custom formats built on combined. HAProxy's [%tr] has
// milliseconds and no zone, Envoy's START_TIME is ISO 8601: neither matches.
var (
	nginxTimeLocalField = regexp.MustCompile(`\[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\]`)
	nginxRequestStatus  = regexp.MustCompile(`"[A-Z]{3,10} \S+ HTTP/\d(\.\d)?" \d{3} `)
)

// nginxErrorLine matches an nginx error-log line: `2026/11/23 10:00:00 [error] `.
var nginxErrorLine = regexp.MustCompile(`^\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} \[(debug|info|notice|warn|error|crit|alert|emerg)\] `)

// Sniff claims input whose first lines (up to 20) look like combined or
// common log lines, or like a custom format with a bracketed $time_local and
// a quoted "$request" followed by $status: at least one does and four in
// five of the lines that are neither blank nor error-log lines do. Other
// custom formats are not sniffed (Sniff does not see the options): name the
// format with --format.
func (Format) Sniff(head []byte) bool {
	lines := bytes.Split(head, []byte("\n"))
	if len(lines) > 1 && !bytes.HasSuffix(head, []byte("\n")) {
		lines = lines[:len(lines)-1] // cut off at SniffSize
	}
	access, other := 0, 0
	for i, line := range lines {
		if i >= 20 {
			break
		}
		line = bytes.TrimRight(line, "\r")
		switch {
		case len(bytes.TrimSpace(line)) == 0, nginxErrorLine.Match(line):
		case nginxAccessLine.Match(line),
			nginxTimeLocalField.Match(line) && nginxRequestStatus.Match(line):
			access++
		default:
			other++
		}
	}
	return access > 0 && other*4 <= access
}

// LineRecords reports that every access log line is a record of its own,
// so the driver may decode a large log in blocks (see ingest.LineSplitter).
func (Format) LineRecords(head []byte) bool { return true }

// Decode reads one request per line. It returns an error only for a
// log_format that cannot be compiled.
func (Format) Decode(in *decode.Input, sink decode.Sink) error {
	return nginxDecode(in, sink, true)
}

// nginxDecode reads one request per line, by the fast path (nginx_fast.go)
// when fast is set and it takes the line, else by nginxLine.
func nginxDecode(in *decode.Input, sink decode.Sink, fast bool) error {
	formats, err := nginxFormats(in.Opts.LogFormat)
	if err != nil {
		return err
	}
	var f *nginxFast
	if p := newNginxPlan(formats[0]); fast && p != nil {
		f = &nginxFast{plan: p, vals: make([]nginxSpan, len(p.f.vars))}
	}
	return decode.EachTextLine(in.R, func(n int64, line []byte) {
		if f == nil || !f.line(in, n, line, sink) {
			nginxLine(in, formats, n, line, sink)
		}
	}, func(n int64) {
		sink.Reject(n, "line too long", fmt.Sprintf("longer than %d bytes", decode.MaxLineBytes))
	})
}

// CompileLogFormat compiles spec as Decode would (a log_format string, a
// "log_format NAME …;" directive, "combined" or empty for the default) and
// returns why it cannot be read: no variables, two variables with no
// separator, or no clock variable.
func CompileLogFormat(spec string) error {
	_, err := nginxFormats(spec)
	return err
}

// nginxFormats compiles the user's log_format, or combined then common.
func nginxFormats(spec string) ([]*nginxLogFormat, error) {
	specs := []string{nginxCombined, nginxCommon}
	if spec = nginxFormatString(spec); spec != "" && spec != "combined" {
		specs = []string{spec}
	}
	var out []*nginxLogFormat
	for _, s := range specs {
		f, err := nginxCompile(s)
		if err != nil {
			return nil, err
		}
		if !nginxHasClock(f) {
			return nil, fmt.Errorf("log_format has no $msec, $time_local or $time_iso8601: lines cannot be placed in time")
		}
		out = append(out, f)
	}
	return out, nil
}

// nginxLine decodes one line and reports it to sink.
func nginxLine(in *decode.Input, formats []*nginxLogFormat, n int64, raw []byte, sink decode.Sink) {
	line := strings.TrimRight(string(raw), "\r")
	if strings.TrimSpace(line) == "" {
		sink.Skip(n, "blank line")
		return
	}
	if nginxErrorLine.MatchString(line) {
		sink.Skip(n, "nginx error log line")
		return
	}
	for _, f := range formats {
		vals, ok := f.match(line)
		if !ok {
			continue
		}
		ev, reason, detail := nginxEvent(vals)
		if reason != "" {
			sink.Reject(n, reason, detail)
			return
		}
		ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
		sink.Event(n, raw, ev)
		return
	}
	sink.Reject(n, "line does not match log_format", decode.TruncateDetail(line))
}

// nginxEvent builds the event of one matched line, or returns a reject
// reason and detail.
func nginxEvent(vals map[string]string) (*schema.Event, string, string) {
	ev := &schema.Event{Source: schema.SourceProxy, Format: "nginx", Clock: schema.ClockWall, Attrs: map[string]string{}}
	if reason, detail := nginxStatus(ev, vals["status"]); reason != "" {
		return nil, reason, detail
	}
	if reason, detail := nginxInstants(ev, vals); reason != "" {
		return nil, reason, detail
	}
	nginxRequest(ev, vals)
	nginxIDs(ev, vals)
	for _, k := range [][2]string{{"upstream_addr", "upstream"}, {"upstream_status", "upstream_status"},
		{"http_user_agent", "user_agent"}, {"host", "host"}, {"server_name", "server_name"}} {
		if v := nginxValue(vals, k[0]); v != "" {
			ev.Attrs[k[1]] = v
		}
	}
	if len(ev.Attrs) == 0 {
		ev.Attrs = nil
	}
	return ev, "", ""
}

// nginxValue returns the unescaped value of a variable, "" when absent or "-".
func nginxValue(vals map[string]string, name string) string {
	v, ok := vals[name]
	if !ok || v == "-" || v == "" {
		return ""
	}
	return nginxUnescape(v)
}

// nginxStatus sets the status, error class and completion from $status.
func nginxStatus(ev *schema.Event, s string) (string, string) {
	if s == "" || s == "-" {
		return "", ""
	}
	code, err := strconv.Atoi(s)
	if err != nil || code < 0 || code > 999 {
		return "bad status", decode.TruncateDetail(s)
	}
	ev.Status = decode.Ptr(int32(code))
	ev.Error = decode.ErrorClass(code)
	ev.Completed = decode.Ptr(code >= 200 && code < 300)
	return "", ""
}

// nginxRequest sets the endpoint and method from $request ("GET /p HTTP/1.1"),
// else $request_uri or $uri, and $request_method.
func nginxRequest(ev *schema.Event, vals map[string]string) {
	if req := nginxValue(vals, "request"); req != "" {
		parts := strings.Fields(req)
		if len(parts) >= 2 {
			ev.Endpoint = nginxTargetPath(parts[1])
		}
		if ev.Endpoint != "" {
			ev.Attrs["method"] = parts[0]
		}
	}
	if ev.Endpoint == "" {
		for _, k := range []string{"request_uri", "uri"} {
			if v := nginxValue(vals, k); strings.HasPrefix(v, "/") {
				ev.Endpoint = decode.EndpointPath(v)
				break
			}
		}
	}
	if m := nginxValue(vals, "request_method"); m != "" {
		ev.Attrs["method"] = m
	}
}

// nginxTargetPath returns the path of a request target in origin form
// ("/p?q") or absolute form ("http://h/p?q", as forward proxies see it),
// or "" for anything else.
func nginxTargetPath(target string) string {
	if strings.HasPrefix(target, "/") {
		return decode.EndpointPath(target)
	}
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		if u, err := url.Parse(target); err == nil && u.Path != "" {
			return u.Path
		}
	}
	return ""
}

// nginxIDs sets RequestID, OtherIDs and TraceID from the id variables.
func nginxIDs(ev *schema.Event, vals map[string]string) {
	for _, name := range nginxIDOrder(maps.Keys(vals)) {
		v := nginxValue(vals, name)
		switch {
		case v == "":
		case ev.RequestID == "" && !strings.HasPrefix(name, "upstream_"):
			ev.RequestID = v
		case v != ev.RequestID && !slices.Contains(ev.OtherIDs, v):
			ev.OtherIDs = append(ev.OtherIDs, v)
		}
	}
	if tp := nginxValue(vals, "http_traceparent"); tp != "" {
		ev.TraceID = decode.TraceIDFromTraceparent(tp)
	}
}

// nginxIDOrder returns the id variables among the (distinct) names in the
// order nginxIDs reads them: $request_id, $http_x_request_id, the other
// names ending in request_id, then $upstream_http_*_id, each group sorted.
// The first non-empty one that is not an upstream's gives RequestID.
func nginxIDOrder(names iter.Seq[string]) []string {
	var others, upstream []string
	for name := range names {
		switch {
		case strings.HasPrefix(name, "upstream_http_") && strings.HasSuffix(name, "_id"):
			upstream = append(upstream, name)
		case strings.HasSuffix(name, "request_id") && name != "request_id" && name != "http_x_request_id" &&
			!strings.HasPrefix(name, "upstream_"):
			others = append(others, name)
		}
	}
	sort.Strings(others)
	sort.Strings(upstream)
	return append(append([]string{"request_id", "http_x_request_id"}, others...), upstream...)
}
