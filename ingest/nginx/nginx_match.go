package nginx

import (
	"bytes"
	"maps"
	"strings"

	"github.com/ttftrace/ttftrace/internal/textscan"
)

// The variables the event reads, as indexes into nginxPlan.at.
const (
	ngStatus = iota
	ngMsec
	ngTimeLocal
	ngTimeISO
	ngRequestTime
	ngUpConnect
	ngUpHeader
	ngUpResponse
	ngRequest
	ngRequestURI
	ngURI
	ngRequestMethod
	ngTraceparent
	ngAttrs // the variables of nginxAttrNames, in order
	ngCount = ngAttrs + len(nginxAttrNames)
)

// nginxPlanNames names the variables of the ng* indexes.
var nginxPlanNames = [ngCount]string{"status", "msec", "time_local", "time_iso8601", "request_time",
	"upstream_connect_time", "upstream_header_time", "upstream_response_time", "request", "request_uri",
	"uri", "request_method", "http_traceparent",
	"upstream_addr", "upstream_status", "http_user_agent", "host", "server_name"}

// nginxAttrNames are the attributes the variables from ngAttrs on give.
var nginxAttrNames = [...]string{"upstream", "upstream_status", "user_agent", "host", "server_name"}

// nginxPlan is a log_format compiled for reading lines: its literals as
// bytes, where each variable the event reads sits, and the id variables in
// the order they give RequestID.
type nginxPlan struct {
	f      *nginxLogFormat
	prefix []byte
	vars   []nginxPlanVar // the variables, in order
	at     [ngCount]int   // index in f.vars of each variable the event reads (the last one of that name), -1 when absent
	ids    []nginxIDPlace // the id variables, in nginxIDOrder's order
}

// nginxPlanVar is a variable of a plan: the literal after it ("" for the
// last one), its kind, and whether the literal starts with a quote.
type nginxPlanVar struct {
	after []byte
	kind  nginxValueKind
	quote bool
}

// nginxIDPlace is an id variable: its index in f.vars (-1 when absent) and
// whether it is an upstream's id, which never gives RequestID.
type nginxIDPlace struct {
	at       int
	upstream bool
}

// newNginxPlan compiles f for reading lines.
func newNginxPlan(f *nginxLogFormat) *nginxPlan {
	p := &nginxPlan{f: f, prefix: []byte(f.prefix)}
	index := map[string]int{}
	for i, v := range f.vars {
		index[v.name] = i
		p.vars = append(p.vars, nginxPlanVar{[]byte(v.after), v.kind, v.after != "" && v.after[0] == '"'})
	}
	at := func(name string) int {
		if i, ok := index[name]; ok {
			return i
		}
		return -1
	}
	for k, name := range nginxPlanNames {
		p.at[k] = at(name)
	}
	for _, name := range nginxIDOrder(maps.Keys(index)) {
		p.ids = append(p.ids, nginxIDPlace{at(name), strings.HasPrefix(name, "upstream_")})
	}
	return p
}

// nginxSpan is where a variable's value lies in the line: line[lo:hi].
type nginxSpan struct{ lo, hi int }

// match splits line into vals (the bounds of each variable's value) and
// reports false when the line does not have the format's shape. A
// variable's value runs to an occurrence of the literal after it and must
// be a valid value of its kind: the first occurrence is tried first, then,
// when what follows does not fit, the next ones (backtracking, at most
// nginxMatchBudget candidate splits per line, so a hostile line costs
// little). Text after the last literal is allowed when it starts with a
// space (a format that appends fields to this one). plain says line holds
// no backslash (no escaped quote).
func (p *nginxPlan) match(line []byte, vals []nginxSpan, plain bool) bool {
	if !bytes.HasPrefix(line, p.prefix) {
		return false
	}
	budget := nginxMatchBudget
	start, vi, from := len(p.prefix), 0, len(p.prefix)
	for vi >= 0 {
		if vi == len(p.vars) { // every variable placed, after a literal
			if start == len(line) || line[start] == ' ' {
				return true
			}
		} else if v := &p.vars[vi]; len(v.after) == 0 {
			if p.matchLast(line, start, vi, vals, &budget) {
				return true
			}
		} else if from <= len(line) {
			if budget--; budget < 0 {
				return false
			}
			j, first := textscan.IndexLiteral(line[from:], v.after)
			if j >= 0 {
				end := from + j
				// Text up to the first '"' holds no quote: it is valid as it is.
				noQuote := v.quote && first && from == start && v.kind == nginxAnyText
				if from = end + 1; !(v.quote && !plain && nginxEscapedAt(line, end)) &&
					(noQuote || nginxValidBytes(v.kind, line[start:end])) {
					vals[vi] = nginxSpan{start, end}
					start, vi = end+len(v.after), vi+1
					from = start
				}
				continue // the next variable, or this one's next candidate
			}
		}
		if budget < 0 {
			return false
		}
		if vi--; vi >= 0 { // try the previous variable's next candidate
			start, from = vals[vi].lo, vals[vi].hi+1
		}
	}
	return false
}

// matchLast places the last variable when no literal follows it: the rest
// of the line, else the longest valid value followed by a space (trailing
// fields appended to the format).
func (p *nginxPlan) matchLast(line []byte, start, vi int, vals []nginxSpan, budget *int) bool {
	kind := p.vars[vi].kind
	if nginxValidBytes(kind, line[start:]) {
		vals[vi] = nginxSpan{start, len(line)}
		return true
	}
	for end := len(line) - 1; end >= start; end-- {
		if line[end] != ' ' {
			continue
		}
		if *budget--; *budget < 0 {
			return false
		}
		if nginxValidBytes(kind, line[start:end]) {
			vals[vi] = nginxSpan{start, end}
			return true
		}
	}
	return false
}

// nginxValidBytes reports whether v can be a value of a variable of kind k.
func nginxValidBytes(k nginxValueKind, v []byte) bool {
	switch k {
	case nginxNumber:
		if len(v) == 1 && v[0] == '-' {
			return true
		}
		dots := 0
		for _, c := range v {
			if c == '.' {
				dots++
			} else if c < '0' || c > '9' {
				return false
			}
		}
		return len(v) > 0 && dots <= 1
	case nginxTimeLocalValue:
		return len(v) == 26 && v[2] == '/' && v[6] == '/' && v[11] == ':' && v[20] == ' '
	case nginxToken:
		return len(v) > 0 && bytes.IndexByte(v, ' ') < 0 && bytes.IndexByte(v, '"') < 0
	case nginxList:
		return nginxValidListBytes(v)
	}
	for i := bytes.IndexByte(v, '"'); i >= 0; {
		if !nginxEscapedAt(v, i) {
			return false
		}
		j := bytes.IndexByte(v[i+1:], '"')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// nginxValidListBytes reports whether v is a list of upstream values:
// non-empty items without spaces, commas or quotes, joined by ", " or " : ".
func nginxValidListBytes(v []byte) bool {
	for {
		n := 0
		for n < len(v) && v[n] != ' ' && v[n] != ',' && v[n] != '"' {
			n++
		}
		if n == 0 {
			return false
		}
		v = v[n:]
		switch {
		case len(v) == 0:
			return true
		case len(v) >= 3 && v[0] == ' ' && v[1] == ':' && v[2] == ' ':
			v = v[3:]
		case len(v) >= 2 && v[0] == ',' && v[1] == ' ' && !(len(v) >= 4 && v[2] == ':' && v[3] == ' '):
			v = v[2:] // (in ", : " the " : " splits first, leaving an item ending in ',')
		default:
			return false
		}
	}
}
