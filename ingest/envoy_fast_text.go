package ingest

import (
	"bytes"
)

// envoyTextPlan is a format string compiled for the fast path: its tokens
// with each operator compiled and the literal that ends its value.
type envoyTextPlan []envoyTextToken

// envoyTextToken is a literal (op == nil) or an operator of a format.
type envoyTextToken struct {
	lit      []byte
	afterOp  bool // the literal follows an operator, whose match found it already
	op       *envoyFastOp
	next     []byte // the literal that ends the operator's value (" " before another operator); nil at the end
	maySpace bool   // the value may hold spaces (see envoyMaySpace)
}

// newEnvoyTextPlan compiles f for the fast path.
func newEnvoyTextPlan(f envoyFormat) envoyTextPlan {
	p := make(envoyTextPlan, len(f))
	for i, t := range f {
		if t.op == nil {
			p[i].lit, p[i].afterOp = []byte(t.lit), i > 0
			continue
		}
		p[i].op, p[i].maySpace = compileEnvoyOp(*t.op), envoyMaySpace(f, i)
		if i+1 < len(f) {
			p[i].next = []byte(" ")
			if f[i+1].op == nil {
				p[i].next = []byte(f[i+1].lit)
			}
		}
	}
	return p
}

// match is envoyFormat.match over line bytes: it appends the operators'
// values to vals[:0].
func (p envoyTextPlan) match(line []byte, vals []envoyFastValue) ([]envoyFastValue, bool) {
	vals = vals[:0]
	pos := 0
	for i := range p {
		t := &p[i]
		if t.op == nil {
			if !t.afterOp && !bytes.HasPrefix(line[pos:], t.lit) {
				return vals, false
			}
			pos += len(t.lit)
			continue
		}
		end, first := len(line), false
		if t.next != nil {
			k, f := indexLiteral(line[pos:], t.next)
			if k < 0 {
				return vals, false
			}
			end, first = pos+k, f
		}
		v := line[pos:end]
		// Text up to the first space holds no space.
		if !t.maySpace && !(first && t.next[0] == ' ') && bytes.IndexByte(v, ' ') >= 0 {
			return vals, false
		}
		if len(v) == 1 && v[0] == '-' {
			v = nil
		}
		vals = append(vals, envoyFastValue{t.op, v})
		pos = end
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
func (d *envoyTextFast) line(in *Input, sink Sink, n int64, text []byte) bool {
	if len(text) == 0 || !asciiGraphic(text[0]) {
		return false // maybe blank
	}
	for _, p := range d.plans {
		vals, ok := p.match(text, d.vals)
		d.vals = vals
		if ok {
			return d.emit(in, sink, n, text, vals)
		}
	}
	return false
}
