package nginx

import (
	"bytes"
	"maps"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
	"github.com/ttftrace/ttftrace/schema"
)

// The fast path of the nginx decoder. Profiling the general route (nginxLine)
// on the fleet's edge-1 log showed a third of the time in allocation (the
// line copied to a string, a map of values per line, a map of attributes,
// strings.Split of every upstream list, the id names sorted per line) and a
// quarter in the backtracking matcher. Here the log_format is compiled once
// into a plan (which variable the event reads sits where, the id variables
// in nginxIDs' order) and a line is split in place without backtracking: each
// variable runs to the first occurrence of the literal after it and must be
// a valid value of its kind, which is the first split the general matcher
// tries, so when it succeeds both agree. Anything else — a line the first
// split does not fit, a value to unescape, an absolute request URL, a value
// the general route rejects — goes to nginxLine, so the two routes give the
// same events, skips and rejects (TestNginxFastMatchesGeneral, FuzzNginxFast).

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

// nginxPlan is a log_format compiled for the fast path.
type nginxPlan struct {
	f      *nginxLogFormat
	afters [][]byte         // each variable's following literal
	kinds  []nginxValueKind // each variable's kind
	at     [ngCount]int     // index in f.vars of each variable the event reads (the last one of that name), -1 when absent
	ids    []nginxIDPlace   // the id variables, in nginxIDs' order
}

// nginxIDPlace is an id variable: its index in f.vars (-1 when absent) and
// whether it is an upstream's id, which never gives RequestID.
type nginxIDPlace struct {
	at       int
	upstream bool
}

