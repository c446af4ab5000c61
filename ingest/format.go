// Package ingest turns timing logs into schema.Events. Each input format is
// one small type in its own file, listed once in the formats table below; the
// shared driver (driver.go) opens inputs, decompresses, sniffs the format,
// counts every record and decodes files in parallel.
package ingest

import (
	"io"
	"time"

	"github.com/ttftrace/ttftrace/schema"
)

// Format decodes one input format. Implementations are plain sequential code
// with no shared state: the driver runs one Decode per input file.
type Format interface {
	// Name is the --format name, e.g. "nginx".
	Name() string
	// Source is the kind of observer the format's records usually come from
	// (schema.SourceClient, SourceProxy or SourceServer); a format whose
	// records say otherwise (OTLP span kind) sets Event.Source itself.
	Source() string
	// Describe says in one line what the format measures and which instants
	// it cannot give; `ttftrace formats` prints it.
	Describe() string
	// Sniff reports whether head, the first bytes of a decompressed input
	// (up to SniffSize), looks like this format. It must not claim inputs of
	// other formats: a test sniffs every format's testdata.
	Sniff(head []byte) bool
	// Decode reads every record of in.R and reports each one to sink exactly
	// once, as an event, a skip or a reject. It returns an error only when
	// the whole input is unreadable (e.g. not the format at all, or a bad
	// --log-format); a bad record is a reject, never an error.
	Decode(in *Input, sink Sink) error
}

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
	// Reject reports a request record that could not be decoded; reason is
	// short and stable ("invalid json", "bad status"), detail names the
	// offending value.
	Reject(line int64, reason, detail string)
}

// formats lists every input format. Adding a format is one file, one line
// here and one testdata/<name>/ folder.
var formats = []Format{
	// clients
	clientJSONL{},
	genaiPerf{},
	vllmBench{},
	har{},
	// proxies
	nginx{},
	envoy{},
	haproxy{},
	litellm{},
	// servers, and clients by span kind
	otlp{},
	tgi{},
	triton{},
	// any source, by mapping
	genericJSONL{},
}

// Formats returns the table of input formats in a fixed order.
func Formats() []Format { return formats }

// Lookup returns the format named name, and false when there is none.
func Lookup(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name() == name {
			return f, true
		}
	}
	return nil, false
}
