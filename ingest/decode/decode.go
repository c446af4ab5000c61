// Package decode holds what every format decoder shares: the Input it reads, the
// Sink it reports each record to, the line and JSON-record readers, and the
// helpers that fill a schema.Event. The ingest package lists the formats and
// drives them; each format lives in its own folder ingest/<format>/.
package decode

import (
	"io"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

// SniffSize is the number of leading bytes given to Format.Sniff.
const SniffSize = 64 << 10

// Input is one decompressed input file handed to a Format.
type Input struct {
	R    io.Reader // decompressed contents; a truncated compressed file ends in a clean EOF
	Name string    // path as the user gave it ("-" for standard input)
	Host string    // observer host for records that do not carry one
	Size int64     // bytes in R when known beforehand (an uncompressed file's size), else 0
	Opts Options
}

// Options are the user's settings that formats may need.
type Options struct {
	// LogFormat is the nginx log_format string, Envoy format string or
	// Envoy JSON key→operator map (already read when given as @FILE);
	// empty means the format's default.
	LogFormat string
	// Map is the generic jsonl field mapping (already read from @FILE).
	Map string
	// TZ is the zone of log times that carry none (HAProxy [%tr]); nil = UTC.
	TZ *time.Location
	// Endpoints filters HAR entries to these URL paths; nil means the usual
	// LLM API paths (/v1/chat/completions, /v1/completions, …).
	Endpoints []string
}

// Sink receives the records a Format decodes. Line is the 1-based line on
// which the record starts (or its 1-based index for formats without lines).
type Sink interface {
	// Event reports a request record. raw is the record's bytes as read; the
	// driver uses it to recognize exact repeats (duplicates) and does not keep
	// it. The sink copies ev, so the caller may reuse it.
	Event(line int64, raw []byte, ev *schema.Event)
	// Skip reports a record that is not a request record (a startup line, a
	// health check, an error-log line, a blank line).
	Skip(line int64, reason string)
	// Reject reports a request record that could not be decoded at at: the
	// offending value's position when the format knows it, else the
	// record's start (its column 1); Col is 0 only where a format has no
	// position at all, as its doc says. reason is short and stable
	// ("invalid json", "bad status"), detail names the offending value.
	Reject(at Pos, reason, detail string)
}
