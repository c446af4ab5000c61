package dataset

import "github.com/ttftrace/ttftrace/schema"

// fillInstantErrors gives each input read from a commit log or manifest
// written before formats declared their instants' errors (InputStats
// without instant_errors) the errors its format had at that time, so that
// old datasets are analysed as they were. New inputs always carry their
// own; this table is frozen and never grows with new formats.
func fillInstantErrors(inputs []schema.InputStats) {
	for k := range inputs {
		if inputs[k].InstantErrors == nil {
			e := legacyInstantErrors(inputs[k].Format)
			inputs[k].InstantErrors = &e
		}
	}
}

// legacyInstantErrors returns the errors that ttftrace assumed for a
// format's instants before they were recorded on the data (schema version
// 1 datasets): ms-truncated nginx, Envoy and HAProxy, ms HAR rounded or
// truncated, exact OTLP and GenAI-Perf, ±1 µs for the rest.
func legacyInstantErrors(format string) schema.InstantErrors {
	ms := schema.Truncated(1_000_000)
	switch format {
	case "nginx":
		return schema.SameErrors(ms)
	case "envoy":
		return schema.InstantErrors{Start: ms, First: ms.Plus(ms), End: ms.Plus(ms).Plus(ms)}
	case "haproxy":
		return schema.InstantErrors{Start: ms, First: ms.Plus(ms), End: ms.Plus(ms)}
	case "har":
		e := schema.EitherRounding(1_000_000)
		return schema.InstantErrors{Start: e, First: e.Plus(e), End: e.Plus(e)}
	case "otlp", "genai-perf":
		return schema.SameErrors(schema.Exact())
	}
	return schema.SameErrors(schema.EitherRounding(1_000))
}
