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
	// InstantErrors are how far the input's logged instants may lie from
	// the true ones, as its format declared them; nil in commit logs
	// written before formats declared them (the dataset package fills
	// those in when it reads the log).
	InstantErrors *InstantErrors `json:"instant_errors,omitempty"`
	// PerRunFields name the event fields ("endpoint", "model") the format
	// sets once per run, the same for every request of the input, rather
	// than from each request (GenAI-Perf's endpoint comes from its
	// document): weak evidence, which reconciliation uses only to break
	// ties between equally good time fits, never to refuse one.
	PerRunFields []string `json:"per_run_fields,omitempty"`
	// TimingNote says why the input's successful records may be in no
	// latency figure and what to do, as its format declared it for the log
	// format used; nil for a format that declares none, and in commit logs
	// written before formats declared it (the dataset package fills those
	// in when it reads the log).
	TimingNote *TimingNote `json:"timing_note,omitempty"`
	// Error is why the input could not be read at all, or nil.
	Error *string `json:"error"`
	// RejectsByReason counts the rejects by their reason.
	RejectsByReason map[string]int64 `json:"rejects_by_reason,omitempty"`
	// Span is the part of the input's (decompressed) bytes this ingest read
	// and their fingerprint, or nil when the input could not be read.
	Span *Span `json:"span,omitempty"`
}

// Span locates and fingerprints the bytes of one input that one ingest
// read: offsets and line counts are of the decompressed stream, hashes are
// hex SHA-256. A later ingest recognizes the same input by its content, not
// its name: its first HeadLen bytes hash to Head and its TailLen bytes
// before End hash to Tail. It then has nothing new when it ends at End, or
// is read from End when it has grown.
type Span struct {
	Start     int64  `json:"start"`      // offset of the first byte read
	End       int64  `json:"end"`        // offset after the last byte read
	StartLine int64  `json:"start_line"` // line feeds before Start
	EndLine   int64  `json:"end_line"`   // line feeds before End
	Head      string `json:"head"`       // hash of the stream's first HeadLen bytes
	HeadLen   int64  `json:"head_len"`   // min(4096, End)
	Tail      string `json:"tail"`       // hash of the TailLen bytes before End
	TailLen   int64  `json:"tail_len"`   // min(4096, End-Start)
}

// Reject is one rejected record, kept in the dataset's rejects file.
// Line and Column are 1-based; Column is the byte within the line of the
// offending value (or of the record's start), 0 in commit logs written
// before rejects carried one and where the format has no position.
type Reject struct {
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Column int64  `json:"column,omitempty"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}
