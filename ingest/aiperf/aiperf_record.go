package aiperf

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/ttftrace/ttftrace/schema"
)

// record holds the parts of one line that the decoder reads; message texts
// are deliberately absent.
type record struct {
	Metadata struct {
		XRequestID     string `json:"x_request_id"`
		XCorrelationID string `json:"x_correlation_id"`
		ConversationID string `json:"conversation_id"`
		TimestampNs    *int64 `json:"timestamp_ns"`
		CreditPhase    string `json:"credit_phase"`
	} `json:"metadata"`
	Metrics *metrics `json:"metrics"`
	Error   *struct {
		Code *int64 `json:"code"`
		Type string `json:"type"`
	} `json:"error"`
}

// metrics are the entries of "metrics" the decoder reads; the others
// (throughputs, counts of AIPerf's own) are skipped.
type metrics struct {
	MinRequest  metric `json:"min_request_timestamp"`
	MaxResponse metric `json:"max_response_timestamp"`
	TTFT        metric `json:"ttft"`
	Latency     metric `json:"request_latency"`
	OSL         metric `json:"output_sequence_length"`
	OutputCount metric `json:"output_token_count"`
	ReasonCount metric `json:"reasoning_token_count"`
	ISL         metric `json:"input_sequence_length"`
	InterChunk  struct {
		Value []float64 `json:"value"`
		Unit  string    `json:"unit"`
	} `json:"inter_chunk_latency"`
}

// metric is one entry of "metrics": a number and its unit.
type metric struct {
	Value json.RawMessage `json:"value"`
	Unit  string          `json:"unit"`
}

// field returns the metric named name (one of metrics' JSON names).
func (m *metrics) field(name string) metric {
	switch name {
	case "min_request_timestamp":
		return m.MinRequest
	case "max_response_timestamp":
		return m.MaxResponse
	case "ttft":
		return m.TTFT
	case "request_latency":
		return m.Latency
	case "output_sequence_length":
		return m.OSL
	case "output_token_count":
		return m.OutputCount
	case "reasoning_token_count":
		return m.ReasonCount
	}
	return m.ISL
}

// nsPerUnit converts a time unit AIPerf may write to nanoseconds.
var nsPerUnit = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "sec": 1e9}

// maxNs bounds a time in ns, so that no conversion overflows int64.
const maxNs = 1 << 62

// decodeRecord fills ev from one line, or returns a reject reason and its
// detail.
func decodeRecord(b []byte, ev *schema.Event) (string, string) {
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return "invalid json", err.Error()
	}
	*ev = schema.Event{Source: schema.SourceClient, Format: "aiperf", Clock: schema.ClockWall}
	if r.Metrics == nil && r.Error == nil {
		return "not a request record", "no metrics and no error"
	}
	start, ok, err := r.instant("min_request_timestamp", "ns")
	if err != "" {
		return "bad min_request_timestamp", err
	}
	if !ok && r.Metadata.TimestampNs == nil {
		return "no start", "neither metrics.min_request_timestamp nor metadata.timestamp_ns"
	}
	if !ok {
		start = *r.Metadata.TimestampNs
	}
	ev.StartNs = &start
	if reason, detail := r.times(ev, start); reason != "" {
		return reason, detail
	}
	if reason, detail := r.tokens(ev); reason != "" {
		return reason, detail
	}
	r.ids(ev)
	r.outcome(ev)
	return "", ""
}

// times sets first token, chunks and end from ttft, inter_chunk_latency,
// max_response_timestamp and request_latency.
func (r *record) times(ev *schema.Event, start int64) (string, string) {
	ttft, ok, err := r.instant("ttft", "ms")
	if err != "" {
		return "bad ttft", err
	}
	if ok {
		first := start + ttft
		ev.FirstTokenNs = &first
		gaps, err := r.gaps()
		if err != "" {
			return "bad inter_chunk_latency", err
		}
		if gaps != nil {
			off := ttft
			ev.ChunkOffsetsNs = append(make([]int64, 0, len(gaps)+1), off)
			for _, g := range gaps {
				off += g
				ev.ChunkOffsetsNs = append(ev.ChunkOffsetsNs, off)
			}
		}
	}
	end, ok, err := r.instant("max_response_timestamp", "ns")
	if err != "" {
		return "bad max_response_timestamp", err
	}
	if !ok {
		lat, lok, lerr := r.instant("request_latency", "ms")
		if lerr != "" {
			return "bad request_latency", lerr
		}
		end, ok = start+lat, lok
	}
	if ok {
		ev.EndNs = &end
	}
	return "", ""
}

