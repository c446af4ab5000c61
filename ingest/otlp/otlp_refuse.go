package otlp

import "encoding/json"

// The types encoding/json decodes OTLP/JSON into. The reader (otlp_read.go)
// reads documents in place as encoding/json would read them into these;
// they are decoded only to word the error of a request or span it refuses
// (a value of the wrong type), so that the reject says what encoding/json
// says.

// otlpRequestJSON is the resourceSpans of an ExportTraceServiceRequest,
// down to the spans (pre-1.0 instrumentationLibrarySpans too).
type otlpRequestJSON = []struct {
	Resource struct {
		Attributes []otlpKV `json:"attributes"`
	} `json:"resource"`
	ScopeSpans []struct {
		Spans []json.RawMessage `json:"spans"`
	} `json:"scopeSpans"`
	LibrarySpans []struct {
		Spans []json.RawMessage `json:"spans"`
	} `json:"instrumentationLibrarySpans"`
}

// otlpSpanJSON is an OTLP/JSON span (camelCase field names, hex ids,
// integer or string nanoseconds, integer or protojson enums).
type otlpSpanJSON struct {
	TraceID string          `json:"traceId"`
	SpanID  string          `json:"spanId"`
	Name    string          `json:"name"`
	Kind    json.RawMessage `json:"kind"`
	Start   json.RawMessage `json:"startTimeUnixNano"`
	End     json.RawMessage `json:"endTimeUnixNano"`
	Attrs   []otlpKV        `json:"attributes"`
	Events  []struct {
		Time  json.RawMessage `json:"timeUnixNano"`
		Name  string          `json:"name"`
		Attrs []otlpKV        `json:"attributes"`
	} `json:"events"`
	Status struct {
		Code json.RawMessage `json:"code"`
	} `json:"status"`
}

// otlpKV is an OTLP/JSON key-value attribute.
type otlpKV struct {
	Key   string       `json:"key"`
	Value otlpAnyValue `json:"value"`
}

// otlpAnyValue is an OTLP/JSON AnyValue; intValue is a string (int64) or a
// number, doubleValue a number or "NaN"/"Infinity".
type otlpAnyValue struct {
	String *string          `json:"stringValue"`
	Bool   *bool            `json:"boolValue"`
	Int    json.RawMessage  `json:"intValue"`
	Double json.RawMessage  `json:"doubleValue"`
	Array  *otlpArrayValue  `json:"arrayValue"`
	Kvlist *json.RawMessage `json:"kvlistValue"`
}

type otlpArrayValue struct {
	Values []otlpAnyValue `json:"values"`
}

// otlpRefuseRequest is encoding/json's error for a resourceSpans value it
// refuses.
func otlpRefuseRequest(raw []byte) error {
	var rss otlpRequestJSON
	return json.Unmarshal(raw, &rss)
}

// otlpRefuseSpan is encoding/json's error for a span it refuses.
func otlpRefuseSpan(raw []byte) error {
	var s otlpSpanJSON
	return json.Unmarshal(raw, &s)
}
