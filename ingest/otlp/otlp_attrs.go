package otlp

import (
	"fmt"
	"math"
	"strconv"
)

// otlpKey names a span or resource attribute that the mapping to events
// reads (otlp_event.go); every other attribute only counts for the
// gen_ai./llm. prefix tests, so the reader does not keep it.
type otlpKey uint8

// The attributes read, in the order of otlpKeyNames.
const (
	akOIKind otlpKey = iota
	akOperation
	akRequestType
	akTTFT // gen_ai.latency.time_to_first_token, the first of six latencies
	akE2E
	akQueue
	akPrefill
	akDecode
	akInference
	akTTFC
	akRequestID
	akResponseID
	akResponseModel
	akRequestModel
	akModelName
	akURLPath
	akRoute
	akTarget
	akURLFull
	akURL
	akStatus
	akStatusOld
	akInputTokens
	akPromptTokens
	akTokenPrompt
	akOutputTokens
	akCompletionTokens
	akTokenCompletion
	akStream
	akStreaming
	akErrorType
	akSystem
	akProvider
	akLLMSystem
	akLLMProvider
	akFinishReasons
	akHostName
	akInstanceID
	akServiceName
	akChunkType
	otlpNKeys
)

// otlpKeyNames are the attribute keys by otlpKey.
var otlpKeyNames = [otlpNKeys]string{
	"openinference.span.kind", "gen_ai.operation.name", "llm.request.type",
	"gen_ai.latency.time_to_first_token", "gen_ai.latency.e2e", "gen_ai.latency.time_in_queue",
	"gen_ai.latency.time_in_model_prefill", "gen_ai.latency.time_in_model_decode",
	"gen_ai.latency.time_in_model_inference", "gen_ai.response.time_to_first_chunk",
	"gen_ai.request.id", "gen_ai.response.id", "gen_ai.response.model", "gen_ai.request.model", "llm.model_name",
	"url.path", "http.route", "http.target", "url.full", "http.url",
	"http.response.status_code", "http.status_code",
	"gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt",
	"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion",
	"gen_ai.request.stream", "llm.is_streaming", "error.type",
	"gen_ai.system", "gen_ai.provider.name", "llm.system", "llm.provider", "gen_ai.response.finish_reasons",
	"host.name", "service.instance.id", "service.name", "chunk.type",
}

// otlpKeysByLen lists the otlpKeys by the length of their names, for
// otlpKeyOf (measured faster than a map lookup, which hashes every key).
var otlpKeysByLen = func() (t [64][]otlpKey) {
	for k, name := range otlpKeyNames {
		t[len(name)] = append(t[len(name)], otlpKey(k))
	}
	return t
}()

// otlpKeyOf returns the otlpKey of an attribute key, and false for a key
// the mapping does not read.
func otlpKeyOf[T string | []byte](key T) (otlpKey, bool) {
	if len(key) >= len(otlpKeysByLen) {
		return 0, false
	}
	for _, k := range otlpKeysByLen[len(key)] {
		if string(key) == otlpKeyNames[k] {
			return k, true
		}
	}
	return 0, false
}

// Prefix bits of otlpAttrSet.prefixes: some attribute key starts with it.
const (
	otlpGenAI   = 1 << iota // "gen_ai."
	otlpLLM                 // "llm."
	otlpLatency             // "gen_ai.latency."
)

// otlpPrefixes returns the prefix bits of an attribute key.
func otlpPrefixes[T string | []byte](key T) uint8 {
	var p uint8
	if len(key) >= 7 && string(key[:7]) == "gen_ai." {
		p |= otlpGenAI
		if len(key) >= 15 && string(key[:15]) == "gen_ai.latency." {
			p |= otlpLatency
		}
	}
	if len(key) >= 4 && string(key[:4]) == "llm." {
		p |= otlpLLM
	}
	return p
}

// otlpValue is an attribute value: a string, int64, float64 or bool, or
// any other decoded JSON value (a []any array; a map from console spans).
type otlpValue struct {
	kind  otlpKind
	s     string
	i     int64
	f     float64
	other any
}

// otlpKind is the type of an otlpValue.
type otlpKind uint8

const (
	otlpNone otlpKind = iota // absent or null
	otlpStr
	otlpInt
	otlpDouble
	otlpTrue
	otlpFalse
	otlpOther
)

// otlpValueOf converts a decoded attribute value.
func otlpValueOf(v any) otlpValue {
	switch x := v.(type) {
	case nil:
		return otlpValue{}
	case string:
		return otlpValue{kind: otlpStr, s: x}
	case int64:
		return otlpValue{kind: otlpInt, i: x}
	case float64:
		return otlpValue{kind: otlpDouble, f: x}
	case bool:
		if x {
			return otlpValue{kind: otlpTrue}
		}
		return otlpValue{kind: otlpFalse}
	}
	return otlpValue{kind: otlpOther, other: v}
}

