package analyze

// instantError is how far a logged instant may lie from the true one on the
// same clock: logged − true ∈ [lo, hi], ns.
type instantError struct{ lo, hi int64 }

// logErrors is the error of each instant a log format gives.
type logErrors struct{ start, first, end instantError }

// spread is the widest error range of the three instants, ns.
func (e logErrors) spread() int64 {
	return max(e.start.hi-e.start.lo, e.first.hi-e.first.lo, e.end.hi-e.end.lo)
}

// Indices into logErrorTable.
const (
	errsMicro uint8 = iota
	errsExact
	errsNginx
	errsEnvoy
	errsHAProxy
	errsHAR
)

const msErr = 1_000_000 // one millisecond, ns

// logErrorTable gives, per class of log format, how its logged instants may
// differ from the true ones:
//   - micro: the formats printing microseconds, rounded or truncated: ±1 µs.
//   - exact: OTLP and GenAI-Perf give nanoseconds.
//   - nginx: $msec (end) is the time truncated to the ms, and start =
//     $msec − $request_time where $request_time is the difference of two
//     ms-truncated times, so start is the true start truncated: both lie
//     within (−1 ms, 0]. nginx logs no first token.
//   - Envoy: %START_TIME% is truncated to the ms, and every other instant is
//     START_TIME plus a duration truncated to the ms separately (DURATION,
//     COMMON_DURATION from DS_RX_BEG), or plus two of them (RESPONSE_DURATION
//   - RESPONSE_TX_DURATION when DURATION is absent): start within
//     (−1 ms, 0], first token within (−2 ms, 0], end within (−3 ms, 0].
//   - HAProxy: the accept date is truncated to the ms and end = accept + Ta
//     (ms, truncated): start within (−1 ms, 0], end within (−2 ms, 0].
//   - HAR: startedDateTime in ms and durations in ms, rounded or truncated
//     by the browser: start ±1 ms, the others ±2 ms.
var logErrorTable = [...]logErrors{
	errsMicro:   {start: instantError{-1_000, 1_000}, first: instantError{-1_000, 1_000}, end: instantError{-1_000, 1_000}},
	errsExact:   {},
	errsNginx:   {start: instantError{-msErr, 0}, first: instantError{-msErr, 0}, end: instantError{-msErr, 0}},
	errsEnvoy:   {start: instantError{-msErr, 0}, first: instantError{-2 * msErr, 0}, end: instantError{-3 * msErr, 0}},
	errsHAProxy: {start: instantError{-msErr, 0}, first: instantError{-2 * msErr, 0}, end: instantError{-2 * msErr, 0}},
	errsHAR:     {start: instantError{-msErr, msErr}, first: instantError{-2 * msErr, 2 * msErr}, end: instantError{-2 * msErr, 2 * msErr}},
}

// formatErrors returns the logErrorTable index of a format.
func formatErrors(format string) uint8 {
	switch format {
	case "nginx":
		return errsNginx
	case "envoy":
		return errsEnvoy
	case "haproxy":
		return errsHAProxy
	case "har":
		return errsHAR
	case "otlp", "genai-perf":
		return errsExact
	}
	return errsMicro
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
func offsetLimits(o, i *joinObs, firstOrdered bool) (lo int64, hasLo bool, up int64, hasUp bool) {
	eo, ei := &logErrorTable[o.errs], &logErrorTable[i.errs]
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
