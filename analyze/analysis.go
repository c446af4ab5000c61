// Package analyze computes latency and throughput figures from events. It is
// pure: no I/O, no clock, no logging. Its result, Analysis, is the document
// written as analysis.json (SPEC §7); the field order and names here are the
// stable contract. Joining each request's observations across sources and
// the clock offsets are in analyze/reconcile, whose sections Analysis
// carries as they are.
package analyze

import (
	"time"

	"github.com/ttftrace/ttftrace/analyze/reconcile"
	"github.com/ttftrace/ttftrace/schema"
)

// Options are the user's analysis settings.
type Options struct {
	// By lists the breakdowns; each is one key or several crossed keys
	// (--by model+host is []string{"model", "host"}). Keys: model, endpoint,
	// host, status, format, or any attribute name.
	By [][]string
	// Window is the time-series window; 0 chooses one from the data's span.
	Window time.Duration
	// SLO maps a metric name (ttft, tpot, itl, e2e…) to its limit in ms;
	// goodput counts requests meeting every one.
	SLO map[string]float64
	// Compat names a peer tool (vllm, genai-perf, guidellm, llmperf) whose figures
	// are added as extra metrics under that peer's formulas.
	Compat string
	// KeepRequests keeps the reconciled per-request table in
	// Analysis.Requests (for analyze --requests-out).
	KeepRequests bool
	// Workers is how many of analysis's tasks run at once; 0 is
	// runtime.GOMAXPROCS. Fewer take less memory at once. The output is
	// the same whatever their number.
	Workers int
	// partSize, when set, is the size of every part reconciliation's
	// parallel loops split into (tests: it must not change the output).
	partSize int
}

// Analysis is the whole analysis.json document.
type Analysis struct {
	SchemaVersion   int                       `json:"schema_version"`
	Inputs          []schema.InputStats       `json:"inputs"`
	RejectsByReason map[string]int64          `json:"rejects_by_reason"`
	Metrics         []Metric                  `json:"metrics"`
	Errors          []ErrorCount              `json:"errors"`
	Matching        []reconcile.Matching      `json:"matching"`
	ClockOffsets    []reconcile.ClockOffset   `json:"clock_offsets"`
	TTFTBreakdown   []reconcile.BreakdownBand `json:"ttft_breakdown"`
	Timeseries      []Series                  `json:"timeseries"`

	// The keys below feed the report; they are documented and stable too.

	Options       OptionsEcho          `json:"options"`
	Sources       []SourceSummary      `json:"sources"`       // per source: events, successes, failures, time span
	Distributions []Distribution       `json:"distributions"` // histogram and CDF per source and metric, group {}
	ITLByPosition []PositionSeries     `json:"itl_by_position"`
	TTFTByPrompt  []Scatter            `json:"ttft_by_prompt"` // TTFT against prompt length, sampled
	TTFTDelta     *Metric              `json:"ttft_client_minus_server"`
	Examples      []reconcile.Timeline `json:"examples"` // slow requests seen by several observers
	Notes         []string             `json:"notes"`    // caveats a reader must know (relative clocks, …)
	Warnings      []Warning            `json:"warnings"` // data-quality problems and what to do (warnings.go); the report shows them first

	Throughput      []Throughput     `json:"throughput"`       // per source, over its whole span
	Slowest         []SlowRequest    `json:"slowest_requests"` // successful client requests by client TTFT, slowest first
	ReferenceClocks []ReferenceClock `json:"reference_clocks"` // hosts whose clocks corrected instants use

	// Requests is the reconciled per-request table, kept only with
	// Options.KeepRequests; it is written as Parquet, not into the JSON.
	Requests []reconcile.ReconciledRequest `json:"-"`
}

// OptionsEcho records the options the analysis ran with.
type OptionsEcho struct {
	By     []string           `json:"by"`     // as given: "model", "model+host"
	Window string             `json:"window"` // e.g. "1h", "5m"
	SLO    map[string]float64 `json:"slo_ms"`
	Compat string             `json:"compat"`
}

