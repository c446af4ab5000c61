package nginx

import (
	"fmt"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// nginxCombined is nginx's predefined "combined" log_format, the default.
const nginxCombined = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`

// nginxCommon is the Common Log Format (combined without referer and user
// agent), tried after combined when the user gives no log_format.
const nginxCommon = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent`

// nginxMatchBudget bounds the backtracking of one line's match, so a hostile
// line costs at most this many candidate splits.
const nginxMatchBudget = 4096

// nginxValueKind says which values a variable can take; the matcher uses it to
// choose between candidate splits of a line.
type nginxValueKind int

const (
	nginxAnyText        nginxValueKind = iota // anything without an unescaped '"'
	nginxNumber                               // "-" or digits with an optional fraction
	nginxTimeLocalValue                       // 02/Jan/2006:15:04:05 -0700
	nginxToken                                // no spaces ($time_iso8601, $remote_addr)
	nginxList                                 // upstream lists: items joined by ", " or " : "
)

// nginxVar is one $variable of a compiled log_format and the literal text that
// follows it up to the next variable ("" for the last one).
type nginxVar struct {
	name  string
	kind  nginxValueKind
	after string
}

// nginxLogFormat is a compiled nginx log_format: a leading literal, then
// variables each followed by a literal.
type nginxLogFormat struct {
	prefix string
	vars   []nginxVar
}

// nginxFormatString accepts a log_format as the user may paste it from
// nginx.conf — `log_format llm escape=json '$msec ' '"$request"';` — and
// returns the format string itself: the directive, its name and parameters
// are dropped and the quoted parts joined. The quotes are taken as
// nginx.conf quoting only after the directive, before a final ';' or when
// the text starts with a single quote; otherwise (e.g. `"$request" "$status"`)
// the text is the format string itself.
func nginxFormatString(s string) string {
	s = strings.TrimSpace(s)
	conf := false
	if rest, ok := strings.CutPrefix(s, "log_format"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		conf = true
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return ""
		}
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), fields[0])) // the format's name
		for strings.HasPrefix(s, "escape=") || strings.HasPrefix(s, "if=") {
			_, s, _ = strings.Cut(s, " ")
			s = strings.TrimSpace(s)
		}
	}
	if t, ok := strings.CutSuffix(s, ";"); ok {
		s, conf = strings.TrimSpace(t), true
	}
	if !conf && !strings.HasPrefix(s, "'") {
		return s
	}
	return nginxConfQuoted(s)
}

// nginxConfQuoted joins nginx.conf quoted parts ('a' "b" → ab), returning s
// itself when it is not a sequence of quoted parts.
func nginxConfQuoted(s string) string {
	var b strings.Builder
	for rest := s; rest != ""; {
		q := rest[0]
		end := strings.IndexByte(rest[1:], q)
		if q != '\'' && q != '"' || end < 0 {
			return s
		}
		b.WriteString(rest[1 : 1+end])
		rest = strings.TrimLeft(rest[end+2:], " \t\r\n")
	}
	return b.String()
}

// nginxCompile compiles an nginx log_format string ($var and ${var}
// references between literal text). Two variables with nothing between them
// cannot be told apart in a log line and are refused.
func nginxCompile(s string) (*nginxLogFormat, error) {
	f := &nginxLogFormat{}
	lit, i := strings.Builder{}, 0
	for i < len(s) {
		name, n := nginxVarAt(s, i)
		if n == 0 {
			lit.WriteByte(s[i])
			i++
			continue
		}
		if len(f.vars) == 0 {
			f.prefix = lit.String()
		} else {
			prev := &f.vars[len(f.vars)-1]
			if prev.after = lit.String(); prev.after == "" {
				return nil, fmt.Errorf("log_format: $%s and $%s have no separator", prev.name, name)
			}
		}
		lit.Reset()
		f.vars = append(f.vars, nginxVar{name: name, kind: nginxKind(name)})
		i += n
	}
	if len(f.vars) == 0 {
		return nil, fmt.Errorf("log_format %q has no variables", decode.TruncateDetail(s))
	}
	f.vars[len(f.vars)-1].after = lit.String()
	return f, nil
}

// nginxVarAt returns the variable name referenced at s[i] ("$name" or
// "${name}") and the bytes the reference takes, or 0 when there is none.
func nginxVarAt(s string, i int) (string, int) {
	if s[i] != '$' || i+1 >= len(s) {
		return "", 0
	}
	if s[i+1] == '{' {
		end := strings.IndexByte(s[i+2:], '}')
		if end <= 0 {
			return "", 0
		}
		return s[i+2 : i+2+end], end + 3
	}
	j := i + 1
	for j < len(s) && (nginxNameByte(s[j]) || s[j] == '_') {
		j++
	}
	if j == i+1 {
		return "", 0
	}
	return s[i+1 : j], j - i
}

func nginxNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// nginxKind returns the kind of values nginx writes for a variable.
func nginxKind(name string) nginxValueKind {
	switch name {
	case "status", "msec", "request_time", "body_bytes_sent", "bytes_sent",
		"request_length", "connection", "connection_requests", "pid":
		return nginxNumber
	case "time_local":
		return nginxTimeLocalValue
	case "time_iso8601", "remote_addr", "server_port", "remote_port":
		return nginxToken
	case "upstream_addr", "upstream_status", "upstream_connect_time", "upstream_header_time",
		"upstream_response_time", "upstream_response_length", "upstream_bytes_received",
		"upstream_bytes_sent", "upstream_queue_time":
		return nginxList
	}
	return nginxAnyText
}

// nginxEscapedAt reports whether line[i] is preceded by an odd number of
// backslashes (escape=json writes a quote inside a value as \").
func nginxEscapedAt[S ~string | ~[]byte](line S, i int) bool {
	n := 0
	for i > 0 && line[i-1] == '\\' {
		n++
		i--
	}
	return n%2 == 1
}

// nginxUnescape undoes nginx's escaping of variable values: the default
// \xHH escapes and escape=json's \" \\ \n \t \r \b \f \uXXXX.
func nginxUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		c, n := nginxEscape(s[i+1:])
		if n == 0 {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(c)
		i += n
	}
	return b.String()
}

// nginxEscape decodes the escape sequence after a backslash, returning its
// text and the bytes it takes, or 0 when it is not an escape.
func nginxEscape(s string) (string, int) {
	switch s[0] {
	case 'x':
		if len(s) >= 3 {
			if h, ok := nginxHexByte(s[1], s[2]); ok {
				return string([]byte{h}), 3
			}
		}
	case 'u':
		if len(s) >= 5 {
			hi, ok1 := nginxHexByte(s[1], s[2])
			lo, ok2 := nginxHexByte(s[3], s[4])
			if ok1 && ok2 {
				return string(rune(int(hi)<<8 | int(lo))), 5
			}
		}
	case '"', '\\', '/':
		return s[:1], 1
	case 'n':
		return "\n", 1
	case 't':
		return "\t", 1
	case 'r':
		return "\r", 1
	case 'b':
		return "\b", 1
	case 'f':
		return "\f", 1
	}
	return "", 0
}

func nginxHexByte(a, b byte) (byte, bool) {
	h, ok1 := nginxHexDigit(a)
	l, ok2 := nginxHexDigit(b)
	return h<<4 | l, ok1 && ok2
}

func nginxHexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
