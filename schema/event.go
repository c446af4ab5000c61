// Package schema defines the ttftrace event: one request as seen by one
// observer, stored as one row of a Parquet dataset.
//
// Instants are int64 nanoseconds on the observer's own clock (Clock says which
// kind of clock) and are nil when the observer did not log them. Durations are
// int64 nanoseconds. No prompt or response text is ever stored.
package schema

// Version is the schema version written into every file's metadata under
// MetadataVersionKey. Bump it on any change to Event's columns.
const Version = 1

// MetadataVersionKey is the Parquet key-value metadata key holding Version.
const MetadataVersionKey = "ttftrace.schema_version"

// UnknownDate is the date partition of events without a wall-clock start
// (see the dataset package's PartitionOf).
const UnknownDate = "unknown"

// Source values: which kind of observer logged the event. Stored as strings;
// the set is append-only.
const (
	SourceClient = "client"
	SourceProxy  = "proxy"
	SourceServer = "server"
)

// Clock values: what the instants of an event are measured against.
const (
	// ClockWall is Unix time (nanoseconds since 1970-01-01 UTC) on the host's clock.
	ClockWall = "wall"
	// ClockSteady is a monotonic clock with an arbitrary origin (Triton traces).
	ClockSteady = "steady"
	// ClockRelative is time since the start of a benchmark run (vllm bench's
	// perf_counter): such events never join with others.
	ClockRelative = "relative"
)

// Token count provenance values (SPEC §1 rule 4).
const (
	TokensUnknown = ""
	TokensUsage   = "usage"   // reported by the server (usage block, span attribute)
	TokensCounted = "counted" // chunks or token ids counted by the observer
	TokensDerived = "derived" // computed from other figures (TGI inference_time / time_per_token)
)

// Error classes of failed requests (SPEC §2). Empty means success.
const (
	ErrorNone        = ""
	ErrorRateLimited = "rate_limited" // HTTP 429
	ErrorClient      = "client_error" // other 4xx
	ErrorServer      = "server_error" // 5xx or an error the server reported
	ErrorInterrupted = "interrupted"  // stream started but was cut before its end
	ErrorTimeout     = "timeout"      // the observer gave up waiting (408, 504, client timeout)
)

// Event is one request as seen by one observer. Nil pointers are values the
// observer did not log.
type Event struct {
	Source string `parquet:"source,dict"` // client | proxy | server
	Format string `parquet:"format,dict"` // input format name, e.g. "nginx"
	Host   string `parquet:"host,dict"`   // observer host whose clock the instants use
	Clock  string `parquet:"clock,dict"`  // wall | steady | relative

	RequestID  string   `parquet:"request_id,optional"`  // x-request-id, $request_id, gen_ai.request.id
	TraceID    string   `parquet:"trace_id,optional"`    // W3C trace id, 32 lowercase hex digits
	SpanID     string   `parquet:"span_id,optional"`     // W3C span id, 16 lowercase hex digits
	ResponseID string   `parquet:"response_id,optional"` // response body id, e.g. "chatcmpl-…"
	OtherIDs   []string `parquet:"other_ids,list"`       // any further ids the record carries

	Model    string `parquet:"model,dict,optional"`
	Endpoint string `parquet:"endpoint,dict,optional"` // URL path without the query
	Status   *int32 `parquet:"status,optional"`        // HTTP status; nil when not logged
	Error    string `parquet:"error_class,dict,optional"`
	Stream   *bool  `parquet:"stream,optional"`
	// Completed is true when the end of the response was seen ([DONE], a finish
	// reason, or the log's own success mark), false when it was cut short.
	Completed *bool `parquet:"completed,optional"`

	PromptTokens       *int64 `parquet:"prompt_tokens,optional"`
	PromptTokensSource string `parquet:"prompt_tokens_source,dict,optional"`
	OutputTokens       *int64 `parquet:"output_tokens,optional"`
	OutputTokensSource string `parquet:"output_tokens_source,dict,optional"`

	// Instants, nanoseconds on the host's clock (SPEC §1).
	StartNs      *int64 `parquet:"start_ns,optional"`
	HeadersNs    *int64 `parquet:"headers_ns,optional"`
	FirstTokenNs *int64 `parquet:"first_token_ns,optional"`
	LastTokenNs  *int64 `parquet:"last_token_ns,optional"`
	EndNs        *int64 `parquet:"end_ns,optional"`

	// Phase durations, nanoseconds.
	QueueNs        *int64 `parquet:"queue_ns,optional"`          // server: queued → scheduled; proxy: time in the proxy's queue
	PrefillNs      *int64 `parquet:"prefill_ns,optional"`        // server: scheduled → first token
	DecodeNs       *int64 `parquet:"decode_ns,optional"`         // server: first → last token
	InferenceNs    *int64 `parquet:"inference_ns,optional"`      // server: whole inference (TGI inference_time)
	ValidationNs   *int64 `parquet:"validation_ns,optional"`     // server: request validation (TGI)
	ConnectNs      *int64 `parquet:"connect_ns,optional"`        // proxy: upstream connect time
	TimePerTokenNs *int64 `parquet:"time_per_token_ns,optional"` // server-reported mean time per output token

	// Chunks: the token-carrying chunks (content, reasoning, tool calls) in
	// arrival order. ChunkOffsetsNs are nanoseconds after StartNs; ChunkTokens,
	// when not empty, has one entry per chunk (tokens that chunk carried).
	// Role-only and usage-only chunks are not listed.
	ChunkOffsetsNs []int64 `parquet:"chunk_offsets_ns,list" parquet-element:",delta"`
	ChunkTokens    []int32 `parquet:"chunk_tokens,list"`

	Attrs map[string]string `parquet:"attrs"` // free-form string attributes: region, app, tenant, upstream…

	InputFile string `parquet:"input_file,dict"` // path of the input as given
	InputLine int64  `parquet:"input_line"`      // 1-based line (or record index) of the record
}
