package schema

// InputStats accounts for one input of one ingest call: every record read is
// an event, a duplicate, a skip or a reject, so
// Records + Duplicates + Skipped + Rejected == Read.
// A dataset keeps them in its manifest so that analyze can report them.
type InputStats struct {
	Path       string `json:"path"`
	Format     string `json:"format"`
	Host       string `json:"host"`
	Read       int64  `json:"read"`       // lines (or JSON records) read
	Records    int64  `json:"records"`    // request records kept as events
	Rejected   int64  `json:"rejected"`   // records that could not be decoded
	Duplicates int64  `json:"duplicates"` // exact repeats of an earlier record of the same input
	Skipped    int64  `json:"skipped"`    // lines that are not request records
	Truncated  bool   `json:"truncated"`  // a compressed file ended early; what was readable was kept
	// Clock is the clock of the input's events (wall, steady, relative).
	Clock string `json:"clock,omitempty"`
	// Error is why the input could not be read at all, or nil.
	Error *string `json:"error"`
	// RejectsByReason counts the rejects by their reason.
	RejectsByReason map[string]int64 `json:"rejects_by_reason,omitempty"`
}

// Reject is one rejected record, kept in the dataset's rejects file.
type Reject struct {
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}