// any returns the value as encoding/json decodes it (nil when absent),
// for reject details.
func (v otlpValue) any() any {
	switch v.kind {
	case otlpStr:
		return v.s
	case otlpInt:
		return v.i
	case otlpDouble:
		return v.f
	case otlpTrue, otlpFalse:
		return v.kind == otlpTrue
	}
	return v.other
}

// otlpAttrSet holds the attributes the mapping reads and which key
// prefixes occur. vals[k] is attribute k only when bit k of has is set: an
// empty set is has and prefixes zero, so a set is emptied and reused
// without clearing (or, in a slice, copying) its 2 KB of values, which
// with the collector's write barriers on cost a tenth of the decoder's
// time in BenchmarkDecodeOTLP.
type otlpAttrSet struct {
	vals     [otlpNKeys]otlpValue
	has      uint64
	prefixes uint8
}

// otlpNoValue is the value of an attribute not in a set; never written.
var otlpNoValue otlpValue

// reset empties the set.
func (a *otlpAttrSet) reset() { a.has, a.prefixes = 0, 0 }

// set sets attribute k to v.
func (a *otlpAttrSet) set(k otlpKey, v otlpValue) {
	a.vals[k] = v
	a.has |= 1 << k
}

// val returns attribute k, of kind otlpNone when absent; read only.
func (a *otlpAttrSet) val(k otlpKey) *otlpValue {
	if a.has&(1<<k) == 0 {
		return &otlpNoValue
	}
	return &a.vals[k]
}

// otlpAttrSetOf collects the attributes of a decoded attribute map.
func otlpAttrSetOf(m map[string]any) *otlpAttrSet {
	a := &otlpAttrSet{}
	for k, v := range m {
		a.prefixes |= otlpPrefixes(k)
		if key, ok := otlpKeyOf(k); ok {
			a.set(key, otlpValueOf(v))
		}
	}
	return a
}

// str returns attribute k when it is a string.
func (a *otlpAttrSet) str(k otlpKey) (string, bool) {
	if a == nil { // a bare span has no resource
		return "", false
	}
	v := a.val(k)
	return v.s, v.kind == otlpStr
}

// bool returns attribute k when it is a boolean.
func (a *otlpAttrSet) bool(k otlpKey) (bool, bool) {
	v := a.val(k).kind
	return v == otlpTrue, v == otlpTrue || v == otlpFalse
}

// firstString returns the first non-empty string attribute of keys.
func (a *otlpAttrSet) firstString(keys ...otlpKey) string {
	for _, k := range keys {
		if s, ok := a.str(k); ok && s != "" {
			return s
		}
	}
	return ""
}

// detail names attribute k and its value for a reject.
func (a *otlpAttrSet) detail(k otlpKey) string {
	return otlpKeyNames[k] + "=" + otlpFormat(a.val(k).any())
}

// otlpFormat prints a decoded value as %v does.
func otlpFormat(v any) string { return fmt.Sprint(v) }

// firstInt returns the first of keys present (ok) as a non-negative
// integer (int64, a whole float64 or a numeric string); bad reports a
// present value that is not one, with its key.
func (a *otlpAttrSet) firstInt(keys ...otlpKey) (v int64, ok bool, key otlpKey, bad bool) {
	for _, k := range keys {
		var i int64
		switch x := a.val(k); x.kind {
		case otlpNone:
			continue
		case otlpInt:
			i = x.i
		case otlpDouble:
			if x.f != math.Trunc(x.f) || x.f > 1<<53 || x.f < 0 {
				return 0, false, k, true
			}
			i = int64(x.f)
		case otlpStr:
			n, err := strconv.ParseInt(x.s, 10, 64)
			if err != nil {
				return 0, false, k, true
			}
			i = n
		default:
			return 0, false, k, true
		}
		if i < 0 {
			return 0, false, k, true
		}
		return i, true, k, false
	}
	return 0, false, 0, false
}

// seconds returns attribute k, a duration in seconds, as nanoseconds, and
// whether it is present; bad reports a value that is not a finite duration
// of 0 to 10^6 s.
func (a *otlpAttrSet) seconds(k otlpKey) (ns int64, ok, bad bool) {
	var f float64
	switch x := a.val(k); x.kind {
	case otlpNone:
		return 0, false, false
	case otlpDouble:
		f = x.f
	case otlpInt:
		f = float64(x.i)
	case otlpStr:
		var err error
		if f, err = strconv.ParseFloat(x.s, 64); err != nil {
			return 0, false, true
		}
	default:
		return 0, false, true
	}
	if math.IsNaN(f) || f < 0 || f > 1e6 {
		return 0, false, true
	}
	return int64(math.Round(f * 1e9)), true, false
}
