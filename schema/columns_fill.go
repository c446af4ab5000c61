package schema

import (
	"bytes"
	"fmt"
)

// fillRows stores a row group's columns (in eventColumns order) into rows.
func fillRows(rows []Event, cols []*column) error {
	for c, col := range cols {
		var err error
		switch name := eventColumns[c][0]; name {
		case "other_ids", "chunk_offsets_ns", "chunk_tokens":
			err = fillList(rows, name, col)
		case "attrs":
			if eventColumns[c][2] == "key" {
				err = fillAttrs(rows, col, cols[c+1])
			}
		default:
			err = fillScalar(rows, name, col)
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", eventColumns[c][0], err)
		}
	}
	return nil
}

// scalarSetters store the k-th present value of a column into an event, by
// column name.
var scalarSetters = map[string]func(e *Event, col *column, k int){
	"source":               func(e *Event, col *column, k int) { e.Source = col.str[k] },
	"format":               func(e *Event, col *column, k int) { e.Format = col.str[k] },
	"host":                 func(e *Event, col *column, k int) { e.Host = col.str[k] },
	"clock":                func(e *Event, col *column, k int) { e.Clock = col.str[k] },
	"request_id":           func(e *Event, col *column, k int) { e.RequestID = col.str[k] },
	"trace_id":             func(e *Event, col *column, k int) { e.TraceID = col.str[k] },
	"span_id":              func(e *Event, col *column, k int) { e.SpanID = col.str[k] },
	"response_id":          func(e *Event, col *column, k int) { e.ResponseID = col.str[k] },
	"model":                func(e *Event, col *column, k int) { e.Model = col.str[k] },
	"endpoint":             func(e *Event, col *column, k int) { e.Endpoint = col.str[k] },
	"status":               func(e *Event, col *column, k int) { e.Status = &col.i32[k] },
	"error_class":          func(e *Event, col *column, k int) { e.Error = col.str[k] },
	"stream":               func(e *Event, col *column, k int) { e.Stream = &col.bools[k] },
	"completed":            func(e *Event, col *column, k int) { e.Completed = &col.bools[k] },
	"prompt_tokens":        func(e *Event, col *column, k int) { e.PromptTokens = &col.i64[k] },
	"prompt_tokens_source": func(e *Event, col *column, k int) { e.PromptTokensSource = col.str[k] },
	"output_tokens":        func(e *Event, col *column, k int) { e.OutputTokens = &col.i64[k] },
	"output_tokens_source": func(e *Event, col *column, k int) { e.OutputTokensSource = col.str[k] },
	"start_ns":             func(e *Event, col *column, k int) { e.StartNs = &col.i64[k] },
	"headers_ns":           func(e *Event, col *column, k int) { e.HeadersNs = &col.i64[k] },
	"first_token_ns":       func(e *Event, col *column, k int) { e.FirstTokenNs = &col.i64[k] },
	"last_token_ns":        func(e *Event, col *column, k int) { e.LastTokenNs = &col.i64[k] },
	"end_ns":               func(e *Event, col *column, k int) { e.EndNs = &col.i64[k] },
	"queue_ns":             func(e *Event, col *column, k int) { e.QueueNs = &col.i64[k] },
	"prefill_ns":           func(e *Event, col *column, k int) { e.PrefillNs = &col.i64[k] },
	"decode_ns":            func(e *Event, col *column, k int) { e.DecodeNs = &col.i64[k] },
	"inference_ns":         func(e *Event, col *column, k int) { e.InferenceNs = &col.i64[k] },
	"validation_ns":        func(e *Event, col *column, k int) { e.ValidationNs = &col.i64[k] },
	"connect_ns":           func(e *Event, col *column, k int) { e.ConnectNs = &col.i64[k] },
	"time_per_token_ns":    func(e *Event, col *column, k int) { e.TimePerTokenNs = &col.i64[k] },
	"input_file":           func(e *Event, col *column, k int) { e.InputFile = col.str[k] },
	"input_line":           func(e *Event, col *column, k int) { e.InputLine = col.i64[k] },
}

// fillScalar stores a column of one value per row (required, or optional
// with definition level 1 when present). Pointer fields point into the
// column's value slice, one element per event.
func fillScalar(rows []Event, name string, col *column) error {
	set, ok := scalarSetters[name]
	if !ok || col.rep != nil || col.levels != len(rows) {
		return errLayout
	}
	k := 0
	for r := range rows {
		if col.def != nil && col.def[r] == 0 {
			continue
		}
		if k >= col.values() {
			return errLayout
		}
		set(&rows[r], col, k)
		k++
	}
	if k != col.values() {
		return errLayout
	}
	return nil
}

// values returns the number of present values the column holds.
func (col *column) values() int {
	return len(col.i64) + len(col.i32) + len(col.str) + len(col.bools)
}

// lists calls set(r, lo, hi) for every row r with the present values
// [lo, hi) of a list column (repetition level 0 starts a row, definition
// level 1 marks a present element, 0 an empty list, for which lo = hi).
func (col *column) lists(rows int, set func(r, lo, hi int)) error {
	if col.rep == nil || col.def == nil {
		return errLayout
	}
	r, k, lo := -1, 0, 0
	for i := range col.levels {
		if col.rep[i] == 0 {
			if r >= 0 {
				set(r, lo, k)
			}
			r, lo = r+1, k
			if r >= rows {
				return errLayout
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
		return errLayout
	}
	return nil
}

// fillList stores a list column; each event's list is a capacity-limited
// window of the column's value slice, and an empty list is empty, not nil,
// as parquet-go's row reader gives it.
func fillList(rows []Event, name string, col *column) error {
	return col.lists(len(rows), func(r, lo, hi int) {
		switch name {
		case "other_ids":
			rows[r].OtherIDs = window(col.str, lo, hi)
		case "chunk_offsets_ns":
			rows[r].ChunkOffsetsNs = window(col.i64, lo, hi)
		case "chunk_tokens":
			rows[r].ChunkTokens = window(col.i32, lo, hi)
		}
	})
}

// window returns s[lo:hi] with its capacity cut at hi (an append to it
// cannot overwrite the next event's list), and an empty, non-nil slice for
// lo = hi.
func window[T any](s []T, lo, hi int) []T {
	if lo == hi {
		return []T{}
	}
	return s[lo:hi:hi]
}

// fillAttrs stores the attrs map from its key and value columns.
func fillAttrs(rows []Event, keys, vals *column) error {
	if keys.values() != len(keys.str) || vals.values() != len(vals.str) || len(keys.str) != len(vals.str) ||
		!bytes.Equal(keys.rep, vals.rep) || !bytes.Equal(keys.def, vals.def) {
		return errLayout
	}
	return keys.lists(len(rows), func(r, lo, hi int) {
		m := make(map[string]string, hi-lo)
		for j := lo; j < hi; j++ {
			m[keys.str[j]] = vals.str[j]
		}
		rows[r].Attrs = m
	})
}
