package dataset

import (
	"bytes"
	"fmt"

	"github.com/ttftrace/ttftrace/schema"
)

// fillEvents stores a row group's columns (in decodeLeaves order) into rows.
func fillEvents(rows []schema.Event, cols []*eventColumn) error {
	for c, col := range cols {
		var err error
		switch name := decodeLeaves[c][0]; name {
		case "other_ids", "chunk_offsets_ns", "chunk_tokens":
			err = fillEventList(rows, name, col)
		case "attrs":
			if decodeLeaves[c][2] == "key" {
				err = fillEventAttrs(rows, col, cols[c+1])
			}
		default:
			err = fillEventScalar(rows, name, col)
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", decodeLeaves[c][0], err)
		}
	}
	return nil
}

// eventSetters store the k-th present value of a column into an event, by
// column name.
var eventSetters = map[string]func(e *schema.Event, col *eventColumn, k int){
	"source":               func(e *schema.Event, col *eventColumn, k int) { e.Source = col.str[k] },
	"format":               func(e *schema.Event, col *eventColumn, k int) { e.Format = col.str[k] },
	"host":                 func(e *schema.Event, col *eventColumn, k int) { e.Host = col.str[k] },
	"clock":                func(e *schema.Event, col *eventColumn, k int) { e.Clock = col.str[k] },
	"request_id":           func(e *schema.Event, col *eventColumn, k int) { e.RequestID = col.str[k] },
	"trace_id":             func(e *schema.Event, col *eventColumn, k int) { e.TraceID = col.str[k] },
	"span_id":              func(e *schema.Event, col *eventColumn, k int) { e.SpanID = col.str[k] },
	"response_id":          func(e *schema.Event, col *eventColumn, k int) { e.ResponseID = col.str[k] },
	"model":                func(e *schema.Event, col *eventColumn, k int) { e.Model = col.str[k] },
	"endpoint":             func(e *schema.Event, col *eventColumn, k int) { e.Endpoint = col.str[k] },
	"status":               func(e *schema.Event, col *eventColumn, k int) { e.Status = &col.i32[k] },
	"error_class":          func(e *schema.Event, col *eventColumn, k int) { e.Error = col.str[k] },
	"stream":               func(e *schema.Event, col *eventColumn, k int) { e.Stream = &col.bools[k] },
	"completed":            func(e *schema.Event, col *eventColumn, k int) { e.Completed = &col.bools[k] },
	"prompt_tokens":        func(e *schema.Event, col *eventColumn, k int) { e.PromptTokens = &col.i64[k] },
	"prompt_tokens_source": func(e *schema.Event, col *eventColumn, k int) { e.PromptTokensSource = col.str[k] },
	"output_tokens":        func(e *schema.Event, col *eventColumn, k int) { e.OutputTokens = &col.i64[k] },
	"output_tokens_source": func(e *schema.Event, col *eventColumn, k int) { e.OutputTokensSource = col.str[k] },
	"start_ns":             func(e *schema.Event, col *eventColumn, k int) { e.StartNs = &col.i64[k] },
	"headers_ns":           func(e *schema.Event, col *eventColumn, k int) { e.HeadersNs = &col.i64[k] },
	"first_token_ns":       func(e *schema.Event, col *eventColumn, k int) { e.FirstTokenNs = &col.i64[k] },
	"last_token_ns":        func(e *schema.Event, col *eventColumn, k int) { e.LastTokenNs = &col.i64[k] },
	"end_ns":               func(e *schema.Event, col *eventColumn, k int) { e.EndNs = &col.i64[k] },
	"queue_ns":             func(e *schema.Event, col *eventColumn, k int) { e.QueueNs = &col.i64[k] },
	"prefill_ns":           func(e *schema.Event, col *eventColumn, k int) { e.PrefillNs = &col.i64[k] },
	"decode_ns":            func(e *schema.Event, col *eventColumn, k int) { e.DecodeNs = &col.i64[k] },
	"inference_ns":         func(e *schema.Event, col *eventColumn, k int) { e.InferenceNs = &col.i64[k] },
	"validation_ns":        func(e *schema.Event, col *eventColumn, k int) { e.ValidationNs = &col.i64[k] },
	"connect_ns":           func(e *schema.Event, col *eventColumn, k int) { e.ConnectNs = &col.i64[k] },
	"time_per_token_ns":    func(e *schema.Event, col *eventColumn, k int) { e.TimePerTokenNs = &col.i64[k] },
	"input_file":           func(e *schema.Event, col *eventColumn, k int) { e.InputFile = col.str[k] },
	"input_line":           func(e *schema.Event, col *eventColumn, k int) { e.InputLine = col.i64[k] },
}

