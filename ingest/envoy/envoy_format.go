package envoy

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// envoyOp is one command operator of an Envoy format string: %NAME%,
// %NAME(ARG)% or %NAME(ARG):MAXLEN%. Name is upper case; Arg keeps its case
// except for header names (REQ, RESP), which are upper-cased.
type envoyOp struct {
	name, arg string
}

// envoyToken is a literal (op == nil) or an operator of a format string.
type envoyToken struct {
	lit string
	op  *envoyOp
}

// envoyFormat is a compiled Envoy format string.
type envoyFormat []envoyToken

// parseEnvoyFormat compiles an Envoy format string. A trailing newline is
// dropped: lines are matched without their line break.
func parseEnvoyFormat(s string) (envoyFormat, error) {
	s = strings.TrimRight(s, "\r\n")
	var f envoyFormat
	var lit strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			lit.WriteByte(s[i])
			i++
			continue
		}
		op, n, err := parseEnvoyOp(s[i:])
		if err != nil {
			return nil, err
		}
		if lit.Len() > 0 {
			f = append(f, envoyToken{lit: lit.String()})
			lit.Reset()
		}
		f = append(f, envoyToken{op: &op})
		i += n
	}
	if lit.Len() > 0 {
		f = append(f, envoyToken{lit: lit.String()})
	}
	if len(f) == 0 {
		return nil, errors.New("empty format")
	}
	return f, nil
}

// parseEnvoyOp parses the operator at the start of s ("%NAME(ARG):Z%…") and
// returns it with the number of bytes it spans.
func parseEnvoyOp(s string) (envoyOp, int, error) {
	i := 1
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	op := envoyOp{name: s[1:i]}
	if op.name == "" {
		return op, 0, errors.New("bad operator at " + strconv.Quote(decode.TruncateDetail(s)))
	}
	if i < len(s) && s[i] == '(' {
		end := strings.IndexByte(s[i:], ')')
		if end < 0 {
			return op, 0, errors.New("unclosed ( in " + strconv.Quote(decode.TruncateDetail(s)))
		}
		op.arg = s[i+1 : i+end]
		i += end + 1
		if op.name == "REQ" || op.name == "RESP" || op.name == "REQUEST_HEADER" || op.name == "RESPONSE_HEADER" {
			op.arg = strings.ToUpper(op.arg)
		}
	}
	if i < len(s) && s[i] == ':' { // max length
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
	}
	if i >= len(s) || s[i] != '%' {
		return op, 0, errors.New("operator not closed by %: " + strconv.Quote(decode.TruncateDetail(s)))
	}
	return op, i + 1, nil
}

// envoyMaySpace reports whether the value of operator i may hold spaces:
// only quoted values (the literal before it ends in '"') and START_TIME
// (strftime layouts may have spaces) do; Envoy writes the others as one word.
func envoyMaySpace(f envoyFormat, i int) bool {
	if f[i].op.name == "START_TIME" {
		return true
	}
	return i > 0 && f[i-1].op == nil && strings.HasSuffix(f[i-1].lit, `"`)
}

// envoyStartTime parses a %START_TIME% value. With no format it is ISO 8601
// with milliseconds ("2019-03-06T09:31:27.354Z"); otherwise layout is the
// operator's strftime format: %Y %m %d %H %M %S %s %f %1f…%9f %E3S %E6S %E9S
// %z %Ez %F %T %b and literal text are understood.
func envoyStartTime(val, layout string) (int64, error) {
	if layout == "" {
		return textscan.ParseNs(time.RFC3339Nano, val, time.UTC)
	}
	p := strftimeParser{s: val}
	for i := 0; i < len(layout); i++ {
		c := layout[i]
		if c != '%' || i+1 == len(layout) {
			if !p.lit(c) {
				return 0, errors.New("does not match " + layout)
			}
			continue
		}
		i++
		if err := p.spec(layout, &i); err != nil {
			return 0, err
		}
	}
	if p.pos != len(p.s) {
		return 0, errors.New("trailing text after " + layout)
	}
	return p.result()
}

// strftimeParser reads a time written with a strftime layout.
type strftimeParser struct {
	s                         string
	pos                       int
	year, mon, day, h, m, sec int
	nsec                      int64
	epoch                     *int64
	offset                    int // seconds east of UTC
}

