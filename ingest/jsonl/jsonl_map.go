package jsonl

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ttftrace/ttftrace/schema"
)

// This file holds the --map document of the jsonl format (see jsonl.go).

// jsonlMapping is the parsed --map document.
type jsonlMapping struct {
	Source       string        `json:"source"`
	Require      string        `json:"require"`
	Start        *jsonlInstant `json:"start"`
	Headers      *jsonlInstant `json:"headers"`
	FirstToken   *jsonlInstant `json:"first_token"`
	LastToken    *jsonlInstant `json:"last_token"`
	End          *jsonlInstant `json:"end"`
	Queue        *jsonlInstant `json:"queue"`
	Prefill      *jsonlInstant `json:"prefill"`
	Decode       *jsonlInstant `json:"decode"`
	RequestID    string        `json:"request_id"`
	TraceID      string        `json:"trace_id"`
	ResponseID   string        `json:"response_id"`
	Model        string        `json:"model"`
	Endpoint     string        `json:"endpoint"`
	Status       string        `json:"status"`
	Error        string        `json:"error"`
	Stream       string        `json:"stream"`
	PromptTokens string        `json:"prompt_tokens"`
	OutputTokens string        `json:"output_tokens"`
	TokensSource string        `json:"tokens_source"`
	Host         string        `json:"host"`
	Attrs        []string      `json:"attrs"`
}

// jsonlInstant names the field of one instant or duration: Format for an
// absolute instant, Unit for nanoseconds after start (or a phase duration).
type jsonlInstant struct {
	Field  string `json:"field"`
	Format string `json:"format"`
	Unit   string `json:"unit"`
}

// jsonlUnitNs are the nanoseconds of a unit, by unit and by unix_* format.
var jsonlUnitNs = map[string]int64{
	"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1,
	"unix_s": 1e9, "unix_ms": 1e6, "unix_us": 1e3, "unix_ns": 1,
}

// errJSONLNeedsMap is Decode's error when no mapping was given.
var errJSONLNeedsMap = errors.New(`jsonl needs --map: a JSON field mapping such as {"start":{"field":"ts","format":"rfc3339"},"end":{"field":"dur_ms","unit":"ms"}} (see ingest/testdata/jsonl/README.md)`)

// parseJSONLMapping reads and checks a --map document.
func parseJSONLMapping(text string) (*jsonlMapping, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errJSONLNeedsMap
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	var m jsonlMapping
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("jsonl --map: %v", err)
	}
	switch m.Source {
	case "":
		m.Source = schema.SourceClient
	case schema.SourceClient, schema.SourceProxy, schema.SourceServer:
	default:
		return nil, fmt.Errorf("jsonl --map: source %q is not client, proxy or server", m.Source)
	}
	switch m.TokensSource {
	case schema.TokensUnknown, schema.TokensUsage, schema.TokensCounted, schema.TokensDerived:
	default:
		return nil, fmt.Errorf("jsonl --map: tokens_source %q is not usage, counted or derived", m.TokensSource)
	}
	if m.Start == nil || m.Start.Field == "" {
		return nil, errors.New(`jsonl --map: "start" is required, e.g. {"field":"ts","format":"rfc3339"}`)
	}
	if m.Start.Format == "" && m.Start.Unit == "" {
		m.Start.Format = "rfc3339"
	}
	if m.Start.Unit != "" {
		return nil, errors.New(`jsonl --map: "start" must be absolute (a "format", not a "unit")`)
	}
	return &m, m.checkInstants()
}

// checkInstants checks that each instant has a field and exactly one known
// format or unit, and that phases are durations.
func (m *jsonlMapping) checkInstants() error {
	for _, x := range m.instants() {
		if x.spec == nil {
			continue
		}
		s := x.spec
		_, unitOK := jsonlUnitNs[s.Unit]
		_, fmtOK := jsonlUnitNs[s.Format]
		fmtOK = (fmtOK && strings.HasPrefix(s.Format, "unix_")) || s.Format == "rfc3339"
		switch {
		case s.Field == "":
			return fmt.Errorf("jsonl --map: %q has no field", x.name)
		case s.Format != "" && s.Unit != "":
			return fmt.Errorf("jsonl --map: %q has both a format and a unit", x.name)
		case s.Unit != "" && (!unitOK || strings.HasPrefix(s.Unit, "unix_")):
			return fmt.Errorf("jsonl --map: %q: unit %q is not s, ms, us or ns", x.name, s.Unit)
		case s.Format != "" && !fmtOK:
			return fmt.Errorf("jsonl --map: %q: format %q is not rfc3339, unix_s, unix_ms, unix_us or unix_ns", x.name, s.Format)
		case s.Format == "" && s.Unit == "":
			return fmt.Errorf("jsonl --map: %q needs a format (absolute) or a unit (after start)", x.name)
		case x.phase && s.Unit == "":
			return fmt.Errorf("jsonl --map: %q is a duration: give a unit", x.name)
		}
	}
	return nil
}

// jsonlNamedInstant is one instant or phase of the mapping with its name.
type jsonlNamedInstant struct {
	name  string
	spec  *jsonlInstant
	phase bool
}

// instants lists the mapping's start, instants and phases; the rest after
// start is in the order of jsonlInstantDsts.
func (m *jsonlMapping) instants() [8]jsonlNamedInstant {
	return [8]jsonlNamedInstant{
		{"start", m.Start, false}, {"headers", m.Headers, false}, {"first_token", m.FirstToken, false},
		{"last_token", m.LastToken, false}, {"end", m.End, false},
		{"queue", m.Queue, true}, {"prefill", m.Prefill, true}, {"decode", m.Decode, true},
	}
}

// jsonlInstantDsts returns the fields of ev that instants()[1:] set, in
// that order.
func jsonlInstantDsts(ev *schema.Event) [7]**int64 {
	return [7]**int64{&ev.HeadersNs, &ev.FirstTokenNs, &ev.LastTokenNs, &ev.EndNs, &ev.QueueNs, &ev.PrefillNs, &ev.DecodeNs}
}
