package reconcile

import (
	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// instantError is how far an instant, as the joins read it, may lie from
// the true one on the same clock: read − true ∈ [lo, hi], ns. The joins
// read each logged instant less bias, the mean of its declared error
// range (schema.InstantError.Bias): a truncated instant is moved half its
// resolution later (nginx's start and end, Envoy's and HAProxy's, by 0.5 ms
// per truncated term), so that it is unbiased and its range [lo, hi] is
// symmetric; rounded and exact instants are read as logged.
type instantError struct{ lo, hi, bias int64 }

// logErrors is the error of each instant a log format gives.
type logErrors struct{ start, first, end instantError }

// spread is the widest error range of the three instants, ns; a nil e is
// defaultErrors.
func (e *logErrors) spread() int64 {
	e = e.or()
	return max(e.start.hi-e.start.lo, e.first.hi-e.first.lo, e.end.hi-e.end.lo)
}

// or returns e, or defaultErrors when e is nil.
func (e *logErrors) or() *logErrors {
	if e == nil {
		return &defaultErrors
	}
	return e
}

// defaultErrors is the error of a row whose input declares none (events
// analysed without their inputs): ±1 µs per instant, what a log printing
// microseconds allows.
var defaultErrors = logErrorsOf(schema.SameErrors(schema.EitherRounding(1_000)))

// logErrorsOf returns the errors an input declared, ns.
func logErrorsOf(e schema.InstantErrors) logErrors {
	r := func(x schema.InstantError) instantError {
		b := x.Bias()
		return instantError{x.LowNs - b, x.HighNs - b, b}
	}
	return logErrors{start: r(e.Start), first: r(e.First), end: r(e.End)}
}

// inputErrors returns, per code of c.InputFile, the errors of the logged
// instants of that input's rows as the input's format declared them
// (schema.InputStats.InstantErrors): analysis never looks at format names.
// Two inputs of one path with different errors (one file read twice, with
// two --log-format values) give their union; a row whose input is not in
// inputs, or declares nothing, gets defaultErrors.
func inputErrors(c *dataset.Columns, inputs []schema.InputStats) []*logErrors {
	byPath := map[string]schema.InstantErrors{}
	for _, in := range inputs {
		if in.InstantErrors == nil {
			continue
		}
		e := *in.InstantErrors
		if prev, ok := byPath[in.Path]; ok {
			e = prev.Union(e)
		}
		byPath[in.Path] = e
	}
	out := make([]*logErrors, len(c.InputFile.Values))
	for code, path := range c.InputFile.Values {
		out[code] = &defaultErrors
		if e, ok := byPath[path]; ok {
			le := logErrorsOf(e)
			out[code] = &le
		}
	}
	return out
}

// offsetLimits returns the bounds one joined request gives on θ = inner
// clock − outer clock, widened by exactly what each logged instant's error
// allows. The true instants satisfy θ ≤ inner.start − outer.start and θ ≥
// inner.end − outer.end (and inner.first − outer.first when ordered); a
// true instant is the logged one minus its error, so the loosest bounds are
//
//	up = (Li.start − Lo.start) − lo(inner start) + hi(outer start)
//	lo = (Li.end − Lo.end) − hi(inner end) + lo(outer end)
//
// For example an Envoy proxy (end error in (−3 ms, 0]) outside an OTLP
// server (exact) loosens the end bound by 3 ms, while an Envoy proxy inside
// a client (µs) loosens it by only the client's 1 µs: a truncated inner end
// is logged early, so the logged bound already lies below the true one.
// Li and Lo are the instants as read (de-biased) and lo, hi their ranges,
// moved alike (instantError): the bounds are those of the logged instants.
func offsetLimits(o, i *joinObs, firstOrdered bool) (lo int64, hasLo bool, up int64, hasUp bool) {
	eo, ei := o.errs.or(), i.errs.or()
	if o.has&i.has&obsHasEnd != 0 {
		lo, hasLo = i.end-o.end-ei.end.hi+eo.end.lo, true
	}
	if firstOrdered && o.has&i.has&obsHasFirst != 0 {
		if f := i.first - o.first - ei.first.hi + eo.first.lo; !hasLo || f > lo {
			lo, hasLo = f, true
		}
	}
	if o.has&i.has&obsHasStart != 0 {
		up, hasUp = i.start-o.start-ei.start.lo+eo.start.hi, true
	}
	return lo, hasLo, up, hasUp
}