// newNginxPlan compiles f for the fast path; it returns nil for a format
// the general matcher could not split without running out of budget.
func newNginxPlan(f *nginxLogFormat) *nginxPlan {
	if len(f.vars) >= nginxMatchBudget {
		return nil
	}
	p := &nginxPlan{f: f}
	index := map[string]int{}
	for i, v := range f.vars {
		index[v.name] = i
		p.afters = append(p.afters, []byte(v.after))
		p.kinds = append(p.kinds, v.kind)
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

// match splits line into vals (the bounds of each variable's value) by the
// first split the general matcher tries, and reports false when that split
// does not fit. plain says line holds no backslash (so no escaped quote).
func (p *nginxPlan) match(line []byte, vals []nginxSpan, plain bool) bool {
	prefix := p.f.prefix
	if len(line) < len(prefix) || string(line[:len(prefix)]) != prefix {
		return false
	}
	pos := len(prefix)
	for i, after := range p.afters {
		if len(after) == 0 { // the last variable: the rest of the line
			vals[i] = nginxSpan{pos, len(line)}
			return nginxValidBytes(p.kinds[i], line[pos:])
		}
		j, first := textscan.IndexLiteral(line[pos:], after)
		if j < 0 {
			return false
		}
		end := pos + j
		quote := after[0] == '"'
		if quote && !plain && nginxEscapedAt(line, end) {
			return false
		}
		// Text up to the first '"' holds no quote: it is valid as it is.
		if !(quote && first && p.kinds[i] == nginxAnyText) && !nginxValidBytes(p.kinds[i], line[pos:end]) {
			return false
		}
		vals[i], pos = nginxSpan{pos, end}, end+len(after)
	}
	return pos == len(line) || line[pos] == ' '
}

// nginxSpan is where a variable's value lies in the line: line[lo:hi].
type nginxSpan struct{ lo, hi int }

// nginxValidBytes is nginxValid for line bytes.
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

// nginxValidListBytes is nginxValidList for line bytes: non-empty items
// without spaces, commas or quotes, joined by ", " or " : ".
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

// nginxFast is the fast path's state for one input.
type nginxFast struct {
	plan    *nginxPlan
	cur     []byte      // the line being read
	plain   bool        // it holds no backslash
	vals    []nginxSpan // its values
	ev      schema.Event
	attrs   []decode.AttrKV
	scratch []byte // the ids of the line, before they become one string
	arena   decode.ValueArena
	strs    decode.InternTable
	maps    decode.AttrMaps
}

// line decodes one line and reports its event to sink; it reports false,
// having told sink nothing, when the general route must decide.
func (d *nginxFast) line(in *decode.Input, n int64, raw []byte, sink decode.Sink) bool {
	line := bytes.TrimRight(raw, "\r")
	d.cur, d.plain = line, bytes.IndexByte(line, '\\') < 0
	if len(line) == 0 || !decode.ASCIIGraphic(line[0]) || nginxErrorShape(line) || !d.plan.match(line, d.vals, d.plain) {
		return false // blank, maybe an error-log line, or a split the fast path does not take
	}
	d.clearEvent(in, n)
	d.attrs = d.attrs[:0]
	if !d.status() || !d.instants() || !d.request() || !d.ids() {
		return false
	}
	for i, name := range nginxAttrNames {
		v, ok := d.value(ngAttrs + i)
		if !ok {
			return false
		}
		if len(v) > 0 {
			d.attrs = append(d.attrs, decode.AttrKV{Key: name, Val: d.strs.Get(v)})
		}
	}
	d.ev.Attrs = d.maps.Get(d.attrs)
	sink.Event(n, raw, &d.ev)
	return true
}

// clearEvent readies d.ev for line n: the fields the fast path sets are
// cleared (the others stay zero), the input's fields set. The sink copies
// the event it is given, so d.ev is reused.
func (d *nginxFast) clearEvent(in *decode.Input, n int64) {
	ev := &d.ev
	if ev.Format == "" {
		*ev = schema.Event{Source: schema.SourceProxy, Format: "nginx", Clock: schema.ClockWall}
	}
	ev.Host, ev.InputFile, ev.InputLine = in.Host, in.Name, n
	ev.Status, ev.Error, ev.Completed = nil, "", nil
	ev.StartNs, ev.HeadersNs, ev.EndNs, ev.ConnectNs = nil, nil, nil, nil
	ev.Endpoint, ev.RequestID, ev.TraceID, ev.OtherIDs, ev.Attrs = "", "", "", nil, nil
}

// nginxErrorShape reports whether line may be an nginx error-log line
// ("2026/11/23 10:00:00 [error] "): those go to the general route.
func nginxErrorShape(line []byte) bool {
	return len(line) >= 20 && line[4] == '/' && line[7] == '/' && line[10] == ' ' && line[13] == ':'
}

// raw returns the value of variable k as matched, nil when absent.
func (d *nginxFast) raw(k int) []byte {
	if i := d.plan.at[k]; i >= 0 {
		return d.cur[d.vals[i].lo:d.vals[i].hi]
	}
	return nil
}

// value is nginxValue: the value of variable k, nil when absent or "-";
// ok is false when it holds an escape, which the general route undoes.
func (d *nginxFast) value(k int) ([]byte, bool) {
	return d.valueAt(d.plan.at[k])
}

func (d *nginxFast) valueAt(i int) ([]byte, bool) {
	if i < 0 {
		return nil, true
	}
	v := d.cur[d.vals[i].lo:d.vals[i].hi]
	if len(v) == 1 && v[0] == '-' {
		return nil, true
	}
	return v, d.plain || bytes.IndexByte(v, '\\') < 0
}

// status is nginxStatus for the common case: absent, "-" or a code up to 999.
func (d *nginxFast) status() bool {
	s := d.raw(ngStatus)
	if len(s) == 0 || len(s) == 1 && s[0] == '-' {
		return true
	}
	code, ok := textscan.Digits(s)
	if !ok || code > 999 {
		return false
	}
	d.ev.Status = d.arena.Int32(int32(code))
	d.ev.Error = decode.ErrorClass(int(code))
	d.ev.Completed = d.arena.Bool(code >= 200 && code < 300)
	return true
}
