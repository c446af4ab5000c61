package envoy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// This file reads the records of an Envoy access log (see envoy.go): text
// lines by the format strings, JSON records by the key→operator map, each
// by the fast path first when it is on (envoy_fast.go).

// envoyDecode is Decode, by the fast path (envoy_fast.go) when fast is set
// and it takes the record, else by the general route.
func envoyDecode(in *decode.Input, sink decode.Sink, fast bool) error {
	e := envoyRoutes{fast: fast}
	lf := strings.TrimSpace(in.Opts.LogFormat)
	if strings.HasPrefix(lf, "{") {
		var m map[string]string
		if err := json.Unmarshal([]byte(lf), &m); err != nil {
			return fmt.Errorf("envoy: --log-format is not a JSON object of strings: %v", err)
		}
		return e.decodeJSON(in.R, in, sink, m)
	}
	br := bufio.NewReaderSize(in.R, 64<<10)
	if lf == "" {
		if decode.PeekJSONStart(br) {
			return e.decodeJSON(br, in, sink, envoyDefaultJSONMap)
		}
	}
	var formats []envoyFormat
	if lf == "" {
		for _, s := range append([]string{envoyDefaultFormat}, envoyIstioFormats...) {
			f, _ := parseEnvoyFormat(s)
			formats = append(formats, f)
		}
	} else {
		f, err := parseEnvoyFormat(in.Opts.LogFormat)
		if err != nil {
			return fmt.Errorf("envoy: --log-format: %v", err)
		}
		formats = []envoyFormat{f}
	}
	return e.decodeText(br, in, sink, formats)
}

// CompileLogFormat compiles spec as Decode would, a text format string or
// a JSON key→operator map, and returns why it cannot be read. A format
// that names no operator (%NAME%) reads no field and is refused, as is a
// map none of whose values is a single operator.
func CompileLogFormat(spec string) error {
	lf := strings.TrimSpace(spec)
	if strings.HasPrefix(lf, "{") {
		var m map[string]string
		if err := json.Unmarshal([]byte(lf), &m); err != nil {
			return fmt.Errorf("not a JSON object of strings: %v", err)
		}
		for _, op := range envoyKeyOps(m) {
			if op != nil {
				return nil
			}
		}
		return errors.New("JSON map has no value that is one %OPERATOR%")
	}
	f, err := parseEnvoyFormat(spec)
	if err != nil {
		return err
	}
	for _, t := range f {
		if t.op != nil {
			return nil
		}
	}
	return errors.New("format has no %OPERATOR%")
}

// envoyRoutes decodes an input by the general route, trying the fast path
// first when fast is set.
type envoyRoutes struct{ fast bool }

func (e envoyRoutes) decodeText(r io.Reader, in *decode.Input, sink decode.Sink, formats []envoyFormat) error {
	var fast *envoyTextFast
	if e.fast {
		fast = &envoyTextFast{}
		for _, f := range formats {
			fast.plans = append(fast.plans, newEnvoyTextPlan(f))
		}
	}
	return decode.ReadRecordsByLine(r, sink, func(line int64, text []byte) {
		if fast == nil || !fast.line(in, sink, line, text) {
			envoyTextLine(in, sink, line, text, formats)
		}
	})
}

// envoyTextLine decodes one text line by the first format that matches it.
func envoyTextLine(in *decode.Input, sink decode.Sink, line int64, text []byte, formats []envoyFormat) {
	if len(bytes.TrimSpace(text)) == 0 {
		sink.Skip(line, "blank line")
		return
	}
	for _, f := range formats {
		if vals, ok := f.match(string(text)); ok {
			envoyEmit(in, sink, line, text, vals)
			return
		}
	}
	sink.Reject(line, "format mismatch", decode.TruncateDetail(string(text)))
}

func (e envoyRoutes) decodeJSON(r io.Reader, in *decode.Input, sink decode.Sink, m map[string]string) error {
	ops := envoyKeyOps(m)
	var fast *envoyJSONFast
	if e.fast {
		fast = newEnvoyJSONFast(ops)
	}
	var fastLine func(line int64, t []byte) bool
	if fast != nil {
		fastLine = func(line int64, t []byte) bool { return fast.record(in, sink, line, t) }
	}
	return decode.JSONRecordsFast(r, sink, fastLine, func(line int64, raw []byte) {
		if fast == nil || !fast.record(in, sink, line, raw) {
			envoyJSONRecord(in, sink, line, raw, ops)
		}
	})
}

// envoyKeyOps parses the operator of each key of the key→operator map m
// once per input (parsing it per record was a third of the decode time);
// a key whose value is not a single operator maps to nil.
func envoyKeyOps(m map[string]string) map[string]*envoyOp {
	ops := make(map[string]*envoyOp, len(m))
	for k, op := range m {
		ops[k] = nil
		if f, err := parseEnvoyFormat(op); err == nil && len(f) == 1 && f[0].op != nil {
			ops[k] = f[0].op
		}
	}
	return ops
}

// envoyJSONRecord decodes one JSON access-log object with the key→operator
// map ops (see envoyKeyOps).
func envoyJSONRecord(in *decode.Input, sink decode.Sink, line int64, raw []byte, ops map[string]*envoyOp) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		sink.Reject(line, "invalid json", decode.TruncateDetail(string(raw)))
		return
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // map order is random; the event must not be
	var vals []envoyValue
	for _, k := range keys {
		s := decode.JSONString(obj[k])
		if s == "-" {
			s = ""
		}
		if op, ok := ops[k]; ok {
			if op != nil {
				vals = append(vals, envoyValue{*op, s})
			}
			continue
		}
		if strings.HasPrefix(k, "gen_ai.") {
			vals = append(vals, envoyValue{envoyOp{name: "GENAI", arg: k}, s})
		}
	}
	envoyEmit(in, sink, line, raw, vals)
}
