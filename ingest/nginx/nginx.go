// Package nginx reads nginx access logs: the decoder is Format,
// whose doc says which instant each field marks.
package nginx

import (
	"bytes"
	"fmt"
	"iter"
	"net/url"
	"regexp"
	"sort"
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
//
// A reject's column is the byte column of the refused value in its line
// (a bad $status, $msec, $time_local, $request_time or upstream time); a
// line no log_format fits, or without any time, is rejected at column 1.
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
	formats, err := nginxFormats(in.Opts.LogFormat)
	if err != nil {
		return err
	}
	d := newNginxReader(formats, len(formats) == 1)
	return decode.EachTextLine(in.R, func(n int64, line []byte) {
		d.line(in, n, line, sink)
	}, func(n int64) {
		sink.Reject(decode.AtCol(n, decode.MaxLineBytes+1), "line too long", fmt.Sprintf("longer than %d bytes", decode.MaxLineBytes))
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

// nginxIDOrder returns the id variables among the (distinct) names in the
// order the reader reads them (nginxReader.ids): $request_id, $http_x_request_id, the other
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
