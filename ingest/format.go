// Package ingest turns timing logs into schema.Events. Each input format is
// one folder, ingest/<format>/, holding its one decoder (a type Format), its
// tests, fuzz test, benchmark and testdata/ with goldens, and is listed once
// in the formats table below; the shared driver (driver.go) opens inputs,
// decompresses, sniffs the format, counts every record and decodes files in
// parallel. What decoders share (Input, Sink, line and JSON-record readers)
// is ingest/decode; the number, time and JSON readers are internal/textscan
// and internal/jsonwalk.
package ingest

import (
	"github.com/ttftrace/ttftrace/ingest/aiperf"
	"github.com/ttftrace/ttftrace/ingest/client"
	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/envoy"
	"github.com/ttftrace/ttftrace/ingest/genaiperf"
	"github.com/ttftrace/ttftrace/ingest/haproxy"
	"github.com/ttftrace/ttftrace/ingest/har"
	"github.com/ttftrace/ttftrace/ingest/jsonl"
	"github.com/ttftrace/ttftrace/ingest/litellm"
	"github.com/ttftrace/ttftrace/ingest/nginx"
	"github.com/ttftrace/ttftrace/ingest/otlp"
	"github.com/ttftrace/ttftrace/ingest/tgi"
	"github.com/ttftrace/ttftrace/ingest/triton"
	"github.com/ttftrace/ttftrace/ingest/vllmbench"
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
	Decode(in *decode.Input, sink decode.Sink) error
}

// InstantErrorer is implemented by every format of the table (in its
// folder's facts.go; TestFormatsDeclareInstantErrors checks it): it says
// how far the start, first-token and end instants the format logs with
// opts may lie from the true ones (their resolution, truncated or
// rounded). The driver records it on each input's stats, so analysis reads
// it from the data, never from the format's name. A Format without it (a
// test's) leaves the stats' InstantErrors nil.
type InstantErrorer interface {
	InstantErrors(opts decode.Options) schema.InstantErrors
}

// TimingNoter is implemented by a format whose records' timing depends on
// what its log format logs (in its folder's timing.go): for the log format
// of opts (the default one when opts gives none) it says why a successful
// record may be in no latency figure and what to give instead. The driver
// records it on each input's stats, so the warnings of analysis name the
// fields of the log format actually used, never a format's name.
type TimingNoter interface {
	TimingNote(opts decode.Options) schema.TimingNote
}

// PerRunFielder is implemented by a format that sets some event fields
// once per run rather than per request (in its folder's facts.go): it
// names them ("endpoint", "model"), and the driver records them on each
// input's stats (schema.InputStats.PerRunFields).
type PerRunFielder interface {
	PerRunFields() []string
}

// formats lists every input format. Adding a format is one folder
// ingest/<format>/ (decoder, tests, fuzz test, benchmark, testdata/ with
// goldens), one line here and one sample in samples/formats/<name>/;
// TestFormatFolders checks that each entry has them.
var formats = []Format{
	// clients
	client.Format{},
	genaiperf.Format{},
	aiperf.Format{},
	vllmbench.Format{},
	har.Format{},
	// proxies
	nginx.Format{},
	envoy.Format{},
	haproxy.Format{},
	litellm.Format{},
	// servers, and clients by span kind
	otlp.Format{},
	tgi.Format{},
	triton.Format{},
	// any source, by mapping
	jsonl.Format{},
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

// Input, Options and Sink are the decode package's types under the names the
// driver and the command line use; SniffSize likewise.
type (
	Input   = decode.Input
	Options = decode.Options
	Sink    = decode.Sink
)

// SniffSize is the number of leading bytes given to Format.Sniff.
const SniffSize = decode.SniffSize
