package schema

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Column documents one top-level column of the event Parquet schema.
type Column struct {
	Name     string // column name as stored
	Type     string // Parquet type: STRING, INT64, INT32, BOOLEAN, LIST<…>, MAP<…,…>
	Nullable bool   // true when the column is optional (null = not logged)
	Meaning  string // what the value is, with its unit and clock
}

// meanings holds the documentation of every column, keyed by column name.
// A test checks that it covers exactly the columns of Event.
var meanings = map[string]string{
	"source":               "observer kind: client, proxy or server",
	"format":               "input format the row was decoded from (ttftrace formats lists them)",
	"host":                 "observer host; its clock is the one the instants are measured on",
	"clock":                "what the instants count: wall (ns since 1970-01-01 UTC on the host), steady (monotonic, arbitrary origin) or relative (since the benchmark start; never joined)",
	"request_id":           "request id the observer logged (x-request-id, nginx $request_id, gen_ai.request.id)",
	"trace_id":             "W3C trace id, 32 lowercase hex digits",
	"span_id":              "W3C span id, 16 lowercase hex digits",
	"response_id":          "id in the response body, e.g. chatcmpl-…",
	"other_ids":            "further ids the record carries; empty when none",
	"model":                "model name as logged",
	"endpoint":             "request URL path without the query, e.g. /v1/chat/completions",
	"status":               "HTTP status code",
	"error_class":          "failure class: rate_limited, client_error, server_error, interrupted, timeout; null = success",
	"stream":               "true when the response was streamed",
	"completed":            "true when the end of the response was seen ([DONE], a finish reason, the log's success mark), false when cut short",
	"prompt_tokens":        "input tokens (count)",
	"prompt_tokens_source": "where prompt_tokens came from: usage (server-reported), counted, derived",
	"output_tokens":        "output tokens (count)",
	"output_tokens_source": "where output_tokens came from: usage (server-reported), counted, derived",
	"start_ns":             "instant the observer saw the request start (client: sent; proxy: first byte received; server: arrived), ns on the host's clock",
	"headers_ns":           "instant of the response headers (client: received; proxy: upstream headers received; server: sent), ns on the host's clock",
	"first_token_ns":       "instant of the first content, reasoning or tool-call token (never a role-only chunk), ns on the host's clock",
	"last_token_ns":        "instant of the last content token, ns on the host's clock",
	"end_ns":               "instant the response ended (last byte or [DONE]), ns on the host's clock",
	"queue_ns":             "server: queued to scheduled; proxy: time in the proxy's queue; duration in ns",
	"prefill_ns":           "server: scheduled to first token, duration in ns",
	"decode_ns":            "server: first to last token, duration in ns",
	"inference_ns":         "server: whole inference time as the engine reports it (TGI inference_time), duration in ns",
	"validation_ns":        "server: request validation time (TGI), duration in ns",
	"connect_ns":           "proxy: upstream connect time, duration in ns",
	"time_per_token_ns":    "server-reported mean time per output token, duration in ns",
	"chunk_offsets_ns":     "arrival of each token-carrying chunk, ns after start_ns on the host's clock; empty when not logged",
	"chunk_tokens":         "tokens carried by each chunk of chunk_offsets_ns (same length); empty when unknown",
	"attrs":                "free-form string attributes (region, app, tenant, upstream…); never prompt or response text",
	"input_file":           "path of the input file as given to ingest (- for standard input)",
	"input_line":           "1-based line (or record index) of the record in input_file",
}

// Columns returns the documentation of every column of the event schema, in
// schema order. Types and nullability are read from the Parquet schema, so
// they cannot drift from it.
func Columns() []Column {
	fields := parquet.SchemaOf(Event{}).Fields()
	cols := make([]Column, len(fields))
	for i, f := range fields {
		cols[i] = Column{Name: f.Name(), Type: typeName(f), Nullable: f.Optional(), Meaning: meanings[f.Name()]}
	}
	return cols
}

// typeName names a field's Parquet type: its logical type where it has one
// (STRING, LIST, MAP), else its physical type.
func typeName(f parquet.Node) string {
	var annotation format.LogicalTypeValue
	if lt := f.Type().LogicalType(); lt != nil {
		annotation = lt.Value
	}
	switch annotation.(type) {
	case *format.ListType:
		return "LIST<" + typeName(f.Fields()[0].Fields()[0]) + ">"
	case *format.MapType:
		kv := f.Fields()[0].Fields()
		return "MAP<" + typeName(kv[0]) + "," + typeName(kv[1]) + ">"
	case *format.StringType:
		return "STRING"
	}
	return f.Type().Kind().String()
}

// WriteDocs prints the column documentation as an aligned table.
func WriteDocs(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "COLUMN\tTYPE\tNULL\tMEANING\n")
	for _, c := range Columns() {
		null := "no"
		if c.Nullable {
			null = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Name, c.Type, null, c.Meaning)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nSchema version %d (file metadata key %q). Partitions: source=<source>/date=<YYYY-MM-DD of start_ns in UTC, or %s>.\n",
		Version, MetadataVersionKey, UnknownDate)
	return err
}

// ParquetSchema returns the Parquet message type of Event as text.
func ParquetSchema() string {
	return strings.TrimSpace(parquet.SchemaOf(Event{}).String())
}
