package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
)

// Warning is a data-quality problem that leaves figures wrong or missing,
// said with what to do about it. The command line prints every warning on
// standard error and the report shows them first.
type Warning struct {
	// Kind is stable: "input_rejects", "input_empty", "input_truncated",
	// "no_timing", "host_merged", "by_unknown_key", "by_no_value".
	Kind string `json:"kind"`
	// Input is the path of the input the warning is about; "" when it is
	// about several or none.
	Input string `json:"input,omitempty"`
	// Message says what is wrong, how much, and what to do, in one or two
	// sentences.
	Message string `json:"message"`
}

// Warning kinds.
const (
	WarnInputRejects   = "input_rejects"
	WarnInputEmpty     = "input_empty"
	WarnInputTruncated = "input_truncated"
	WarnNoTiming       = "no_timing"
	WarnHostMerged     = "host_merged"
	WarnByUnknownKey   = "by_unknown_key"
	WarnByNoValue      = "by_no_value"
)

// warnings computes the data-quality warnings of an analysis of the events
// of c: the inputs' counts (InputWarnings), the events lacking the fields a
// figure needs, inputs of different machines merged into one host, and --by
// keys the data does not have. The order is deterministic: input warnings
// in input order, then timing warnings in input order, host warnings by
// host name, --by warnings in option order. c must have been read with
// ColumnsOptions(opts).
func warnings(c *dataset.Columns, inputs []schema.InputStats, opts Options) []Warning {
	ws := InputWarnings(inputs)
	ws = append(ws, timingWarnings(c, inputs)...)
	ws = append(ws, hostWarnings(c, inputs)...)
	return append(ws, byWarnings(c, opts.By)...)
}

// InputWarnings computes the warnings the inputs' counts alone show (ingest
// prints them without analysing): over half an input's records rejected,
// an empty input, a truncated compressed input. An input that could not
// be read gives none: its error says why.
func InputWarnings(inputs []schema.InputStats) []Warning {
	ws := []Warning{}
	for _, in := range inputs {
		switch {
		case in.Error != nil:
			continue
		case in.Read == 0:
			ws = append(ws, Warning{WarnInputEmpty, in.Path,
				fmt.Sprintf("%s: empty, no line read: check it is the log you meant", in.Path)})
		case in.Rejected*2 > in.Read:
			ws = append(ws, Warning{WarnInputRejects, in.Path, rejectsMessage(in)})
		}
		if in.Truncated {
			ws = append(ws, Warning{WarnInputTruncated, in.Path,
				fmt.Sprintf("%s: the compressed file ends early; the records after the cut are missing: copy it again whole", in.Path)})
		}
	}
	return ws
}

// rejectsMessage words the warning of an input most of whose records were
// rejected, naming the commonest reasons.
func rejectsMessage(in schema.InputStats) string {
	pct := in.Rejected * 100 / in.Read
	return fmt.Sprintf("%s: %s of %s records (%d%%) rejected as %s (%s): its figures rest on the few kept; "+
		"check --format and --log-format (ttftrace ingest --strict lists the rejected lines)",
		in.Path, Grouped(in.Rejected), Grouped(in.Read), pct, in.Format, TopReasons(in.RejectsByReason, 3))
}

// TopReasons lists up to n reject reasons with their counts, commonest
// first, ties by name ("bad status: 12, invalid json: 3, …").
func TopReasons(m map[string]int64, n int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
	var parts []string
	for i, k := range keys {
		if i == n {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, k+": "+Grouped(m[k]))
	}
	return strings.Join(parts, ", ")
}

// defaultTimingNote is the note of an input whose format declares none
// (schema.InputStats.TimingNote nil), or of events analysed without their
// inputs.
var defaultTimingNote = schema.TimingNote{Lack: "they have no start instant or no instant after it",
	Fix: "check the settings of the tool that wrote them"}

// timingWarnings warns, per input, of successful requests that give no
// latency figure (no start instant, or no instant after it), with the
// note the input's format declared for the log format it was read with
// (timingNotes): what that log format lacks, naming its fields, and what
// to give instead.
func timingWarnings(c *dataset.Columns, inputs []schema.InputStats) []Warning {
	counts := make([]int64, len(c.InputFile.Values))
	formats := make([]string, len(c.InputFile.Values))
	for i, in := range c.InputFile.Codes {
		if c.Error.At(i) == schema.ErrorNone && !hasLatency(c, i) {
			counts[in]++
			formats[in] = c.Format.At(i) // the last event's, as one per input
		}
	}
	count := map[string]int64{}
	format := map[string]string{}
	for in, n := range counts {
		if n > 0 {
			count[c.InputFile.Values[in]], format[c.InputFile.Values[in]] = n, formats[in]
		}
	}
	notes := timingNotes(inputs)
	ws := []Warning{}
	for _, path := range inputOrder(inputs, count) {
		n, ok := notes[path]
		if !ok {
			n = defaultTimingNote
		}
		ws = append(ws, Warning{WarnNoTiming, path, fmt.Sprintf(
			"%s: %s successful %s records are in no latency figure (they count as succeeded requests): %s: %s",
			path, Grouped(count[path]), format[path], n.Lack, n.Fix)})
	}
	return ws
}

// timingNotes returns the timing note of each input path that has one;
// of one path read twice (two ingests), the first note.
func timingNotes(inputs []schema.InputStats) map[string]schema.TimingNote {
	notes := map[string]schema.TimingNote{}
	for _, in := range inputs {
		if _, seen := notes[in.Path]; !seen && in.TimingNote != nil {
			notes[in.Path] = *in.TimingNote
		}
	}
	return notes
}

// hasLatency reports whether row i gives at least one latency figure: a
// start instant and a later instant or a duration from it.
func hasLatency(c *dataset.Columns, i int) bool {
	if !c.StartNs.Has(i) {
		return false
	}
	return c.HeadersNs.Has(i) || c.FirstTokenNs.Has(i) || c.LastTokenNs.Has(i) || c.EndNs.Has(i)
}

// inputOrder returns the keys of m, inputs' paths first in input order,
// then any other (an event of an input the stats do not list) sorted.
func inputOrder[V any](inputs []schema.InputStats, m map[string]V) []string {
	var out []string
	seen := map[string]bool{}
	for _, in := range inputs {
		if _, ok := m[in.Path]; ok && !seen[in.Path] {
			out = append(out, in.Path)
			seen[in.Path] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// Grouped writes n with thousands separators: 1537 → "1,537".
func Grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