// tokens sets the output and prompt token counts.
func (r *record) tokens(ev *schema.Event) (string, string) {
	out, ok, err := r.count("output_sequence_length")
	if err == "" && !ok {
		var n, rn int64
		var nok, rok bool
		n, nok, err = r.count("output_token_count")
		if err == "" {
			rn, rok, err = r.count("reasoning_token_count")
		}
		out, ok = n+rn, nok || rok
	}
	if err != "" {
		return "bad token count", err
	}
	if ok {
		ev.OutputTokens, ev.OutputTokensSource = &out, schema.TokensCounted
	}
	in, ok, err := r.count("input_sequence_length")
	if err != "" {
		return "bad token count", err
	}
	if ok {
		ev.PromptTokens, ev.PromptTokensSource = &in, schema.TokensCounted
	}
	return "", ""
}

// ids sets the request id, other ids and the credit phase.
func (r *record) ids(ev *schema.Event) {
	m := &r.Metadata
	ev.RequestID = m.XRequestID
	for _, id := range []string{m.XCorrelationID, m.ConversationID} {
		if id != "" {
			ev.OtherIDs = append(ev.OtherIDs, id)
		}
	}
	if m.CreditPhase != "" {
		ev.Attrs = map[string]string{"credit_phase": m.CreditPhase}
	}
}

// outcome sets status, error class and completion.
func (r *record) outcome(ev *schema.Event) {
	done := r.Error == nil
	ev.Completed = &done
	if done {
		return
	}
	if c := r.Error.Code; c != nil && *c >= 100 && *c <= 599 {
		s := int32(*c)
		ev.Status = &s
		if s == 499 {
			ev.Error = schema.ErrorInterrupted
		}
		return
	}
	switch t := strings.ToLower(r.Error.Type); {
	case strings.Contains(t, "timeout"):
		ev.Error = schema.ErrorTimeout
	case strings.Contains(t, "cancel"):
		ev.Error = schema.ErrorInterrupted
	default:
		ev.Error = schema.ErrorServer
	}
}

// instant returns metric name as whole ns (def is the unit when none is
// given), false when absent or null, or an error text.
func (r *record) instant(name, def string) (int64, bool, string) {
	if r.Metrics == nil {
		return 0, false, ""
	}
	m := r.Metrics.field(name)
	if len(m.Value) == 0 || string(m.Value) == "null" {
		return 0, false, ""
	}
	if unit := cmp.Or(m.Unit, def); unit == "ns" {
		// Epoch ns need all 19 digits: read integers exactly.
		if n, err := strconv.ParseInt(string(m.Value), 10, 64); err == nil && n >= -maxNs && n <= maxNs {
			return n, true, ""
		}
	}
	var v float64
	if err := json.Unmarshal(m.Value, &v); err != nil {
		return 0, false, fmt.Sprintf("value %.40q is not a number", m.Value)
	}
	ns, err := toNs(v, m.Unit, def)
	return ns, err == "", err
}

// gaps returns inter_chunk_latency in ns, nil when absent.
func (r *record) gaps() ([]int64, string) {
	if r.Metrics == nil || r.Metrics.InterChunk.Value == nil {
		return nil, ""
	}
	m := &r.Metrics.InterChunk
	out := make([]int64, len(m.Value))
	for i, v := range m.Value {
		ns, err := toNs(v, m.Unit, "ms")
		if err != "" || ns < 0 {
			return nil, fmt.Sprintf("gap %d: %g %s", i, v, m.Unit)
		}
		out[i] = ns
	}
	return out, ""
}

// count returns metric name as a non-negative whole count.
func (r *record) count(name string) (int64, bool, string) {
	if r.Metrics == nil {
		return 0, false, ""
	}
	m := r.Metrics.field(name)
	if len(m.Value) == 0 || string(m.Value) == "null" {
		return 0, false, ""
	}
	var v float64
	if err := json.Unmarshal(m.Value, &v); err != nil || v < 0 || v > maxNs || v != math.Trunc(v) {
		return 0, false, fmt.Sprintf("%s %.40q", name, m.Value)
	}
	return int64(v), true, ""
}

// toNs converts v in unit (def when empty) to whole ns.
func toNs(v float64, unit, def string) (int64, string) {
	if unit == "" {
		unit = def
	}
	k, ok := nsPerUnit[unit]
	if !ok {
		return 0, fmt.Sprintf("unknown unit %.20q", unit)
	}
	ns := math.Round(v * k)
	if math.IsNaN(ns) || math.Abs(ns) > maxNs {
		return 0, fmt.Sprintf("%g %s out of range", v, unit)
	}
	return int64(ns), ""
}
