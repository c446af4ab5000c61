package envoy

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// envoyTextPlan is a format string compiled for the fast path: the
// literal it starts with, then its operators, each with the literal that
// ends its value. Profiling showed the loop over every token (literals
// included, a write-barriered append per value) a fifth of the time; here
// the loop runs once per operator and fills a slice of the right length.
type envoyTextPlan struct {
	prefix []byte
	ops    []envoyTextOp
	never  bool // two literals in a row, which parseEnvoyFormat never gives: the general route decides
}

// envoyTextOp is an operator of a format, compiled.
type envoyTextOp struct {
	op    *envoyFastOp
	next  []byte // the literal that ends the value (" " before another operator); nil at the end
	skip  int    // len(next) when next is the format's literal, 0 for the space before another operator
	space envoySpaceRule
}

// envoySpaceRule says how a value is checked to hold no space.
type envoySpaceRule uint8

const (
	envoySpaceAny   envoySpaceRule = iota // the value may hold spaces (see envoyMaySpace)
	envoySpaceFirst                       // next starts with a space: it must be the value's first
	envoySpaceScan                        // the value is scanned for a space
)

// newEnvoyTextPlan compiles f for the fast path.
func newEnvoyTextPlan(f envoyFormat) envoyTextPlan {
	var p envoyTextPlan
	for i, t := range f {
		if t.op == nil {
			if i == 0 {
				p.prefix = []byte(t.lit)
			} else if f[i-1].op == nil {
				p.never = true
			}
			continue
		}
		o := envoyTextOp{op: compileEnvoyOp(*t.op), space: envoySpaceScan}
		if i+1 < len(f) {
			o.next = []byte(" ")
			if f[i+1].op == nil {
				o.next, o.skip = []byte(f[i+1].lit), len(f[i+1].lit)
			}
		}
		switch {
		case envoyMaySpace(f, i):
			o.space = envoySpaceAny
		case o.next != nil && o.next[0] == ' ':
			o.space = envoySpaceFirst
		}
		p.ops = append(p.ops, o)
	}
	return p
}

// match is envoyFormat.match over line bytes: it returns the operators'
// values in vals, resized.
func (p *envoyTextPlan) match(line []byte, vals []envoyFastValue) ([]envoyFastValue, bool) {
	if p.never || !bytes.HasPrefix(line, p.prefix) {
		return vals, false
	}
	if cap(vals) < len(p.ops) {
		vals = make([]envoyFastValue, len(p.ops))
	}
	vals = vals[:len(p.ops)]
	pos := len(p.prefix)
	for i := range p.ops {
		t := &p.ops[i]
		end, first := len(line), false
		if t.next != nil {
			k, f := textscan.IndexLiteral(line[pos:], t.next)
			if k < 0 {
				return vals, false
			}
			end, first = pos+k, f
		}
		v := line[pos:end]
		switch t.space {
		case envoySpaceFirst:
			if !first {
				return vals, false // the value holds a space
			}
		case envoySpaceScan:
			if bytes.IndexByte(v, ' ') >= 0 {
				return vals, false
			}
		}
		if len(v) == 1 && v[0] == '-' {
			v = nil
		}
		vals[i] = envoyFastValue{t.op, v}
		pos = end + t.skip
	}
	return vals, pos == len(line)
}

// envoyTextFast is the text fast path's state for one input.
type envoyTextFast struct {
	envoyFast
	plans []envoyTextPlan
	vals  []envoyFastValue
}

// line decodes one line by the first format that matches it; it reports
// false, having told sink nothing, when the general route must decide.
func (d *envoyTextFast) line(in *decode.Input, sink decode.Sink, n int64, text []byte) bool {
	if len(text) == 0 || !decode.ASCIIGraphic(text[0]) {
		return false // maybe blank
	}
	for i := range d.plans {
		vals, ok := d.plans[i].match(text, d.vals)
		d.vals = vals
		if ok {
			return d.emit(in, sink, n, text, vals)
		}
	}
	return false
}
