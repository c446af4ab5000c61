package schema

// Rounding values: how a log turns a true instant into the value it prints.
const (
	RoundingExact     = "exact"     // nanoseconds as measured
	RoundingTruncated = "truncated" // cut down to the resolution: logged early, never late
	RoundingRounded   = "rounded"   // to the nearest multiple of the resolution
	RoundingEither    = "either"    // rounded or truncated, the log does not say which
)

// InstantError is how far one logged instant of a format may lie from the
// true instant on the same clock: logged − true ∈ [LowNs, HighNs]. An
// instant a log derives from several printed values (nginx's start is
// $msec − $request_time, Envoy's end START_TIME + DURATION) adds their
// errors. ResolutionNs is the coarsest unit among those values (0 for
// exact instants).
type InstantError struct {
	ResolutionNs int64  `json:"resolution_ns"`
	Rounding     string `json:"rounding"`
	LowNs        int64  `json:"low_ns"`
	HighNs       int64  `json:"high_ns"`
}

// InstantErrors are the errors of the three instants that reconciliation
// uses: start, first token and end. Each format declares them per input
// (ingest.Format.InstantErrors); the dataset keeps them in the input's
// commit-log entry, so analysis never needs to know format names.
type InstantErrors struct {
	Start InstantError `json:"start"`
	First InstantError `json:"first_token"`
	End   InstantError `json:"end"`
}

// Exact is the error of an instant logged in nanoseconds as measured.
func Exact() InstantError { return InstantError{Rounding: RoundingExact} }

// Truncated is the error of an instant printed in units of resolutionNs
// and cut down to them: it lies in [−resolutionNs, 0].
func Truncated(resolutionNs int64) InstantError {
	return InstantError{ResolutionNs: resolutionNs, Rounding: RoundingTruncated, LowNs: -resolutionNs}
}

// Rounded is the error of an instant printed in units of resolutionNs,
// rounded to the nearest: it lies in [−resolutionNs/2, resolutionNs/2].
func Rounded(resolutionNs int64) InstantError {
	return InstantError{ResolutionNs: resolutionNs, Rounding: RoundingRounded, LowNs: -resolutionNs / 2, HighNs: resolutionNs / 2}
}

// EitherRounding is the error of an instant printed in units of
// resolutionNs by a writer that may round or truncate: [−resolutionNs,
// resolutionNs].
func EitherRounding(resolutionNs int64) InstantError {
	return InstantError{ResolutionNs: resolutionNs, Rounding: RoundingEither, LowNs: -resolutionNs, HighNs: resolutionNs}
}

// Plus is the error of an instant a log builds from two printed values
// that contribute errors e and f to it: the ranges add. The rounding is
// the one both share, else "either"; the resolution is the coarser.
func (e InstantError) Plus(f InstantError) InstantError {
	r := e.Rounding
	switch {
	case e.Rounding == RoundingExact:
		r = f.Rounding
	case f.Rounding != RoundingExact && f.Rounding != e.Rounding:
		r = RoundingEither
	}
	return InstantError{ResolutionNs: max(e.ResolutionNs, f.ResolutionNs), Rounding: r,
		LowNs: e.LowNs + f.LowNs, HighNs: e.HighNs + f.HighNs}
}

// Bias is the mean of logged − true over the range, ns, assuming the true
// instant falls anywhere within a unit: −resolution/2 for one truncation,
// 0 for rounded and exact instants. Subtracting it de-biases the instant.
func (e InstantError) Bias() int64 { return (e.LowNs + e.HighNs) / 2 }

// Union is the smallest range holding both e's and f's: the error of an
// instant that may come from either.
func (e InstantError) Union(f InstantError) InstantError {
	u := InstantError{ResolutionNs: max(e.ResolutionNs, f.ResolutionNs), Rounding: e.Rounding,
		LowNs: min(e.LowNs, f.LowNs), HighNs: max(e.HighNs, f.HighNs)}
	if e.Rounding != f.Rounding {
		u.Rounding = RoundingEither
	}
	return u
}

// Union is the instant-wise union of a's and b's errors.
func (a InstantErrors) Union(b InstantErrors) InstantErrors {
	return InstantErrors{Start: a.Start.Union(b.Start), First: a.First.Union(b.First), End: a.End.Union(b.End)}
}

// SameErrors is the InstantErrors of a format whose three instants share
// one error e.
func SameErrors(e InstantError) InstantErrors { return InstantErrors{Start: e, First: e, End: e} }
