package report

import (
	"strings"

	"github.com/ttftrace/ttftrace/analyze"
)

// warningRow is one data-quality warning, cut into text and the code spans
// its message quotes in backticks (flags, log variables).
type warningRow struct {
	Parts []textPart
}

// textPart is plain text, or code when Code is set; the template escapes
// both.
type textPart struct {
	Text string
	Code bool
}

// buildWarnings renders the analysis' warnings in their order; it computes
// nothing (analyze.RunColumns does).
func buildWarnings(ws []analyze.Warning) []warningRow {
	var rows []warningRow
	for _, w := range ws {
		rows = append(rows, warningRow{Parts: splitCode(w.Message)})
	}
	return rows
}

// splitCode cuts s at backticks: the odd pieces are code. An unpaired
// backtick is kept as text.
func splitCode(s string) []textPart {
	pieces := strings.Split(s, "`")
	if len(pieces)%2 == 0 { // an odd number of backticks: show them as written
		return []textPart{{Text: s}}
	}
	var parts []textPart
	for i, p := range pieces {
		if p != "" {
			parts = append(parts, textPart{Text: p, Code: i%2 == 1})
		}
	}
	return parts
}