// Metric is the statistics of one metric at one source over one group. From
// and To name the instants the metric spans ("start", "first_token"); for
// pooled metrics (itl, chunk_gap) they name the chunk arrivals.
type Metric struct {
	Source string            `json:"source"`
	Metric string            `json:"metric"`
	Unit   string            `json:"unit"` // "ms", "tokens/s"
	From   string            `json:"from"`
	To     string            `json:"to"`
	Group  map[string]string `json:"group"`
	Count  int64             `json:"count"`
	Mean   float64           `json:"mean"`
	Std    float64           `json:"std"` // population standard deviation
	Min    float64           `json:"min"`
	P50    float64           `json:"p50"`
	P90    float64           `json:"p90"`
	P95    float64           `json:"p95"`
	P99    float64           `json:"p99"`
	P999   float64           `json:"p999"`
	Max    float64           `json:"max"`
	// CI95 holds, per percentile key (p50, p90, p95, p99, p999), the 95%
	// distribution-free confidence interval [low, high]; a bound is null
	// when there are too few samples to give it.
	CI95 map[string]Interval `json:"ci95"`
}

// Interval is a [low, high] pair; nil is an unbounded side.
type Interval [2]*float64

// ErrorCount counts failed requests of one class at one source and group.
type ErrorCount struct {
	Source string            `json:"source"`
	Group  map[string]string `json:"group"`
	Class  string            `json:"class"`
	Count  int64             `json:"count"`
}

// Series is one metric over time windows at one source.
type Series struct {
	Source string  `json:"source"`
	Metric string  `json:"metric"` // ttft, itl (percentiles); request_rate, output_tps, concurrency, error_rate, goodput (values)
	Unit   string  `json:"unit"`
	Window string  `json:"window"`
	Points []Point `json:"points"`
}

// Point is one window of a Series; T is the window start, RFC 3339 UTC.
// Latency series fill P50/P99 (nil in a window without samples); rate series
// fill Value.
type Point struct {
	T     string   `json:"t"`
	Count int64    `json:"count"`
	P50   *float64 `json:"p50,omitempty"`
	P99   *float64 `json:"p99,omitempty"`
	Value *float64 `json:"value,omitempty"`
}

// SourceSummary counts one source's requests.
type SourceSummary struct {
	Source    string   `json:"source"`
	Events    int64    `json:"events"`
	Succeeded int64    `json:"succeeded"`
	Failed    int64    `json:"failed"`
	Formats   []string `json:"formats"`
	Hosts     []string `json:"hosts"`
	Clock     string   `json:"clock"`
	First     string   `json:"first,omitempty"` // earliest start, RFC 3339 (wall clocks only)
	Last      string   `json:"last,omitempty"`
}

// Distribution is one metric's histogram and CDF at one source, group {}.
// Histogram bins are [Edges[i], Edges[i+1]) in the metric's unit; CDF is
// [value, fraction ≤ value] pairs, at most a few hundred.
type Distribution struct {
	Source string       `json:"source"`
	Metric string       `json:"metric"`
	Unit   string       `json:"unit"`
	Edges  []float64    `json:"edges"`
	Counts []int64      `json:"counts"`
	CDF    [][2]float64 `json:"cdf"`
}

// PositionSeries is ITL by output token position at one source: the median
// and p90 of the gap before token Position, over requests that reached it.
type PositionSeries struct {
	Source string          `json:"source"`
	Points []PositionPoint `json:"points"`
}

// PositionPoint is one token position of a PositionSeries.
type PositionPoint struct {
	Position int     `json:"position"`
	Count    int64   `json:"count"`
	P50      float64 `json:"p50"`
	P90      float64 `json:"p90"`
}

// Scatter is a sample of (x, y) points at one source, e.g. prompt tokens
// against TTFT in ms.
type Scatter struct {
	Source string       `json:"source"`
	X      string       `json:"x"`
	Y      string       `json:"y"`
	Points [][2]float64 `json:"points"`
}
