package envoy

import (
	"bytes"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/internal/textscan"
)

// envoyTextPlan is a format string compiled for reading lines: the
// literal it starts with, then its operators, each with the literal that
// ends its value. The loop runs once per operator (not per token) and
// fills a slice of the right length.
type envoyTextPlan struct {
	prefix []byte
	ops    []envoyTextOp
}

// envoyTextOp is an operator of a format, compiled.
type envoyTextOp struct {
	op    *envoyOpPlan
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

// newEnvoyTextPlan compiles f (whose literals parseEnvoyFormat merged, so
// an operator or the end follows each) for reading lines.
func newEnvoyTextPlan(f envoyFormat) envoyTextPlan {
	var p envoyTextPlan
	for i, t := range f {
		if t.op == nil {
			if i == 0 {
				p.prefix = []byte(t.lit)
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

// match splits line by the format's literals and returns the operators'
// values in vals, resized. An operator's value runs to the first
// occurrence of the literal that follows it (to the end of the line for a
// final operator, to the next space between two operators); the whole line
// must be consumed, and unquoted values must be one word (see
// envoyMaySpace). "-" values are made empty.
func (p *envoyTextPlan) match(line []byte, vals []envoyOpValue) ([]envoyOpValue, bool) {
	if !bytes.HasPrefix(line, p.prefix) {
		return vals, false
	}
	if cap(vals) < len(p.ops) {
		vals = make([]envoyOpValue, len(p.ops))
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
		vals[i] = envoyOpValue{t.op, v}
		pos = end + t.skip
	}
	return vals, pos == len(line)
}

// hasStart reports whether the format has a %START_TIME%.
func (p *envoyTextPlan) hasStart() bool {
	for _, o := range p.ops {
		if o.op.code == ecStart {
			return true
		}
	}
	return false
}

// envoyTextReader is the text reader's state for one input.
type envoyTextReader struct {
	envoyReader
	plans  []envoyTextPlan
	vals   []envoyOpValue
	specs  []string       // the format strings
	custom bool           // the user gave the format
	miss   *envoyMismatch // made at the first line no format fits
}

// line decodes one line by the first format that matches it and reports
// it to sink; a line of white space is skipped, one no format matches is
// rejected.
func (d *envoyTextReader) line(in *decode.Input, sink decode.Sink, n int64, text []byte) {
	if len(text) == 0 || !decode.ASCIIGraphic(text[0]) && len(bytes.TrimSpace(text)) == 0 {
		sink.Skip(n, "blank line")
		return
	}
	for i := range d.plans {
		vals, ok := d.plans[i].match(text, d.vals)
		d.vals = vals
		if ok {
			d.emit(in, sink, n, text, vals)
			return
		}
	}
	if d.miss == nil {
		d.miss = newEnvoyMismatch(d.specs, d.custom)
	}
	sink.Reject(decode.At(n), d.miss.reason(text), decode.TruncateDetail(string(text)))
}