// fillEventScalar stores a column of one value per row (required, or optional
// with definition level 1 when present). Pointer fields point into the
// column's value slice, one element per event.
func fillEventScalar(rows []schema.Event, name string, col *eventColumn) error {
	set, ok := eventSetters[name]
	if !ok || col.rep != nil || col.levels != len(rows) {
		return errEventLayout
	}
	k := 0
	for r := range rows {
		if col.def != nil && col.def[r] == 0 {
			continue
		}
		if k >= col.values() {
			return errEventLayout
		}
		set(&rows[r], col, k)
		k++
	}
	if k != col.values() {
		return errEventLayout
	}
	return nil
}

// values returns the number of present values the column holds.
func (col *eventColumn) values() int {
	return len(col.i64) + len(col.i32) + len(col.str) + len(col.bools)
}

// lists calls set(r, lo, hi) for every row r with the present values
// [lo, hi) of a list column (repetition level 0 starts a row, definition
// level 1 marks a present element, 0 an empty list, for which lo = hi).
func (col *eventColumn) lists(rows int, set func(r, lo, hi int)) error {
	if col.rep == nil || col.def == nil {
		return errEventLayout
	}
	r, k, lo := -1, 0, 0
	for i := range col.levels {
		if col.rep[i] == 0 {
			if r >= 0 {
				set(r, lo, k)
			}
			r, lo = r+1, k
			if r >= rows {
				return errEventLayout
			}
		}
		if col.def[i] == 1 {
			k++
		}
	}
	if r >= 0 {
		set(r, lo, k)
	}
	if r+1 != rows || k != col.values() {
		return errEventLayout
	}
	return nil
}

// fillEventList stores a list column; each event's list is a capacity-limited
// window of the column's value slice, and an empty list is empty, not nil,
// as parquet-go's row reader gives it.
func fillEventList(rows []schema.Event, name string, col *eventColumn) error {
	return col.lists(len(rows), func(r, lo, hi int) {
		switch name {
		case "other_ids":
			rows[r].OtherIDs = eventWindow(col.str, lo, hi)
		case "chunk_offsets_ns":
			rows[r].ChunkOffsetsNs = eventWindow(col.i64, lo, hi)
		case "chunk_tokens":
			rows[r].ChunkTokens = eventWindow(col.i32, lo, hi)
		}
	})
}

// window returns s[lo:hi] with its capacity cut at hi (an append to it
// cannot overwrite the next event's list), and an empty, non-nil slice for
// lo = hi.
func eventWindow[T any](s []T, lo, hi int) []T {
	if lo == hi {
		return []T{}
	}
	return s[lo:hi:hi]
}

// fillEventAttrs stores the attrs map from its key and value columns.
func fillEventAttrs(rows []schema.Event, keys, vals *eventColumn) error {
	if keys.values() != len(keys.str) || vals.values() != len(vals.str) || len(keys.str) != len(vals.str) ||
		!bytes.Equal(keys.rep, vals.rep) || !bytes.Equal(keys.def, vals.def) {
		return errEventLayout
	}
	return keys.lists(len(rows), func(r, lo, hi int) {
		m := make(map[string]string, hi-lo)
		for j := lo; j < hi; j++ {
			m[keys.str[j]] = vals.str[j]
		}
		rows[r].Attrs = m
	})
}