func (p *strftimeParser) lit(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// digits reads between min and max decimal digits.
func (p *strftimeParser) digits(min, max int) (int, int, bool) {
	start := p.pos
	for p.pos < len(p.s) && p.pos-start < max && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	n := p.pos - start
	if n < min {
		return 0, n, false
	}
	v, err := strconv.Atoi(p.s[start:p.pos])
	return v, n, err == nil
}

// frac reads up to max fractional digits into nanoseconds.
func (p *strftimeParser) frac(min, max int) bool {
	v, n, ok := p.digits(min, max)
	if !ok {
		return false
	}
	for ; n < 9; n++ {
		v *= 10
	}
	p.nsec = int64(v)
	return true
}

// spec reads the value of the specifier at layout[*i] (just after '%').
func (p *strftimeParser) spec(layout string, i *int) error {
	bad := errors.New("bad value for %" + layout[*i:min(*i+3, len(layout))])
	c := layout[*i]
	var ok bool
	switch {
	case c >= '1' && c <= '9' && *i+1 < len(layout) && layout[*i+1] == 'f':
		*i++
		ok = p.frac(int(c-'0'), int(c-'0'))
	case c == 'E' && *i+2 < len(layout) && layout[*i+2] == 'S': // %E3S, %E*S
		*i += 2
		ok = p.two(&p.sec) && (!p.lit('.') || p.frac(1, 9))
	case c == 'E' && *i+1 < len(layout) && layout[*i+1] == 'z':
		*i++
		ok = p.zone(true)
	default:
		ok = p.simple(c)
	}
	if !ok {
		return bad
	}
	return nil
}

func (p *strftimeParser) two(dst *int) bool {
	v, _, ok := p.digits(1, 2)
	*dst = v
	return ok
}

// simple reads the one-letter specifiers.
func (p *strftimeParser) simple(c byte) bool {
	switch c {
	case 'Y':
		v, _, ok := p.digits(4, 4)
		p.year = v
		return ok
	case 'm':
		return p.two(&p.mon)
	case 'd', 'e':
		for c == 'e' && p.lit(' ') {
		}
		return p.two(&p.day)
	case 'H':
		return p.two(&p.h)
	case 'M':
		return p.two(&p.m)
	case 'S':
		return p.two(&p.sec)
	case 'f':
		return p.frac(1, 9)
	case 's':
		v, _, ok := p.digits(1, 12)
		e := int64(v)
		p.epoch = &e
		return ok
	case 'z':
		return p.zone(false)
	case 'F':
		return p.simple('Y') && p.lit('-') && p.simple('m') && p.lit('-') && p.simple('d')
	case 'T':
		return p.simple('H') && p.lit(':') && p.simple('M') && p.lit(':') && p.simple('S')
	case 'b':
		for m := time.January; m <= time.December; m++ {
			if strings.HasPrefix(p.s[p.pos:], m.String()[:3]) {
				p.mon, p.pos = int(m), p.pos+3
				return true
			}
		}
		return false
	case '%':
		return p.lit('%')
	}
	return false
}

// zone reads "Z", "+hhmm" or (colon) "+hh:mm".
func (p *strftimeParser) zone(colon bool) bool {
	if p.lit('Z') {
		return true
	}
	sign := 1
	if p.lit('-') {
		sign = -1
	} else if !p.lit('+') {
		return false
	}
	var hh, mm int
	ok := p.two(&hh)
	if colon {
		ok = ok && p.lit(':')
	}
	ok = ok && p.two(&mm)
	p.offset = sign * (hh*3600 + mm*60)
	return ok
}

func (p *strftimeParser) result() (int64, error) {
	if p.epoch != nil {
		if *p.epoch < math.MinInt64/int64(1e9)+1 || *p.epoch > math.MaxInt64/int64(1e9)-1 {
			return 0, textscan.ErrTimeRange
		}
		return *p.epoch*1e9 + p.nsec, nil
	}
	if p.year == 0 || p.mon < 1 || p.mon > 12 || p.day < 1 || p.day > 31 || p.h > 23 || p.m > 59 || p.sec > 60 {
		return 0, errors.New("incomplete or out-of-range date")
	}
	t := time.Date(p.year, time.Month(p.mon), p.day, p.h, p.m, p.sec, int(p.nsec), time.UTC)
	return textscan.UnixNs(t.Add(-time.Duration(p.offset) * time.Second))
}

// envoyFlagClass maps response flags, short and long names, to error classes.
var envoyFlagClass = map[string]string{
	"UT": schema.ErrorTimeout, "UpstreamRequestTimeout": schema.ErrorTimeout,
	"SI": schema.ErrorTimeout, "StreamIdleTimeout": schema.ErrorTimeout,
	"DT": schema.ErrorTimeout, "DurationTimeout": schema.ErrorTimeout,
	"UMSDR": schema.ErrorTimeout, "UpstreamMaxStreamDurationReached": schema.ErrorTimeout,
	"DC": schema.ErrorInterrupted, "DownstreamConnectionTermination": schema.ErrorInterrupted,
	"RL": schema.ErrorRateLimited, "RateLimited": schema.ErrorRateLimited,
	"UF": schema.ErrorServer, "UpstreamConnectionFailure": schema.ErrorServer,
	"UC": schema.ErrorServer, "UpstreamConnectionTermination": schema.ErrorServer,
	"URX": schema.ErrorServer, "UpstreamRetryLimitExceeded": schema.ErrorServer,
	"UH": schema.ErrorServer, "NoHealthyUpstream": schema.ErrorServer,
	"UO": schema.ErrorServer, "UpstreamOverflow": schema.ErrorServer,
	"UR": schema.ErrorServer, "UpstreamRemoteReset": schema.ErrorServer,
	"LR": schema.ErrorServer, "LocalReset": schema.ErrorServer,
	"NC": schema.ErrorServer, "NoClusterFound": schema.ErrorServer,
	"UPE": schema.ErrorServer, "UpstreamProtocolError": schema.ErrorServer,
	"LH": schema.ErrorServer, "FailedLocalHealthCheck": schema.ErrorServer,
	"RLSE": schema.ErrorServer, "RateLimitServiceError": schema.ErrorServer,
	"DPE": schema.ErrorClient, "DownstreamProtocolError": schema.ErrorClient,
	"IH": schema.ErrorClient, "InvalidEnvoyRequestHeaders": schema.ErrorClient,
	"UAEX": schema.ErrorClient, "UnauthorizedExternalService": schema.ErrorClient,
}
